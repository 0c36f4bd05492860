import type { AdsOneSearchTerm, QueryReport } from '../../api/query-report.ts';
import { formatCurrency, formatNumber, formatPercent } from '../../../../catalog/format.ts';
import { CompactTable, type CompactColumn } from './compact-table.tsx';
import { notConnectedSource } from './query-report-model.ts';
import { SourceCard } from './source-card.tsx';
import { StatGrid } from './stat-grid.tsx';

const termColumns: CompactColumn<AdsOneSearchTerm>[] = [
  { id: 'search_term', label: 'Search term', render: (r) => <span title={r.search_term}>{r.search_term}</span> },
  { id: 'clicks', label: 'Clicks', isNumeric: true, render: (r) => formatNumber(r.clicks) },
  { id: 'impressions', label: 'Impr.', isNumeric: true, render: (r) => formatNumber(r.impressions) },
  { id: 'ctr', label: 'CTR', isNumeric: true, render: (r) => formatPercent(r.ctr) },
  { id: 'conversions', label: 'Conv.', isNumeric: true, render: (r) => formatNumber(r.conversions, 2) },
  { id: 'costs', label: 'Costs', isNumeric: true, render: (r) => formatCurrency(r.costs) },
  { id: 'revenue', label: 'Revenue', isNumeric: true, render: (r) => formatCurrency(r.revenue) },
];

/** Ads platform one: totals for the keyword and its search terms. */
export function AdsOneSection({ report }: { report: QueryReport }) {
  const { totals, searchTerms } = report.adsOne;
  return (
    <SourceCard
      id="ads-one"
      title="Ads platform one"
      isEmpty={totals === null}
      notConnected={notConnectedSource(report, 'google-ads')}
    >
      {totals ? (
        <>
          <StatGrid
            stats={[
              { id: 'ads-one-clicks', label: 'Clicks', value: formatNumber(totals.clicks) },
              { id: 'ads-one-impressions', label: 'Impressions', value: formatNumber(totals.impressions) },
              { id: 'ads-one-ctr', label: 'CTR', value: formatPercent(totals.ctr) },
              { id: 'ads-one-costs', label: 'Costs', value: formatCurrency(totals.costs) },
              { id: 'ads-one-conversions', label: 'Conversions', value: formatNumber(totals.conversions, 2) },
              {
                id: 'ads-one-all-conversions',
                label: 'All conversions',
                value: formatNumber(totals.all_conversions, 2),
              },
              { id: 'ads-one-revenue', label: 'Revenue', value: formatCurrency(totals.revenue) },
              { id: 'ads-one-all-revenue', label: 'All revenue', value: formatCurrency(totals.all_revenue) },
            ]}
          />
          {searchTerms.length > 0 ? (
            <CompactTable
              caption={`Search terms (${formatNumber(searchTerms.length)})`}
              columns={termColumns}
              rows={searchTerms}
              rowKey={(r) => r.search_term}
              maxHeight={180}
              testId="query-ads-one-terms"
            />
          ) : null}
        </>
      ) : null}
    </SourceCard>
  );
}
