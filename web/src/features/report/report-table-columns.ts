/** The report table's features and columns: sizes by format, sorting, and the catalogue's groups as header groups. */
import {
  columnOrderingFeature,
  columnResizingFeature,
  columnSizingFeature,
  columnVisibilityFeature,
  createColumnHelper,
  rowExpandingFeature,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
  type ColumnDef,
} from '@tanstack/react-table';
import type { CatalogColumn } from '../../../../catalog/schema.ts';
import type { ReportRow } from '../../api/report-rows.ts';

export const features = tableFeatures({
  rowSortingFeature,
  rowPaginationFeature,
  columnVisibilityFeature,
  columnOrderingFeature,
  columnSizingFeature,
  columnResizingFeature,
  rowExpandingFeature,
});
export type ReportTableFeatures = typeof features;
const helper = createColumnHelper<typeof features, ReportRow>();

export function catalogColumnOf(meta: unknown): CatalogColumn | undefined {
  return (meta as { column?: CatalogColumn } | undefined)?.column;
}

/** Wide enough for the title and the sort icon, and for typical values of the format. */
function defaultSize(column: CatalogColumn): number {
  return Math.max(formatSize(column), Math.min(280, Math.round(column.title.length * 7.8 + 56)));
}

function formatSize(column: CatalogColumn): number {
  if (column.id === 'checked') return 104;
  switch (column.format) {
    case 'url':
      return 320;
    case 'status-code':
      return 110;
    case 'boolean':
      return 104;
    case 'redirect-chain':
      return 260;
    case 'ai-suggestion':
      return 240;
    case 'rank-bar':
      return 140;
    case 'image-list':
    case 'heading-list':
      return 240;
    case 'text':
      return column.type === 'string' ? 240 : 120;
    default:
      return 124;
  }
}

/** The columns' sizes, sorting and groups; their cells are drawn by the body rows. */
export function buildColumns(columns: readonly CatalogColumn[]): ColumnDef<typeof features, ReportRow, unknown>[] {
  const groups: { group: string; leaves: ColumnDef<typeof features, ReportRow, unknown>[] }[] = [];
  for (const column of columns) {
    const leaf = helper.accessor((row: ReportRow) => row.get(column.id), {
      id: column.id,
      header: column.title,
      size: defaultSize(column),
      minSize: 64,
      maxSize: 900,
      enableSorting: column.format !== 'ai-suggestion' && column.id !== 'checked',
      meta: { column },
    }) as ColumnDef<typeof features, ReportRow, unknown>;
    const last = groups[groups.length - 1];
    if (last && last.group === column.group) last.leaves.push(leaf);
    else groups.push({ group: column.group, leaves: [leaf] });
  }
  return groups.map(({ group, leaves }, index) =>
    helper.group({ id: `group-${index}-${group}`, header: group, columns: leaves }),
  );
}
