import { Alert, List, Stack, Text } from '@mantine/core';
import { SETTINGS_DIFFER_WARNING, type SettingDifference } from '../../../../catalog/comparability.ts';
import type { Crawl } from '../../api/types.ts';
import { Icon } from '../../components/icon.tsx';
import { useDashboard } from '../../lib/dashboard-context.ts';

/** The settings the current crawl and its comparison were run with differently (the overview's comparability). */
export function useSettingDifferences(): SettingDifference[] {
  const { overview } = useDashboard();
  return overview.status === 'success' ? (overview.data.comparability?.differences ?? []) : [];
}

/** Each differing setting: "Max URLs: 500 in this crawl, 100,000 in the crawl compared with". */
export function SettingDifferencesList({ differences }: { differences: readonly SettingDifference[] }) {
  return (
    <List size="sm" c="dark.6" spacing={2} data-testid="setting-differences">
      {differences.map((d) => (
        <List.Item key={d.setting} data-setting={d.setting}>
          <Text span size="sm" fw={600}>
            {d.title}:
          </Text>{' '}
          <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
            {d.current} in this crawl, {d.comparison} in the crawl compared with
          </Text>
        </List.Item>
      ))}
    </List>
  );
}

/**
 * Said above the overview and every report, over their Added/Removed counts, when the crawl and its comparison were
 * run with different settings (a partial crawl has PartialCrawlNotice).
 */
export function SettingsDifferNotice({ comparison }: { comparison: Crawl | undefined }) {
  const differences = useSettingDifferences();
  if (comparison === undefined || differences.length === 0) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      radius="md"
      icon={<Icon name="alert-triangle" size={20} />}
      title={`Not like for like: compared with ${comparison.label}, run with different settings`}
      data-testid="settings-differ-notice"
      styles={{ title: { color: 'var(--mantine-color-dark-7)' } }}
    >
      <Stack gap={4} maw={760}>
        <Text size="sm" c="dark.6">
          {SETTINGS_DIFFER_WARNING}
        </Text>
        <SettingDifferencesList differences={differences} />
      </Stack>
    </Alert>
  );
}
