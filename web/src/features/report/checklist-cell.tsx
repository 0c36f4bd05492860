import { Checkbox } from '@mantine/core';
import type { ReportRow } from '../../api/report-rows.ts';
import { Icon } from '../../components/icon.tsx';
import { checklistItemOf, checklistKey, useChecklist } from './checklist-context.ts';
import type { ReportDefinition } from '../../../../catalog/schema.ts';

/** The 'Checked' cell: a checkbox where the checklist may be edited, else a tick or nothing. */
export function ChecklistCell({ report, row, value }: { report: ReportDefinition; row: ReportRow; value: unknown }) {
  const { isEditable, edits, toggle } = useChecklist();
  const item = checklistItemOf(report, row);
  const edit = edits.get(checklistKey(item));
  const isChecked = edit ? edit.checked : value === true;
  if (!isEditable) {
    return isChecked ? (
      <Icon name="check" size={16} stroke={2.6} color="var(--mantine-color-green-8)" title="Checked" />
    ) : null;
  }
  return (
    <Checkbox
      checked={isChecked}
      onChange={(e) => toggle(row, e.currentTarget.checked)}
      aria-label={`Checked: ${item.url}${item.subKeys.length ? ` (${item.subKeys.join(', ')})` : ''}`}
      size="sm"
      color={edit ? 'orange.7' : 'brand.7'}
      data-edited={edit ? '' : undefined}
    />
  );
}
