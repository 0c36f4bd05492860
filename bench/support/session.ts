/** The benchmark's analyst: signed in, with the reports it works on and the dashboard's calls on them. */
import { catalog } from '../../catalog/index.ts';
import type { ReportDefinition } from '../../catalog/schema.ts';
import { Client } from './client.ts';
import { CSV_CHUNK_1000, ROWS_PAGE_100, SITE } from './config.ts';

export type Session = Awaited<ReturnType<typeof openSession>>;

/** Signs in and picks the benchmark's reports: the largest URL and links reports the generator fills. */
export async function openSession(port: number) {
  const client = new Client(`http://127.0.0.1:${port}`);
  await client.login();
  const crawls = await client.json<{ crawlId: number; dataStart: string; dataEnd: string }[]>(
    '/api/technical-health-check/crawl/get-redux',
    { websiteId: SITE },
  );
  const [current, previous] = crawls;
  if (!current || !previous) throw new Error('the benchmark needs at least two crawls');
  const overview = await client.json<{
    severityMap: Record<string, { reports: { reportId: string; ems_lumar_row_count: number }[] }>;
  }>('/api/technical-health-check/overview/get-overview', {
    websiteId: SITE,
    currentId: current.crawlId,
    refresh: false,
  });
  const counts = new Map(
    Object.values(overview.severityMap).flatMap((s) => s.reports.map((r) => [r.reportId, r.ems_lumar_row_count])),
  );
  const usesJoins = (r: ReportDefinition): boolean => /\b(gsc|ga)_/.test(r.filter);
  const largest = (table: string): ReportDefinition => {
    const candidates = catalog.reports.filter((r) => r.tableId === table && !usesJoins(r) && r.filter !== 'TRUE');
    const best = candidates.sort((a, b) => (counts.get(b.id) ?? 0) - (counts.get(a.id) ?? 0))[0];
    if (!best) throw new Error(`no ${table} report`);
    return best;
  };
  const urlReport = largest('urls');
  const linkReport = largest('links');
  const sortColumn = urlReport.datatableColumns.find((c) => !urlReport.keyColumns.includes(c) && c !== 'url') ?? 'url';
  const linkSort = linkReport.datatableColumns.find((c) => !linkReport.keyColumns.includes(c)) ?? 'url_from';
  const urlRows = counts.get(urlReport.id) ?? 0;
  const reports = { url: urlReport.id, urlRows, links: linkReport.id, linkRows: counts.get(linkReport.id) ?? 0 };
  console.log(`URL report ${urlReport.id} (${urlRows} rows), links report ${linkReport.id}, sort ${sortColumn}`);

  const base = {
    websiteId: SITE,
    currentId: current.crawlId,
    comparisonId: previous.crawlId,
    dataDateRange: { start: current.dataStart, end: current.dataEnd },
    differenceType: 'all',
    segmentId: null,
    showChecked: false,
    userFilter: '',
    channel: null,
    skipCache: true,
  };
  const summaryOf = (r: ReportDefinition): object => ({
    ...base,
    reportId: r.id,
    tableId: r.tableId,
    trendCrawlIds: crawls.slice(0, 5).map((c) => c.crawlId),
  });
  const rowsOf = (r: ReportDefinition, extra: object): object => ({
    ...base,
    reportId: r.id,
    tableId: r.tableId,
    limit: 10,
    offset: 0,
    orderBy: [],
    ...extra,
  });
  return {
    client,
    crawls,
    current,
    previous,
    urlReport,
    linkReport,
    sortColumn,
    linkSort,
    urlRows,
    reports,
    base,
    summaryOf,
    rowsOf,
  };
}

export type HttpCase = [name: string, url: string, body: object, target: number | undefined];

/** The measured cases: the dashboard's calls on the benchmark's reports. */
export function httpCasesOf(session: Session): { httpCases: HttpCase[]; lastOffset: number; middleOffset: number } {
  const { current, previous, urlReport, linkReport, sortColumn, linkSort, urlRows, summaryOf, rowsOf } = session;
  const lastOffset = Math.max(0, Math.floor((urlRows - 1) / 10) * 10);
  const middleOffset = Math.floor(urlRows / 20) * 10;
  const httpCases: HttpCase[] = [
    [
      'overview',
      '/overview/get-overview',
      { websiteId: SITE, currentId: current.crawlId, comparisonId: previous.crawlId, refresh: true },
      20,
    ],
    ['summary', '/report/get-summary', summaryOf(urlReport), 30],
    ['rows: first page, default sort', '/report/get-rows', rowsOf(urlReport, {}), 100],
    [ROWS_PAGE_100, '/report/get-rows', rowsOf(urlReport, { limit: 100 }), 100],
    [
      `rows: first page, sort ${sortColumn} desc`,
      '/report/get-rows',
      rowsOf(urlReport, { orderBy: [{ id: sortColumn, desc: true }] }),
      100,
    ],
    ['rows: last page, default sort', '/report/get-rows', rowsOf(urlReport, { offset: lastOffset }), 250],
    [
      `rows: middle page, sort ${sortColumn}`,
      '/report/get-rows',
      rowsOf(urlReport, { offset: middleOffset, orderBy: [{ id: sortColumn, desc: false }] }),
      600,
    ],
    ['rows: Added tab', '/report/get-rows', rowsOf(urlReport, { differenceType: 'added' }), 100],
    ['rows: Removed tab', '/report/get-rows', rowsOf(urlReport, { differenceType: 'removed' }), 100],
    ['links report: first page', '/report/get-rows', rowsOf(linkReport, {}), 250],
    [
      `links report: sort ${linkSort}`,
      '/report/get-rows',
      rowsOf(linkReport, { orderBy: [{ id: linkSort, desc: true }] }),
      250,
    ],
    ["rows: 'URLs containing' filter", '/report/get-rows', rowsOf(urlReport, { userFilter: 'product' }), 100],
    [CSV_CHUNK_1000, '/report/get-rows', rowsOf(urlReport, { limit: 1000 }), undefined],
  ];
  return { httpCases, lastOffset, middleOffset };
}
