import { ActionIcon, Group, Stack, Text, Tooltip } from '@mantine/core';
import type { SourceImport } from '../../../../catalog/data-source-calls.ts';
import { formatDate, formatNumber } from '../../../../catalog/format.ts';
import { Icon } from '../../components/icon.tsx';

export interface ImportListProps {
  imports: SourceImport[];
  byWhom: (record: SourceImport) => string;
  isBusy: boolean;
  onRemove: (record: SourceImport) => void;
}

const GRANULARITY: Record<SourceImport['coverage']['granularity'], string> = {
  day: 'days',
  week: 'weeks',
  month: 'months',
  period: 'totals for',
};

const datesOf = ({ coverage }: SourceImport): string =>
  `${GRANULARITY[coverage.granularity]} ${formatDate(coverage.start)} – ${formatDate(coverage.end)}`;

/** The imports that make the source's data, newest first, each removable. */
export function ImportList({ imports, byWhom, isBusy, onRemove }: ImportListProps) {
  return (
    <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Imports">
      {imports.map((record, i) => (
        <Group
          key={record.id ?? `${record.at}-${i}`}
          component="li"
          gap="xs"
          justify="space-between"
          wrap="nowrap"
          data-testid="source-import"
          style={{ borderTop: '1px solid var(--mantine-color-gray-2)', paddingTop: 4 }}
        >
          <div style={{ minWidth: 0 }}>
            <Text size="xs" fw={600} truncate="end">
              {record.files.join(', ')}
            </Text>
            <Text size="xs" c="dimmed">
              {formatNumber(record.rows)} rows, {datesOf(record)}; {formatDate(record.at)} by {byWhom(record)}
              {record.isReplace ? ' (replacing)' : ''}
            </Text>
          </div>
          {record.id ? (
            <Tooltip label="Remove this import">
              <ActionIcon
                variant="subtle"
                color="red.8"
                disabled={isBusy}
                onClick={() => onRemove(record)}
                aria-label={`Remove the import of ${record.files.join(', ')}`}
              >
                <Icon name="trash" size={16} />
              </ActionIcon>
            </Tooltip>
          ) : null}
        </Group>
      ))}
    </Stack>
  );
}
