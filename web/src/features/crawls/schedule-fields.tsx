import { Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { WEEKDAYS, type CrawlSettings, type CrawlSettingsAnswer } from '../../../../catalog/crawl-runs.ts';
import { Icon } from '../../components/icon.tsx';
import { formatNextRun } from './crawl-run-format.ts';
import { NO_SCHEDULE, type SettingsDraft } from './settings-draft.ts';
import type { FieldErrorOf, SetDraftField } from './settings-fields.ts';

const DAY_OPTIONS = [
  { value: NO_SCHEDULE, label: 'None (manual runs only)' },
  ...WEEKDAYS.map((day) => ({ value: day, label: day[0]!.toUpperCase() + day.slice(1) })),
];

export interface ScheduleFieldsProps {
  answer: CrawlSettingsAnswer;
  draft: SettingsDraft;
  isChanged: boolean;
  set: SetDraftField;
  errorOf: FieldErrorOf;
}

/** The weekly schedule's day and London time, and when the saved schedule runs next. */
export function ScheduleFields({ answer, draft, isChanged, set, errorOf }: ScheduleFieldsProps) {
  return (
    <Stack gap={6}>
      <Group gap="md" align="flex-start" wrap="wrap">
        <Select
          label="Schedule"
          description="Weekly, Europe/London time"
          data={DAY_OPTIONS}
          value={draft.scheduleDay}
          onChange={(value) => {
            if (value) set('scheduleDay', value as SettingsDraft['scheduleDay']);
          }}
          allowDeselect={false}
          w={230}
        />
        <TextInput
          label="Time (London)"
          description="24-hour clock, HH:MM"
          placeholder="06:00"
          maxLength={5}
          value={draft.scheduleTime}
          onChange={(e) => set('scheduleTime', e.currentTarget.value)}
          error={errorOf('schedule')}
          disabled={draft.scheduleDay === NO_SCHEDULE}
          w={150}
        />
      </Group>
      <NextRunLine answer={answer} isScheduleChanged={isChanged && isScheduleEdited(draft, answer.settings)} />
    </Stack>
  );
}

function isScheduleEdited(draft: SettingsDraft, saved: CrawlSettings): boolean {
  const day = saved.schedule?.day ?? NO_SCHEDULE;
  return (
    draft.scheduleDay !== day || (draft.scheduleDay !== NO_SCHEDULE && draft.scheduleTime !== saved.schedule?.time)
  );
}

function NextRunLine({ answer, isScheduleChanged }: { answer: CrawlSettingsAnswer; isScheduleChanged: boolean }) {
  const text = answer.nextRunAt
    ? `Next run: ${formatNextRun(answer.nextRunAt)}`
    : answer.isDefault
      ? 'Next run: none until the settings are saved'
      : 'Next run: none scheduled';
  return (
    <Text size="sm" c="dark.5" data-testid="next-run">
      <Icon name="clock" size={14} style={{ verticalAlign: '-2px', marginRight: 6 }} />
      {text}
      {isScheduleChanged ? ' (save to apply the new schedule)' : ''}
    </Text>
  );
}
