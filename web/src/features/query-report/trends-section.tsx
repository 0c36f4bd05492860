import { useMemo } from 'react';
import type { QueryReport } from '../../api/query-report.ts';
import { formatNumber } from '../../../../catalog/format.ts';
import { MiniChart } from './mini-chart.tsx';
import { datedValues, notConnectedSource } from './query-report-model.ts';
import { SourceCard } from './source-card.tsx';
import { StatGrid } from './stat-grid.tsx';

const whole = (n: number, decimals = 0) => formatNumber(n, decimals);

/** Trends: search interest (0 to 100) over time, averaged over the query's topics. */
export function TrendsSection({ report }: { report: QueryReport }) {
  const points = useMemo(() => datedValues(report.trends, (t) => t.value), [report.trends]);
  const values = points.map((p) => p.value);
  const average = values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
  return (
    <SourceCard
      id="trends"
      title="Trends"
      isEmpty={points.length === 0}
      notConnected={notConnectedSource(report, 'trends')}
    >
      <StatGrid
        columns={3}
        stats={[
          { id: 'trends-average', label: 'Average interest', value: formatNumber(average, 1) },
          { id: 'trends-peak', label: 'Peak interest', value: formatNumber(Math.max(...values, 0)) },
          { id: 'trends-points', label: 'Weeks', value: formatNumber(points.length) },
        ]}
      />
      <MiniChart
        title="Interest over time (0 to 100)"
        points={points}
        formatValue={whole}
        isWhole
        testId="query-trends-chart"
      />
    </SourceCard>
  );
}
