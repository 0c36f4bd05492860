import { Badge, Tabs } from '@mantine/core';
import type { DifferenceType, ReportSummary } from '../../../../catalog/api.ts';
import { formatNumber } from '../../../../catalog/format.ts';
import { ToneBadge } from '../../components/tone-badge.tsx';

const TABS: { value: DifferenceType; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'added', label: 'Added' },
  { value: 'removed', label: 'Removed' },
];

/** The breakdown's All / Added / Removed tabs, each with its row count from the summary. */
export function DifferenceTabs({
  tab,
  differences,
  isSummaryError,
  onChange,
}: {
  tab: DifferenceType;
  /** The summary's counts; undefined while it loads or when it failed. */
  differences: ReportSummary['differences'] | undefined;
  isSummaryError: boolean;
  onChange: (tab: DifferenceType) => void;
}) {
  const count = (value: DifferenceType): string =>
    differences ? formatNumber(differences[value]) : isSummaryError ? '–' : '…';
  return (
    <Tabs value={tab} onChange={(value) => onChange((value ?? 'all') as DifferenceType)} px="md" keepMounted={false}>
      <Tabs.List>
        {TABS.map((t) => (
          <Tabs.Tab
            key={t.value}
            value={t.value}
            rightSection={
              tab === t.value ? (
                <Badge size="sm" variant="filled" color="brand.7" radius="sm" tt="none">
                  {count(t.value)}
                </Badge>
              ) : (
                <ToneBadge tone="gray" size="sm">
                  {count(t.value)}
                </ToneBadge>
              )
            }
            data-testid={`tab-${t.value}`}
          >
            {t.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
