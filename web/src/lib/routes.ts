/** Routes of spec §2: the overview and /technical-health-check/{category}/{report}. */
export const SECTION_PATH = '/technical-health-check';

export type SectionPage =
  { kind: 'overview' } | { kind: 'report'; category: string; report: string } | { kind: 'unknown'; path: string };

export function parseSectionPath(pathname: string): SectionPage {
  const trimmed = pathname.replace(/\/+$/, '');
  if (trimmed === SECTION_PATH) return { kind: 'overview' };
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
