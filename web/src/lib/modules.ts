/** Module gating (spec §2): a module shows only when the website has it and any setup ID it needs. */
import type { Website, WebsiteModule } from '../api/types.ts';

export const THC_MODULE = 'technical-health-check';

export function thcModuleOf(website: Website): WebsiteModule | undefined {
  return website.modules.find((m) => m.module === THC_MODULE);
}

export function isModuleActive(module: WebsiteModule | undefined): boolean {
  return module?.isActive === true;
}

export type InactiveReason = 'missing-module' | 'missing-setup-id';

export function inactiveReason(module: WebsiteModule | undefined): InactiveReason {
  return module?.reason === 'missing-setup-id' ? 'missing-setup-id' : 'missing-module';
}
