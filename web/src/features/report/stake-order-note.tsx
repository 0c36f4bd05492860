import { Text } from '@mantine/core';

/** Said above the rows while they sort by what is at stake (no column sorted, a source of a stake connected). */
export const STAKE_ORDER_NOTE =
  'Sorted by what is at stake on each URL: visits (sessions, or search clicks without Analytics), then revenue plus ad spend, then impressions. Sort a column to order by it instead.';

export function StakeOrderNote() {
  return (
    <Text size="xs" c="dimmed" px="md" pb="xs" data-testid="stake-order-note">
      {STAKE_ORDER_NOTE}
    </Text>
  );
}
