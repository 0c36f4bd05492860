/** The app database's enumerations and row shapes as the rest of the service sees them. */
import { z } from 'zod';

export const roles = ['CLIENT', 'STAFF', 'ADMIN'] as const;
export const roleSchema = z.enum(roles);
export type Role = z.infer<typeof roleSchema>;
/** STAFF and ADMIN are internal: they see pending crawls and approve them. */
export const isInternalRole = (role: Role): boolean => role !== 'CLIENT';
/** ADMIN sees every website; CLIENT and STAFF see the websites they are bound to. */
export const seesAllWebsites = (role: Role): boolean => role === 'ADMIN';

export const goalTypes = ['conversion', 'ecommerce'] as const;
export const goalTypeSchema = z.enum(goalTypes);
export type GoalType = z.infer<typeof goalTypeSchema>;

/** What each module needs, beyond its module manager, to be active on a website (spec §2). */
export const moduleRequirements = {
  'technical-health-check': 'none',
  'additional-health-check': 'setup-id',
  'uptime-report': 'setup-id',
  'carbon-footprint': 'flag',
} as const;
export type ModuleName = keyof typeof moduleRequirements;
export const moduleNames = Object.keys(moduleRequirements) as ModuleName[];
export const moduleNameSchema = z.enum(moduleNames as [ModuleName, ...ModuleName[]]);
export const THC_MODULE: ModuleName = 'technical-health-check';

export const websiteIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lowercase letters, digits and dashes');
export const segmentIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lowercase letters, digits and dashes');
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'an email address' }));
export const passwordSchema = z.string().min(8, 'at least 8 characters').max(200, 'at most 200 characters');

/** The segment every website gets: the whole site, no scope. */
export const DEFAULT_SEGMENT = { id: 'all', name: 'All pages' } as const;

export interface User {
  id: number;
  email: string;
  role: Role;
  websites: string[];
  /** A disabled user cannot sign in; their sessions were signed out when they were disabled. */
  isDisabled: boolean;
}

/** The shapes the API answers with are declared once, in the API types both the service and the dashboard read. */
export type { ModuleStatus, Segment, Website } from '../../catalog/api.ts';
