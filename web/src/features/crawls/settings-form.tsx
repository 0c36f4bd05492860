import { useEffect, useMemo, useState, type ChangeEvent, type FormEvent } from 'react';
import {
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import {
  CRAWL_LIMITS,
  WEEKDAYS,
  type CrawlSettings,
  type CrawlSettingsAnswer,
  type CrawlSettingsField,
  type CrawlSettingsProblem,
} from '../../../../catalog/crawl-runs.ts';
import { settingsProblemOf } from '../../api/crawl-runs.ts';
import { showErrorToast, showSuccessToast } from '../../lib/toast.ts';
import { Icon } from '../../components/icon.tsx';
import { formatNextRun } from './crawl-run-format.ts';
import { NO_SCHEDULE, checkDraft, isChanged, toDraft, type SettingsDraft } from './settings-draft.ts';

export interface SettingsFormProps {
  answer: CrawlSettingsAnswer;
  /** Saves the settings; a 400 with a field is shown at that field. */
  save: (settings: CrawlSettings) => Promise<CrawlSettingsAnswer>;
  onSaved: (answer: CrawlSettingsAnswer) => void;
  onChangedState?: (isChanged: boolean) => void;
}

const DAY_OPTIONS = [
  { value: NO_SCHEDULE, label: 'None (manual runs only)' },
  ...WEEKDAYS.map((day) => ({ value: day, label: day[0]!.toUpperCase() + day.slice(1) })),
];

const RENDER_MODE_OPTIONS = [
  { value: 'none', label: 'None: read the raw HTML' },
  { value: 'sample', label: 'Sample: time the rendered pages' },
  { value: 'all', label: 'All: crawl the rendered pages' },
];

const MONOSPACE_INPUT = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

type NumberField = 'maxUrls' | 'maxDepth' | 'concurrency' | 'delayMs' | 'render' | 'timeLimitHours' | 'dataWindowDays';

const range = (field: NumberField) =>
  `${CRAWL_LIMITS[field].min.toLocaleString('en-GB')}–${CRAWL_LIMITS[field].max.toLocaleString('en-GB')}`;

/** Crawl settings of one website, checked as the user types with the rules and messages the service applies. */
export function SettingsForm({ answer, save, onSaved, onChangedState }: SettingsFormProps) {
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
  const set = <K extends keyof SettingsDraft>(key: K, value: SettingsDraft[K]) => {
    setServerProblem(undefined);
    setDraft((current) => ({ ...current, [key]: value }));
  };

  const text = (key: 'startUrl' | 'userAgent') => ({
    value: draft[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(key, e.currentTarget.value),
    error: errorOf(key),
  });
  const lines = (key: 'include' | 'exclude' | 'sitemaps') => ({
    value: draft[key],
    onChange: (e: ChangeEvent<HTMLTextAreaElement>) => set(key, e.currentTarget.value),
    error: errorOf(key),
    rows: 3,
    resize: 'vertical' as const,
  });
  // Minus signs and fractions stay in the box, so the shared check names the field instead of the box dropping them.
  const count = (key: NumberField) => ({
    value: draft[key],
    onChange: (value: number | string) => set(key, value),
    error: errorOf(key),
  });
  const toggle = (key: 'includeSubdomains' | 'respectRobots' | 'checkExternal' | 'renderAssets') => ({
    checked: draft[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(key, e.currentTarget.checked),
    error: errorOf(key),
    mt: { base: 0, sm: 26 },
  });

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

  const isScheduled = draft.scheduleDay !== NO_SCHEDULE;
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby="crawl-settings">
      <form onSubmit={(event) => void submit(event)} noValidate data-testid="crawl-settings">
        <Stack gap="md">
          <Group justify="space-between" align="center" gap="sm">
            <Title order={2} fz="h4" id="crawl-settings">
              Crawl settings
            </Title>
            {answer.isDefault ? (
              <Text size="xs" c="dimmed">
                Not saved yet: these are the defaults.
              </Text>
            ) : null}
          </Group>

          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            <TextInput label="Start URL" placeholder="https://www.example.com/" required {...text('startUrl')} />
            <Switch
              label="Include subdomains"
              description="Crawl www., blog. and other hosts under the start URL's domain."
              {...toggle('includeSubdomains')}
            />
            <Textarea
              label="Include patterns"
              description="Regular expressions, one per line; a URL must match one. Empty: every URL in scope."
              styles={MONOSPACE_INPUT}
              {...lines('include')}
            />
            <Textarea
              label="Exclude patterns"
              description="Regular expressions, one per line; a URL matching one is not crawled."
              styles={MONOSPACE_INPUT}
              {...lines('exclude')}
            />
          </SimpleGrid>

          <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" verticalSpacing="sm">
            <NumberInput label="Max URLs" description={range('maxUrls')} thousandSeparator="," {...count('maxUrls')} />
            <NumberInput
              label="Max depth"
              description={`Links from the start URL, ${range('maxDepth')}`}
              {...count('maxDepth')}
            />
            <NumberInput
              label="Concurrency"
              description={`Requests at once, ${range('concurrency')}`}
              {...count('concurrency')}
            />
            <NumberInput
              label="Delay (ms)"
              description="Pause between requests"
              thousandSeparator=","
              {...count('delayMs')}
            />
          </SimpleGrid>

          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            <TextInput
              label="User agent"
              description="Leave empty to use the crawler's default user agent."
              placeholder="The crawler's default"
              {...text('userAgent')}
            />
            <Switch
              label="Respect robots.txt"
              description="Skip URLs robots.txt disallows and wait its crawl-delay."
              {...toggle('respectRobots')}
            />
            <NumberInput
              label="Rendered pages"
              description="Indexable pages rendered in Chromium for the performance columns; 0 renders none."
              {...count('render')}
            />
            <Select
              label="Render mode"
              description="All: every page is rendered in Chromium and the crawl reads the rendered page (JavaScript sites)."
              data={RENDER_MODE_OPTIONS}
              value={draft.renderMode}
              onChange={(value) => {
                if (value) set('renderMode', value as SettingsDraft['renderMode']);
              }}
              allowDeselect={false}
              error={errorOf('renderMode')}
            />
            <Switch
              label="Download images, media and fonts"
              description="Rendered pages load them too (slower; off leaves them out, as the DOM does not need them)."
              {...toggle('renderAssets')}
            />
            <Switch
              label="Check external links"
              description="Ask other websites for the status of the pages linked to; off leaves it unknown."
              {...toggle('checkExternal')}
            />
            <NumberInput
              label="Time limit (hours)"
              description={`${range('timeLimitHours')}; then the crawl stops and loads what it has`}
              {...count('timeLimitHours')}
            />
            <NumberInput
              label="Data window (days)"
              description={`${range('dataWindowDays')}; each crawl joins the imported data of these days before its crawl date`}
              {...count('dataWindowDays')}
            />
            <Textarea
              label="Sitemap URLs"
              description="One per line, besides robots.txt's sitemaps and /sitemap.xml."
              {...lines('sitemaps')}
            />
          </SimpleGrid>

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
                disabled={!isScheduled}
                w={150}
              />
            </Group>
            <NextRunLine answer={answer} isScheduleChanged={changed && isScheduleEdited(draft, answer.settings)} />
          </Stack>

          <Group justify="flex-end" gap="sm">
            {changed && problem ? (
              <Text size="sm" c="red.8" role="status">
                Fix the field marked in red to save.
              </Text>
            ) : null}
            <Button type="submit" disabled={!canSave} loading={isSaving} leftSection={<Icon name="check" size={16} />}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
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
