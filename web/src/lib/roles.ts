import type { Role } from '../api/types.ts';

export const ROLE_LABELS: Record<Role, string> = { CLIENT: 'Client', STAFF: 'Staff', ADMIN: 'Admin' };
export const ROLE_OPTIONS = (Object.keys(ROLE_LABELS) as Role[]).map((value) => ({ value, label: ROLE_LABELS[value] }));
