/** Pure rules of the report table: its columns, the sort cycle and the page input (spec §2, §4, §5). */
import { CHECKLIST_STATE_COLUMN } from '../../../../catalog/checklist-states.ts';
import { REMOVAL_REASON_COLUMN } from '../../../../catalog/removal-reasons.ts';
import type { CatalogColumn, ReportDefinition } from '../../../../catalog/schema.ts';
import type { DifferenceType, SortOrder, WebsiteSegment } from '../../api/types.ts';

export interface ColumnContext {
  segment: Pick<WebsiteSegment, 'isAi' | 'goalType'> | undefined;
  isLatestCrawl: boolean;
  differenceType: DifferenceType;
  /** 'Show Checked Items': checked rows are listed, with their Checklist state. */
  showChecked?: boolean;
}

/** Where the service sends each checked row's Checklist state: with checked rows shown, and on the Removed tab. */
export function hasChecklistState(report: Pick<ReportDefinition, 'severity'>, context: ColumnContext): boolean {
  return report.severity !== 'NONE' && (context.showChecked === true || context.differenceType === 'removed');
}

/** Spec §5: the checklist column only on the latest crawl, outside the Removed tab, for reports with a severity. */
export function hasChecklist(report: Pick<ReportDefinition, 'severity'>, context: ColumnContext): boolean {
  return context.isLatestCrawl && context.differenceType !== 'removed' && report.severity !== 'NONE';
}

/** Spec §5: AI columns only for isAi websites; conversions for conversion goals; revenue/transactions for ecommerce. */
export function isColumnAllowed(column: Pick<CatalogColumn, 'visibility'>, context: ColumnContext): boolean {
  switch (column.visibility) {
    case 'isAi':
      return context.segment?.isAi === true;
    case 'conversionGoal':
      return context.segment?.goalType === 'conversion';
    case 'ecommerceGoal':
      return context.segment?.goalType === 'ecommerce';
    default:
      return true;
  }
}

export function reportColumns(
  report: Pick<ReportDefinition, 'severity' | 'datatableColumns'>,
  lookup: (id: string) => CatalogColumn | undefined,
  context: ColumnContext,
): CatalogColumn[] {
  const columns = report.datatableColumns
    .map((id) => lookup(id))
    .filter((c): c is CatalogColumn => c !== undefined && c.id !== 'checked' && isColumnAllowed(c, context));
  const checked = hasChecklist(report, context) ? lookup('checked') : undefined;
  const state = hasChecklistState(report, context) ? lookup(CHECKLIST_STATE_COLUMN) : undefined;
  const reason = context.differenceType === 'removed' ? lookup(REMOVAL_REASON_COLUMN) : undefined;
  return [checked, state, ...columns, reason].filter((c): c is CatalogColumn => c !== undefined);
}

/** Spec §4 sort cycle per column: none → desc → asc → none. One column at a time. */
export function nextSort(sorting: readonly SortOrder[], columnId: string): SortOrder[] {
  const current = sorting.find((s) => s.id === columnId);
  if (!current) return [{ id: columnId, desc: true }];
  if (current.desc) return [{ id: columnId, desc: false }];
  return [];
}

/**
 * Spec §5 page input: empty goes to page 1; a whole number from 1 to the page count goes to that page. Anything else
 * (a minus sign, a fraction, a page past the last) is the field's error, never quietly read as another page.
 */
export function pageIndexFromInput(
  input: string | number,
  pageCount: number,
): { index: number; error?: undefined } | { index?: undefined; error: string } {
  if (input === '' || input === null) return { index: 0 };
  const value = typeof input === 'number' ? input : Number(input);
  if (!Number.isInteger(value) || value < 1 || value > pageCount)
    return {
      error: pageCount === 1 ? 'There is only page 1' : `Enter a page from 1 to ${pageCount.toLocaleString('en-GB')}`,
    };
  return { index: value - 1 };
}

export function pageCountOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** Moves a column one place left (-1) or right (+1) in an order. */
export function moveColumn(order: readonly string[], id: string, step: -1 | 1): string[] {
  const index = order.indexOf(id);
  const target = index + step;
  if (index < 0 || target < 0 || target >= order.length) return [...order];
  const next = [...order];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}

/** At most this many leading columns stay in view when the table scrolls sideways. */
const MAX_PINNED_COLUMNS = 2;

/**
 * The leading visible columns up to the first URL column, with their left offsets: they stay in view (like a
 * spreadsheet's frozen column) so every row keeps its URL when a wide table scrolls sideways.
 */
export function pinnedOffsets(leaves: readonly { id: string; size: number; format?: string }[]): Map<string, number> {
  const at = leaves.slice(0, MAX_PINNED_COLUMNS).findIndex((c) => c.format === 'url');
  const offsets = new Map<string, number>();
  let left = 0;
  for (const leaf of leaves.slice(0, at + 1)) {
    offsets.set(leaf.id, left);
    left += leaf.size;
  }
  return offsets;
}

export interface GroupSegment {
  group: string;
  columnIds: string[];
  width: number;
  /** The frozen offset of a segment over frozen columns; undefined when it scrolls. */
  left: number | undefined;
  /** Only a group's first segment names it: the rest of a group split by the frozen edge stays blank. */
  hasLabel: boolean;
}

/**
 * The group heading row (Checklist, Crawl, …) as runs of consecutive visible columns of one group, split where the
 * frozen columns end, so the part over frozen columns freezes with them and nothing scrolls beneath it.
 */
export function groupSegments(
  leaves: readonly { id: string; size: number; group: string }[],
  pinned: ReadonlyMap<string, number>,
): GroupSegment[] {
  const segments: GroupSegment[] = [];
  for (const leaf of leaves) {
    const left = pinned.get(leaf.id);
    const last = segments.at(-1);
    if (last && last.group === leaf.group && (last.left === undefined) === (left === undefined)) {
      last.columnIds.push(leaf.id);
      last.width += leaf.size;
    } else {
      segments.push({
        group: leaf.group,
        columnIds: [leaf.id],
        width: leaf.size,
        left,
        hasLabel: last?.group !== leaf.group,
      });
    }
  }
  return segments;
}
