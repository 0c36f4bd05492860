import {
  Button,
  Group,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { Icon } from '../../components/icon.tsx';
import { CrawlOptionFields } from './crawl-option-fields.tsx';
import { ScheduleFields } from './schedule-fields.tsx';
import { BESIDE_INPUT, MONOSPACE_INPUT, range } from './settings-fields.ts';
import { useSettingsForm, type SettingsFormProps } from './use-settings-form.ts';

export type { SettingsFormProps };

/** Crawl settings of one website, checked as the user types with the rules and messages the service applies. */
export function SettingsForm(props: SettingsFormProps) {
  const { answer } = props;
  const { draft, set, errorOf, fields, problem, changed, canSave, isSaving, submit } = useSettingsForm(props);
  const { text, lines, count, toggle } = fields;
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
              mt={BESIDE_INPUT}
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

          <CrawlOptionFields draft={draft} fields={fields} set={set} errorOf={errorOf} />

          <ScheduleFields answer={answer} draft={draft} isChanged={changed} set={set} errorOf={errorOf} />

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
