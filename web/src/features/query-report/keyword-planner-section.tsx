import { useMemo } from 'react';
import type { QueryReport } from '../../api/query-report.ts';
import { formatCompactNumber, formatCurrency, formatNumber } from '../../../../catalog/format.ts';
import { MiniChart } from './mini-chart.tsx';
import { codeLabel, monthlyValues, notConnectedSource } from './query-report-model.ts';
import { SourceCard } from './source-card.tsx';
import { StatGrid } from './stat-grid.tsx';

const orDash = (value: string | null | undefined) =>
  value === null || value === undefined || value === '' ? '–' : value;

/** Keyword planner: the newest request's volumes, competition, cost per click and targeting. */
export function KeywordPlannerSection({ report }: { report: QueryReport }) {
  const entry = report.keywordPlanner;
  const months = useMemo(() => monthlyValues(entry?.monthly_records ?? []), [entry]);
  return (
    <SourceCard
      id="keyword-planner"
      title="Keyword planner"
      isEmpty={entry === null}
      notConnected={notConnectedSource(report, 'keyword-planner')}
    >
      {entry ? (
        <>
          <StatGrid
            stats={[
              {
                id: 'kp-average-volume',
                label: 'Average search volume',
                value: entry.average_search_volume === null ? '–' : formatNumber(entry.average_search_volume),
              },
              {
                id: 'kp-total-volume',
                label: 'Total search volume',
                value: entry.total_search_volume === null ? '–' : formatNumber(entry.total_search_volume),
              },
              {
                id: 'kp-average-cpc',
                label: 'Average CPC',
                value: entry.average_cpc === null ? '–' : formatCurrency(entry.average_cpc),
              },
              {
                id: 'kp-competition',
                label: 'Competition (index)',
                value: `${entry.competition ? codeLabel(entry.competition) : '–'}${
                  entry.competition_index === null ? '' : ` (${formatNumber(entry.competition_index)})`
                }`,
              },
              { id: 'kp-network', label: 'Network', value: entry.network ? codeLabel(entry.network) : '–' },
              { id: 'kp-countries', label: 'Countries', value: orDash(entry.countries.join(', ')) },
              { id: 'kp-language', label: 'Language', value: orDash(entry.language) },
              { id: 'kp-months', label: 'Monthly records', value: formatNumber(months.length) },
            ]}
          />
          {months.length > 0 ? (
            <MiniChart
              title="Searches per month"
              points={months}
              formatValue={(n, decimals = 0) => formatCompactNumber(n, decimals)}
              isMonthly
              isWhole
              testId="query-keyword-planner-chart"
            />
          ) : null}
        </>
      ) : null}
    </SourceCard>
  );
}
