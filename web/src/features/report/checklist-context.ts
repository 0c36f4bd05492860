import { createContext, useContext } from 'react';
import type { ChecklistRowKey } from '../../../../catalog/api.ts';
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import type { ReportRow } from '../../api/report-rows.ts';
import { asText } from '../../../../catalog/format.ts';

export interface ChecklistEdit {
  item: ChecklistRowKey;
  checked: boolean;
}

/** The checklist of the open report: whether rows may be (un)checked here, and the unsaved changes. */
export interface ChecklistState {
  isEditable: boolean;
  edits: ReadonlyMap<string, ChecklistEdit>;
  toggle: (row: ReportRow, checked: boolean) => void;
}

export const ChecklistContext = createContext<ChecklistState>({
  isEditable: false,
  edits: new Map(),
  toggle: () => {},
});

export function useChecklist(): ChecklistState {
  return useContext(ChecklistContext);
}

/** The checklist item of a row: its first key column as url, the report's sub-key columns as subKeys. */
export function checklistItemOf(
  report: Pick<ReportDefinition, 'keyColumns' | 'subKeyColumns'>,
  row: ReportRow,
): ChecklistRowKey {
  return {
    url: asText(row.get(report.keyColumns[0] ?? 'url')),
    subKeys: report.subKeyColumns.map((c) => asText(row.get(c))),
  };
}

export function checklistKey(item: ChecklistRowKey): string {
  return JSON.stringify([item.url, item.subKeys]);
}
