/** Routes of spec §2 (the overview and /technical-health-check/{category}/{report}), and the staff's Crawls and Data sources pages. */
export const SECTION_PATH = '/technical-health-check';
/** Outside the spec's section space, so no report id can ever collide with it. */
export const CRAWLS_PATH = '/crawls';
export const DATA_SOURCES_PATH = '/data-sources';
/** Administration (ADMIN and STAFF): websites, users, sessions, audit log. */
export const ADMIN_PATH = '/admin';
/** Where one-time password links land (service/auth/password-tokens.ts), signed in or not. */
export const SET_PASSWORD_PATH = '/set-password';

export type SectionPage =
  | { kind: 'overview' }
  | { kind: 'report'; category: string; report: string }
  | { kind: 'crawls' }
  | { kind: 'data-sources' }
  | { kind: 'admin' }
  | { kind: 'unknown'; path: string };

/** The staff's pages outside the section: Crawls, Data sources and Administration. */
export function isStaffPath(pathname: string): boolean {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === CRAWLS_PATH || trimmed === DATA_SOURCES_PATH || trimmed === ADMIN_PATH;
}

export function parseSectionPath(pathname: string): SectionPage {
  const trimmed = pathname.replace(/\/+$/, '');
  if (trimmed === SECTION_PATH) return { kind: 'overview' };
  if (trimmed === CRAWLS_PATH) return { kind: 'crawls' };
  if (trimmed === DATA_SOURCES_PATH) return { kind: 'data-sources' };
  if (trimmed === ADMIN_PATH) return { kind: 'admin' };
  if (!trimmed.startsWith(`${SECTION_PATH}/`)) return { kind: 'unknown', path: pathname };
  const segments = trimmed.slice(SECTION_PATH.length + 1).split('/');
  if (segments.length === 2 && segments[0] && segments[1]) {
    return { kind: 'report', category: decodeURIComponent(segments[0]), report: decodeURIComponent(segments[1]) };
  }
  return { kind: 'unknown', path: pathname };
}

export function reportPath(reportId: string): string {
  return `${SECTION_PATH}/${reportId}`;
}
