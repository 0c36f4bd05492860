/** The expandable sub-row of a report row (spec §4): redirect chain hops, duplicate set members, a link's sources. */
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import type { ReportRow } from '../../api/report-rows.ts';
import { redirectHops } from '../../../../catalog/cell-format.ts';

export type SubRowKind = NonNullable<ReportDefinition['subRow']>;

/** The row field get-rows fills with the sub-row list (the service's SUB_ROWS_COLUMN). */
export const SUB_ROWS_FIELD = 'subRows';

export const SUB_ROW_TITLES: Record<SubRowKind, string> = {
  'redirect-chain': 'Redirect hops',
  'duplicate-set': 'Duplicate set members',
  'link-sources': 'Source pages',
};

/** The URLs a duplicate-set or link-sources sub-row lists: the other members of the set, or the linking pages. */
export function subRowUrls(row: ReportRow): string[] {
  const value = row.get(SUB_ROWS_FIELD);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item !== '') : [];
}

/** Whether the row expands: its report has a sub-row and the row has something to list in it. */
export function hasSubRow(report: Pick<ReportDefinition, 'subRow'>, row: ReportRow): boolean {
  switch (report.subRow) {
    case 'redirect-chain':
      return redirectHops(row.get('redirect_chain')).length > 0;
    case 'duplicate-set':
    case 'link-sources':
      return subRowUrls(row).length > 0;
    default:
      return false;
  }
}

/** The expander's accessible name, e.g. 'Show the redirect hops'. */
export function expanderLabel(kind: SubRowKind, isExpanded: boolean): string {
  return `${isExpanded ? 'Hide' : 'Show'} the ${SUB_ROW_TITLES[kind].toLowerCase()}`;
}
