import { SimpleGrid, Text } from '@mantine/core';

export interface Stat {
  /** Stable key, also the test id suffix. */
  id: string;
  label: string;
  value: string;
}

/** Headline figures of a source: label above value, packed in a responsive grid. */
export function StatGrid({ stats, columns = 4 }: { stats: readonly Stat[]; columns?: number }) {
  return (
    <SimpleGrid cols={{ base: 2, xs: Math.min(columns, 4), md: columns }} spacing="xs" verticalSpacing={6}>
      {stats.map((stat) => (
        <div key={stat.id} style={{ minWidth: 0 }}>
          <Text size="xs" c="dark.3" lh={1.25}>
            {stat.label}
          </Text>
          <Text
            size="sm"
            fw={650}
            style={{ fontVariantNumeric: 'tabular-nums' }}
            truncate="end"
            title={stat.value}
            data-testid={`stat-${stat.id}`}
          >
            {stat.value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}
