import type { QueryReport } from '../../api/query-report.ts';
import { formatCurrency, formatNumber } from '../../../../catalog/format.ts';
import { notConnectedSource } from './query-report-model.ts';
import { SourceCard } from './source-card.tsx';
import { StatGrid } from './stat-grid.tsx';

/** Ads platform two has no query column: its totals cover the query's landing URLs (README, the query report). */
export function AdsTwoSection({ report }: { report: QueryReport }) {
  const { totals } = report.adsTwo;
  return (
    <SourceCard
      id="ads-two"
      title="Ads platform two (the query's landing URLs)"
      isEmpty={totals === null}
      notConnected={notConnectedSource(report, 'microsoft-ads')}
    >
      {totals ? (
        <StatGrid
          columns={5}
          stats={[
            { id: 'ads-two-clicks', label: 'Clicks', value: formatNumber(totals.clicks) },
            { id: 'ads-two-impressions', label: 'Impressions', value: formatNumber(totals.impressions) },
            { id: 'ads-two-conversions', label: 'Conversions', value: formatNumber(totals.conversions, 2) },
            { id: 'ads-two-costs', label: 'Costs', value: formatCurrency(totals.costs) },
            { id: 'ads-two-revenue', label: 'Revenue', value: formatCurrency(totals.revenue) },
          ]}
        />
      ) : null}
    </SourceCard>
  );
}
