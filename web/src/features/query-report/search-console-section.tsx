import { useMemo } from 'react';
import { SimpleGrid, Text } from '@mantine/core';
import type { QueryReport, SearchConsoleUrl } from '../../api/query-report.ts';
import { formatNumber, formatPercent } from '../../../../catalog/format.ts';
import { UrlText } from '../../components/url-text.tsx';
import { CompactTable, type CompactColumn } from './compact-table.tsx';
import { MiniChart } from './mini-chart.tsx';
import {
  measureSeries,
  measureTitle,
  notConnectedSource,
  periodText,
  searchConsoleTotals,
} from './query-report-model.ts';
import { SourceCard } from './source-card.tsx';
import { StatGrid } from './stat-grid.tsx';

const whole = (n: number, decimals = 0) => formatNumber(n, decimals);
const percent = (n: number, decimals = 0) => formatPercent(n, decimals);
const position = (n: number, decimals?: number) => formatNumber(n, decimals ?? (n < 10 ? 1 : 0));

const CHARTS: {
  id: 'clicks' | 'impressions' | 'ctr' | 'position';
  measure: string;
  formatValue: (n: number, decimals?: number) => string;
  isWhole?: boolean;
  isReversed?: boolean;
}[] = [
  { id: 'clicks', measure: 'Clicks', formatValue: whole, isWhole: true },
  { id: 'impressions', measure: 'Impressions', formatValue: whole, isWhole: true },
  { id: 'ctr', measure: 'CTR', formatValue: percent },
  { id: 'position', measure: 'Position', formatValue: position, isReversed: true },
];

const urlColumns: CompactColumn<SearchConsoleUrl>[] = [
  {
    id: 'url',
    label: 'Landing URL',
    render: (r) => <UrlText url={r.url} size="xs" />,
  },
  { id: 'clicks', label: 'Clicks', isNumeric: true, render: (r) => formatNumber(r.clicks) },
  { id: 'impressions', label: 'Impressions', isNumeric: true, render: (r) => formatNumber(r.impressions) },
  { id: 'ctr', label: 'CTR', isNumeric: true, render: (r) => formatPercent(r.ctr) },
  {
    id: 'position',
    label: 'Position',
    isNumeric: true,
    render: (r) => (r.position === null ? '–' : formatNumber(r.position, 2)),
  },
];

/** Which figures the totals and charts are, and that the URL table is each page's own (never mixed silently). */
const FIGURES_NOTE: Record<QueryReport['searchConsole']['figures'], string> = {
  property:
    "Totals and charts: Search Console's figures for the whole property, each search counted once, as its Queries tab shows them. By landing URL: each page's own figures; one search that showed several pages counts for each.",
  pages:
    "Totals and charts: the sums of the landing pages' figures, so one search that showed several pages counts for each (Search Console's totals for the whole property are not imported for these dates).",
};

/** Search console: clicks, impressions, CTR and position over time and by landing URL. */
export function SearchConsoleSection({ report }: { report: QueryReport }) {
  const { figures, overTime, byUrl } = report.searchConsole;
  const totals = useMemo(() => searchConsoleTotals(overTime), [overTime]);
  const series = useMemo(
    () => ({
      clicks: measureSeries(overTime, (p) => p.clicks),
      impressions: measureSeries(overTime, (p) => p.impressions),
      ctr: measureSeries(overTime, (p) => p.ctr),
      position: measureSeries(overTime, (p) => p.position),
    }),
    [overTime],
  );
  const periods = useMemo(
    () => [...new Set(overTime.flatMap((p) => (p.period ? [periodText(p.period.start, p.period.end)] : [])))],
    [overTime],
  );
  return (
    <SourceCard
      id="search-console"
      title="Search console"
      isEmpty={overTime.length === 0 && byUrl.length === 0}
      notConnected={notConnectedSource(report, 'search-console')}
    >
      <Text size="xs" c="dimmed" data-testid="query-search-console-figures" data-figures={figures}>
        {FIGURES_NOTE[figures]}
      </Text>
      <StatGrid
        stats={[
          { id: 'sc-clicks', label: 'Clicks', value: formatNumber(totals.clicks) },
          { id: 'sc-impressions', label: 'Impressions', value: formatNumber(totals.impressions) },
          { id: 'sc-ctr', label: 'CTR', value: formatPercent(totals.ctr) },
          {
            id: 'sc-position',
            label: 'Weighted position',
            value: totals.position === null ? '–' : formatNumber(totals.position, 2),
          },
        ]}
      />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs">
        {CHARTS.map((chart) => {
          const measure = series[chart.id];
          return (
            <MiniChart
              key={chart.id}
              title={`${measureTitle(chart.measure, measure)}${chart.isReversed ? ' (lower is better)' : ''}`}
              points={measure.days}
              periods={measure.periods}
              formatValue={chart.formatValue}
              isWhole={chart.isWhole}
              isReversed={chart.isReversed}
            />
          );
        })}
      </SimpleGrid>
      {periods.length > 0 && (
        <Text size="xs" c="dimmed" data-testid="query-search-console-periods">
          {`Totals for ${periods.join(', ')} come from an export without daily rows: each is shown across its period, not as days.`}
        </Text>
      )}
      <CompactTable
        caption={`By landing URL (${formatNumber(byUrl.length)}), each page's own figures`}
        columns={urlColumns}
        rows={byUrl}
        rowKey={(r) => r.url}
        testId="query-search-console-urls"
      />
    </SourceCard>
  );
}
