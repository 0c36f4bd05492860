import { useMemo, useState } from 'react';
import type { DifferenceType } from '../../../../catalog/api.ts';
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import { saveChecklist } from '../../api/technical-health-check.ts';
import { showErrorToast, showLoadingToast, showSuccessToast } from '../../lib/toast.ts';
import { checklistItemOf, checklistKey, type ChecklistEdit, type ChecklistState } from './checklist-context.ts';

interface ChecklistScope {
  report: ReportDefinition;
  websiteId: string;
  segmentId: string | undefined;
  /** The crawl the edits are saved from; undefined while none is chosen. */
  crawlId: number | undefined;
  differenceType: DifferenceType;
  isEditable: boolean;
  /** Called after a save, to show the rows as the service now has them. */
  onSaved: () => void;
}

/** The open report's unsaved checklist edits, the save dialog's state, and saving them to the service. */
export function useChecklistEdits(scope: ChecklistScope) {
  const { report, websiteId, segmentId, crawlId, differenceType, isEditable, onSaved } = scope;
  const [edits, setEdits] = useState<Map<string, ChecklistEdit>>(() => new Map());
  const [isSaveOpen, setSaveOpen] = useState(false);
  const [isSaving, setSaving] = useState(false);

  const state = useMemo<ChecklistState>(
    () => ({
      isEditable,
      edits,
      toggle: (row, checked) =>
        setEdits((current) => {
          const item = checklistItemOf(report, row);
          const key = checklistKey(item);
          const next = new Map(current);
          if (current.has(key) || Boolean(row.get('checked')) === checked) next.delete(key);
          else next.set(key, { item, checked });
          return next;
        }),
    }),
    [isEditable, edits, report],
  );

  const save = async () => {
    if (crawlId === undefined) return;
    const pending = [...edits.values()];
    const toastId = `checklist-${report.id}`;
    setSaving(true);
    showLoadingToast(toastId, 'Saving checklist...');
    try {
      await saveChecklist({
        websiteId,
        segmentId,
        setChecked: pending.filter((e) => e.checked).map((e) => e.item),
        setUnchecked: pending.filter((e) => !e.checked).map((e) => e.item),
        start: crawlId,
        submodule: report.id,
        module: 'technical-health-check',
        end: null,
        differenceType,
      });
      showSuccessToast('Checklist saved', { id: toastId });
      setEdits(new Map());
      setSaveOpen(false);
      onSaved();
    } catch (error) {
      showErrorToast(error instanceof Error && error.message ? error.message : 'An error occurred', { id: toastId });
    } finally {
      setSaving(false);
    }
  };

  return {
    state,
    edits: [...edits.values()],
    discard: () => setEdits(new Map()),
    isSaveOpen,
    openSave: () => setSaveOpen(true),
    closeSave: () => setSaveOpen(false),
    isSaving,
    save,
  };
}
