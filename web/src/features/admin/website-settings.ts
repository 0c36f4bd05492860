/** The website and segment settings as the administration forms show them. */
import type { Website, WebsiteSegment } from '../../api/types.ts';

export const GOAL_LABELS = { conversion: 'Conversion', ecommerce: 'Ecommerce' } as const;
export const NO_GOAL = 'none';
/** The goal select's options; `none` clears it, as in the CLI. */
export const GOAL_OPTIONS = [
  { value: NO_GOAL, label: 'None' },
  { value: 'conversion', label: GOAL_LABELS.conversion },
  { value: 'ecommerce', label: GOAL_LABELS.ecommerce },
];

export const defaultSegmentOf = (website: Website): WebsiteSegment | undefined =>
  website.segments.find((s) => s.isDefault);

/** Each website's name, with its id after it when another website has the same name, so pickers tell them apart. */
export function websiteLabels(websites: readonly Pick<Website, 'id' | 'name'>[]): Map<string, string> {
  const counts = new Map<string, number>();
  for (const { name } of websites) counts.set(name, (counts.get(name) ?? 0) + 1);
  return new Map(websites.map(({ id, name }) => [id, (counts.get(name) ?? 0) > 1 ? `${name} (${id})` : name]));
}
