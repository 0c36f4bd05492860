import type { CatalogColumn } from '../../../../catalog/schema.ts';
import { pinnedOffsets } from './table-model.ts';
import classes from './report-table.module.css';

export interface LeafLayout {
  id: string;
  size: number;
  format: CatalogColumn['format'] | undefined;
  group: string;
}

/** Where the visible columns sit: the frozen ones' offsets, the last frozen one and their width. */
export interface TableLayout {
  pinned: Map<string, number>;
  lastPinned: string | undefined;
  pinnedWidth: number;
}

export function layoutOf(leaves: readonly LeafLayout[]): TableLayout {
  const pinned = pinnedOffsets(leaves);
  const lastPinned = [...pinned.keys()].at(-1);
  const last = leaves.find((leaf) => leaf.id === lastPinned);
  return { pinned, lastPinned, pinnedWidth: last ? pinned.get(last.id)! + last.size : 0 };
}

export function pinStyle(layout: TableLayout, columnId: string): React.CSSProperties | undefined {
  return layout.pinned.has(columnId) ? { left: layout.pinned.get(columnId) } : undefined;
}

export function pinClass(layout: TableLayout, columnId: string): string {
  return layout.pinned.has(columnId)
    ? `${classes.pinned} ${columnId === layout.lastPinned ? classes.pinnedEdge : ''}`
    : '';
}
