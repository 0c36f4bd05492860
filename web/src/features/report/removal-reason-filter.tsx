import { Group, SegmentedControl, Text } from '@mantine/core';
import { formatNumber } from '../../../../catalog/format.ts';
import { REMOVAL_REASONS, type RemovalCounts, type RemovalReason } from '../../../../catalog/removal-reasons.ts';

const ALL = 'all';

/** The Removed tab's reason filter: every reason, or one, each with its count from the summary. */
export function RemovalReasonFilter({
  reason,
  counts,
  onChange,
}: {
  reason: RemovalReason | undefined;
  /** Undefined while the summary loads or when it failed. */
  counts: RemovalCounts | undefined;
  onChange: (reason: RemovalReason | undefined) => void;
}) {
  const countOf = (r: RemovalReason): string => (counts ? ` ${formatNumber(counts[r])}` : '');
  const total = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : undefined;
  return (
    <Group gap="xs" px="md" pt="sm" wrap="wrap" data-testid="removal-reasons">
      <Text size="sm" c="dark.5" id="removal-reason-label">
        Removal reason
      </Text>
      <SegmentedControl
        size="xs"
        aria-labelledby="removal-reason-label"
        value={reason ?? ALL}
        onChange={(value) => onChange(value === ALL ? undefined : value)}
        data={[
          { value: ALL, label: `All${total === undefined ? '' : ` ${formatNumber(total)}`}` },
          ...REMOVAL_REASONS.map((r) => ({ value: r, label: `${r[0]!.toUpperCase()}${r.slice(1)}${countOf(r)}` })),
        ]}
        style={{ maxWidth: '100%', overflowX: 'auto' }}
      />
    </Group>
  );
}
