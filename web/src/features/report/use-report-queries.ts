import { useCallback, useEffect, useMemo } from 'react';
import { DEFAULT_PAGE_SIZE, MAX_TREND_CRAWLS } from '../../../../catalog/constants.ts';
import { requiredSourceOf, type DataSourceId } from '../../../../catalog/data-sources.ts';
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import type { ReportQuery } from '../../api/technical-health-check.ts';
import type { DifferenceType } from '../../api/types.ts';
import { useDashboard } from '../../lib/dashboard-context.ts';
import { useReportStore } from '../../stores/report-store.ts';

/**
 * The open report's view as the URL and the crawl selection give it (tab, page, sort), the summary and rows
 * queries made of it, and their loading: on every change, on refresh, and the store's reset when the page closes.
 * A report a data source feeds loads its rows once its own summary has answered whether the crawl has the source: rows
 * asked for before would be refused (409) on a website without it, and an overview still on screen may be another
 * crawl's.
 */
export function useReportQueries(report: ReportDefinition, notConnected: DataSourceId | undefined) {
  const { website, segment, crawls, current, comparison, range, url, setUrl } = useDashboard();
  const loadSummary = useReportStore((s) => s.loadSummary);
  const loadRows = useReportStore((s) => s.loadRows);
  const summaryKey = useReportStore((s) => s.summaryKey);
  const isSummaryAnswered = useReportStore((s) => s.summary.status === 'success' || s.summary.status === 'error');
  const needsSource = requiredSourceOf(report.category) !== undefined;
  const tab: DifferenceType = url.tab ?? 'all';
  const pageIndex = (url.page ?? 1) - 1;
  const pageSize = url.size ?? DEFAULT_PAGE_SIZE;
  const sorting = useMemo(() => url.sort ?? [], [url.sort]);

  const query = useMemo<ReportQuery | null>(
    () =>
      current && range
        ? {
            websiteId: website.id,
            segmentId: segment?.id ?? null,
            currentId: current.crawlId,
            comparisonId: comparison?.crawlId ?? null,
            dataDateRange: range,
            differenceType: tab,
            removalReason: tab === 'removed' ? (url.reason ?? null) : null,
            reportId: report.id,
            tableId: report.tableId,
            showChecked: url.checked === true,
            userFilter: url.filter ?? '',
            channel: null,
          }
        : null,
    [
      website.id,
      segment?.id,
      current,
      comparison?.crawlId,
      range,
      tab,
      url.reason,
      report.id,
      report.tableId,
      url.checked,
      url.filter,
    ],
  );
  const trendCrawlIds = useMemo(
    () =>
      current
        ? crawls
            .filter((c) => c.crawlId <= current.crawlId)
            .slice(0, MAX_TREND_CRAWLS)
            .map((c) => c.crawlId)
        : [],
    [crawls, current],
  );
  const summaryQuery = useMemo(
    () => (query ? { ...query, differenceType: 'all' as const, removalReason: null, trendCrawlIds } : null),
    [query, trendCrawlIds],
  );
  const page = useMemo(
    () => ({ limit: pageSize, offset: pageIndex * pageSize, orderBy: sorting }),
    [pageSize, pageIndex, sorting],
  );

  useEffect(() => {
    if (summaryQuery) void loadSummary(summaryQuery);
  }, [summaryQuery, loadSummary]);
  const isSourceKnown =
    !needsSource || (summaryQuery !== null && isSummaryAnswered && summaryKey === JSON.stringify(summaryQuery));
  useEffect(() => {
    if (query && report.includeTable && !notConnected && isSourceKnown) void loadRows(query, page);
  }, [query, page, loadRows, report.includeTable, notConnected, isSourceKnown]);
  useEffect(() => () => useReportStore.getState().reset(), []);

  const refresh = () => {
    if (summaryQuery) void loadSummary(summaryQuery, { skipCache: true });
    if (query && report.includeTable) void loadRows(query, page, { force: true });
  };
  const retrySummary = () => {
    if (summaryQuery) void loadSummary(summaryQuery);
  };
  const refreshTable = () => {
    if (query) void loadRows(query, page, { force: true });
  };
  const setPage = useCallback(
    (index: number) => setUrl((s) => ({ ...s, page: index > 0 ? index + 1 : undefined }), { replace: false }),
    [setUrl],
  );

  return { tab, pageIndex, pageSize, sorting, query, refresh, retrySummary, refreshTable, setPage };
}
