import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type {
  CrawlSettings,
  CrawlSettingsAnswer,
  CrawlSettingsField,
  CrawlSettingsProblem,
} from '../../../../catalog/crawl-runs.ts';
import { settingsProblemOf } from '../../api/crawl-runs.ts';
import { showErrorToast, showSuccessToast } from '../../lib/toast.ts';
import { checkDraft, isChanged, toDraft, type SettingsDraft } from './settings-draft.ts';
import { settingsFields, type SetDraftField } from './settings-fields.ts';

export interface SettingsFormProps {
  answer: CrawlSettingsAnswer;
  /** Saves the settings; a 400 with a field is shown at that field. */
  save: (settings: CrawlSettings) => Promise<CrawlSettingsAnswer>;
  onSaved: (answer: CrawlSettingsAnswer) => void;
  onChangedState?: (isChanged: boolean) => void;
}

/** The settings form's draft, its check as the user types, the service's answer to a save and the saving itself. */
export function useSettingsForm({ answer, save, onSaved, onChangedState }: SettingsFormProps) {
  const [draft, setDraft] = useState<SettingsDraft>(() => toDraft(answer.settings));
  const [serverProblem, setServerProblem] = useState<CrawlSettingsProblem | undefined>();
  const [isSaving, setSaving] = useState(false);
  const check = useMemo(() => checkDraft(draft), [draft]);
  const changed = isChanged(check, answer.settings);
  const canSave = check.settings !== undefined && (changed || answer.isDefault);
  useEffect(() => onChangedState?.(changed), [changed, onChangedState]);

  const problem = check.problem ?? serverProblem;
  const errorOf = (field: CrawlSettingsField): string | undefined =>
    problem?.field === field ? problem.error : undefined;
  const set: SetDraftField = (key, value) => {
    setServerProblem(undefined);
    setDraft((current) => ({ ...current, [key]: value }));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!check.settings || !canSave) return;
    setSaving(true);
    try {
      const saved = await save(check.settings);
      setDraft(toDraft(saved.settings));
      onSaved(saved);
      showSuccessToast('Crawl settings saved');
    } catch (error) {
      const fieldProblem = settingsProblemOf(error);
      if (fieldProblem) setServerProblem(fieldProblem);
      showErrorToast('The crawl settings were not saved', {
        message: fieldProblem?.error ?? 'Please try again in a moment.',
      });
    } finally {
      setSaving(false);
    }
  };

  return {
    draft,
    set,
    errorOf,
    fields: settingsFields(draft, set, errorOf),
    problem,
    changed,
    canSave,
    isSaving,
    submit,
  };
}
