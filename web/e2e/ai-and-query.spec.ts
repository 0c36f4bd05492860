/**
 * The AI suggestion states (spec §4) on the demo's isAi website with the offline provider, and the query-report
 * dialog checked against the query call, both against the real service; review screenshots go to SHOTS_DIR.
 */
import fs from 'node:fs';
import { tableFromIPC } from 'apache-arrow';
import { expect, test, type Page } from '@playwright/test';
import type { QueryReport } from '../../catalog/api.ts';
import { formatCurrency, formatNumber, formatPercent } from '../../catalog/format.ts';
import { SECTION, api, authFile, open, query, waitForOverview, watchProblems, websites } from './helpers.ts';

const AI_NOTE = 'Note: This content is AI generated and requires human verification';
const AI_ERROR = 'An error occurred';
const NO_SOURCE_DATA = 'No data for this query in the date range.';
const SHOTS_DIR = process.env.SHOTS_DIR ?? '/tmp/shots';

test.use({ storageState: authFile('staff') });

interface OverviewAnswer {
  severityMap: Record<string, { reports: { reportId: string; ems_lumar_row_count: number }[] }>;
}

const bodyRows = (page: Page) => page.getByTestId('report-table').locator('tbody tr[data-index]');
const cell = (page: Page, index: number, column: string) =>
  bodyRows(page).nth(index).locator(`td[data-column="${column}"]`);

/** Opens a report of Northwind's default crawl; returns the rows the page received (decoded Arrow). */
async function openReport(page: Page, pick: (counts: Map<string, number>) => string) {
  await open(page, `${SECTION}?website=${websites.northwind.id}`);
  await waitForOverview(page);
  const crawl = query(page).get('crawl')!;
  const overview = await api<OverviewAnswer>(page, '/api/technical-health-check/overview/get-overview', {
    websiteId: websites.northwind.id,
    currentId: Number(crawl),
    refresh: false,
  });
  const counts = new Map(
    Object.values(overview.severityMap).flatMap((s) => s.reports.map((r) => [r.reportId, r.ems_lumar_row_count])),
  );
  const reportId = pick(counts);
  const rowsAnswer = page.waitForResponse((r) => r.url().endsWith('/report/get-rows') && r.ok());
  await page.goto(`${SECTION}/${reportId}?website=${websites.northwind.id}&crawl=${crawl}`);
  const table = tableFromIPC(await (await rowsAnswer).body());
  await expect(page.getByTestId('page-label')).toHaveText(/^Page 1 of \d+$/, { timeout: 20_000 });
  const rows = table.toArray().map((r) => (r as { toJSON(): Record<string, unknown> }).toJSON());
  await expect(bodyRows(page)).toHaveCount(rows.length);
  return { reportId, crawl, rows };
}

const AI_TITLE_REPORTS = ['meta/short-titles', 'meta/max-titles', 'meta/duplicate-titles'];

async function openAiReport(page: Page) {
  return openReport(page, (counts) => {
    const found = AI_TITLE_REPORTS.find((id) => (counts.get(id) ?? 0) >= 3);
    expect(found, 'a demo title report with AI suggestions and 3+ rows').toBeTruthy();
    return found!;
  });
}

/** The suggestion the service gives for a URL, read with the page's session. */
async function suggestionFor(page: Page, url: string): Promise<string> {
  const me = (await (await page.request.get('/api/auth/me')).json()) as { csrfToken: string };
  const answer = await page.request.post('/api/ai/get-data', {
    data: { url, type: 'page-title', websiteId: websites.northwind.id },
    headers: { 'x-csrf-token': me.csrfToken },
  });
  expect(answer.status()).toBe(200);
  return answer.text();
}

test('AI title suggestions: Suggest, spinner, text with its note, only on status 200 rows, and the error', async ({
  page,
}) => {
  const problems = watchProblems(page, {
    allowStatus: (url, status) => url.endsWith('/api/ai/get-data') && status === 500,
  });
  const { rows } = await openAiReport(page);
  await expect(page.getByRole('columnheader', { name: /AI Title Suggestion/ })).toBeVisible();

  // Every row the page received carries its status; 'Suggest' shows exactly on the 200s.
  const statuses = rows.map((r) => Number(r.http_status_code));
  expect(statuses.every((s) => Number.isFinite(s))).toBe(true);
  for (const [i, status] of statuses.entries()) {
    const suggest = cell(page, i, 'ai_title').getByRole('button', { name: /^Suggest a page title for / });
    await expect(suggest).toHaveCount(status === 200 ? 1 : 0);
    if (status === 200) await expect(suggest).toHaveText('Suggest');
  }
  const okRows = statuses.flatMap((s, i) => (s === 200 ? [i] : []));
  expect(okRows.length, 'rows with status 200').toBeGreaterThanOrEqual(2);
  const [first, second] = okRows as [number, number];

  // Pending: a slow network keeps the spinner up long enough to see.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 1500,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await cell(page, first, 'ai_title')
    .getByRole('button', { name: /^Suggest/ })
    .click();
  await expect(cell(page, first, 'ai_title').getByLabel('Suggesting')).toBeVisible();
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

  // Success: the service's suggestion and the note.
  await expect(cell(page, first, 'ai_title').getByText(AI_NOTE, { exact: true })).toBeVisible({ timeout: 20_000 });
  const expected = await suggestionFor(page, String(rows[first]!.url));
  expect(expected.length).toBeGreaterThanOrEqual(20);
  expect(expected.length).toBeLessThanOrEqual(65);
  await expect(cell(page, first, 'ai_title').getByText(expected, { exact: true })).toBeVisible();
  await expect(cell(page, first, 'ai_title').getByRole('button')).toHaveCount(0);

  // Error: the service answers 500 for this one request.
  await page.route('**/api/ai/get-data', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"provider failed"}' }),
  );
  await cell(page, second, 'ai_title')
    .getByRole('button', { name: /^Suggest/ })
    .click();
  await expect(cell(page, second, 'ai_title').getByText(AI_ERROR, { exact: true })).toBeVisible();
  await expect(cell(page, second, 'ai_title').getByText(AI_NOTE)).toHaveCount(0);
  await page.unroute('**/api/ai/get-data');
  // The other rows keep their own state.
  await expect(cell(page, first, 'ai_title').getByText(AI_NOTE, { exact: true })).toBeVisible();

  // Chromium logs the simulated 500 as a console error; anything else is a real problem.
  expect(problems().filter((p) => !/status of 500/.test(p))).toEqual([]);
});

const stat = (page: Page, id: string) => page.getByTestId('query-report-dialog').getByTestId(`stat-${id}`);

async function sourceShows(page: Page, id: string, isEmpty: boolean): Promise<void> {
  const source = page.getByTestId(`query-source-${id}`);
  await expect(source).toHaveAttribute('data-empty', String(isEmpty));
  await expect(source.getByText(NO_SOURCE_DATA, { exact: true })).toHaveCount(isEmpty ? 1 : 0);
}

/** Opens search-console/all and the dialog of the first query on page 1 whose report passes `isWanted`. */
async function openQueryDialog(page: Page, isWanted: (report: QueryReport) => boolean, wanted: string) {
  const { crawl } = await openReport(page, () => 'search-console/all');
  const buttons = page.getByTestId('report-table').getByTestId('query-report-button');
  await expect(buttons.first()).toBeVisible();
  const labels = await buttons.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
  for (const [index, label] of labels.entries()) {
    const text = label.replace(/^Open the query report for /, '');
    const report = await api<QueryReport>(page, '/api/technical-health-check/query/get-report', {
      websiteId: websites.northwind.id,
      query: text,
      currentId: Number(crawl),
    });
    if (!isWanted(report)) continue;
    const sent = page.waitForRequest((r) => r.url().endsWith('/query/get-report'));
    await buttons.nth(index).click();
    const payload = (await sent).postDataJSON() as Record<string, unknown>;
    await expect(page.getByTestId('query-report')).toBeVisible({ timeout: 20_000 });
    await page.mouse.move(0, 0);
    return { text, payload, crawl };
  }
  throw new Error(`no query on the first page with ${wanted}`);
}

const hasAdsAndAnEmptySource = (r: QueryReport) =>
  r.adsOne.totals !== null && (r.trends.length === 0 || r.keywordPlanner === null || r.adsTwo.totals === null);
const hasPlannerAndTrends = (r: QueryReport) => r.keywordPlanner !== null && r.trends.length > 0;

test('the query-report dialog shows what the query call returns, in pounds, with empty sources', async ({ page }) => {
  const problems = watchProblems(page);
  const { text, payload, crawl } = await openQueryDialog(page, hasAdsAndAnEmptySource, 'ads data and an empty source');
  const dialog = page.getByTestId('query-report-dialog');
  await expect(dialog.getByText(`Query report: “${text}”`)).toBeVisible();
  // The dialog asks for the report page's crawl and date range.
  expect(payload).toMatchObject({ websiteId: websites.northwind.id, query: text, currentId: Number(crawl) });
  expect(payload.dataDateRange).toMatchObject({ start: expect.any(String), end: expect.any(String) });

  const report = await api<QueryReport>(page, '/api/technical-health-check/query/get-report', payload);
  const { overTime, byUrl } = report.searchConsole;
  expect(overTime.length).toBeGreaterThan(0);

  // Search console
  const clicks = overTime.reduce((a, p) => a + p.clicks, 0);
  const impressions = overTime.reduce((a, p) => a + p.impressions, 0);
  await sourceShows(page, 'search-console', false);
  await expect(stat(page, 'sc-clicks')).toHaveText(formatNumber(clicks));
  await expect(stat(page, 'sc-impressions')).toHaveText(formatNumber(impressions));
  await expect(stat(page, 'sc-ctr')).toHaveText(formatPercent(impressions ? clicks / impressions : 0));
  const urlRows = page.getByTestId('query-search-console-urls').locator('tbody tr');
  await expect(urlRows).toHaveCount(byUrl.length);
  // A landing page of the website itself shows as its path, with the full URL as tooltip, link and copy text.
  const landing = urlRows.first().locator('[data-column="url"] [data-url]');
  const landingUrl = new URL(byUrl[0]!.url);
  await expect(landing).toHaveText(`${landingUrl.pathname}${landingUrl.search}`);
  await expect(landing).toHaveAttribute('title', byUrl[0]!.url);
  await expect(landing).toHaveAttribute('href', byUrl[0]!.url);
  await expect(urlRows.first().locator('[data-column="clicks"]')).toHaveText(formatNumber(byUrl[0]!.clicks));
  await expect(page.getByTestId('query-source-search-console').locator('svg').first()).toBeVisible();
  // Each chart's value axis labels its ticks apart (a position of 12.1 to 12.6 is not 12, 12, 12).
  const axes = await page
    .getByTestId('query-source-search-console')
    .locator('figure')
    .evaluateAll((figures) =>
      figures.map((f) => [...f.querySelectorAll('[aria-label="y-axis tick label"] text')].map((t) => t.textContent)),
    );
  expect(axes).toHaveLength(4);
  for (const labels of axes) expect(new Set(labels).size).toBe(labels.length);
  expect(axes.some((labels) => labels.length >= 2)).toBe(true);

  // Ads platform one, money in pounds
  const adsOne = report.adsOne.totals!;
  await sourceShows(page, 'ads-one', false);
  await expect(stat(page, 'ads-one-clicks')).toHaveText(formatNumber(adsOne.clicks));
  await expect(stat(page, 'ads-one-costs')).toHaveText(formatCurrency(adsOne.costs));
  await expect(stat(page, 'ads-one-costs')).toHaveText(/^£/);
  await expect(stat(page, 'ads-one-revenue')).toHaveText(formatCurrency(adsOne.revenue));
  await expect(stat(page, 'ads-one-all-revenue')).toHaveText(formatCurrency(adsOne.all_revenue));
  await expect(stat(page, 'ads-one-conversions')).toHaveText(formatNumber(adsOne.conversions, 2));
  await expect(page.getByTestId('query-ads-one-terms').locator('tbody tr')).toHaveCount(
    report.adsOne.searchTerms.length,
  );

  // Ads platform two, trends and keyword planner: figures or their empty state
  await sourceShows(page, 'ads-two', report.adsTwo.totals === null);
  if (report.adsTwo.totals)
    await expect(stat(page, 'ads-two-costs')).toHaveText(formatCurrency(report.adsTwo.totals.costs));
  await sourceShows(page, 'trends', report.trends.length === 0);
  if (report.trends.length) await expect(stat(page, 'trends-points')).toHaveText(formatNumber(report.trends.length));
  const planner = report.keywordPlanner;
  await sourceShows(page, 'keyword-planner', planner === null);
  if (planner?.average_cpc != null)
    await expect(stat(page, 'kp-average-cpc')).toHaveText(formatCurrency(planner.average_cpc));
  if (planner?.total_search_volume != null)
    await expect(stat(page, 'kp-total-volume')).toHaveText(formatNumber(planner.total_search_volume));

  await page.getByRole('button', { name: 'Close the query report' }).click();
  await expect(dialog).toHaveCount(0);
  expect(problems()).toEqual([]);
});

test('the query-report dialog charts keyword planner months and trends', async ({ page }) => {
  const problems = watchProblems(page);
  const { payload } = await openQueryDialog(page, hasPlannerAndTrends, 'keyword planner and trends data');
  const report = await api<QueryReport>(page, '/api/technical-health-check/query/get-report', payload);
  const planner = report.keywordPlanner!;
  await sourceShows(page, 'keyword-planner', false);
  await sourceShows(page, 'trends', false);
  await expect(stat(page, 'kp-average-volume')).toHaveText(formatNumber(planner.average_search_volume!));
  await expect(stat(page, 'kp-total-volume')).toHaveText(formatNumber(planner.total_search_volume!));
  // The demo's planner data is a Keyword Stats export, which names no average CPC (its bids are a range), countries
  // or language: absent, shown as a dash, never as £0.00.
  expect(planner).toMatchObject({ average_cpc: null, language: null });
  await expect(stat(page, 'kp-average-cpc')).toHaveText('–');
  await expect(stat(page, 'kp-months')).toHaveText(formatNumber(planner.monthly_records.length));
  await expect(stat(page, 'kp-countries')).toHaveText(planner.countries.join(', ') || '–');
  await expect(stat(page, 'kp-language')).toHaveText('–');
  await expect(stat(page, 'kp-competition')).toContainText(`(${formatNumber(planner.competition_index!)})`);
  await expect(page.getByTestId('query-keyword-planner-chart').locator('svg [aria-label="bar"] rect')).toHaveCount(
    planner.monthly_records.length,
  );
  const peak = Math.max(...report.trends.map((t) => t.value));
  await expect(stat(page, 'trends-peak')).toHaveText(formatNumber(peak));
  await expect(stat(page, 'trends-points')).toHaveText(formatNumber(report.trends.length));
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('query-report-dialog')).toHaveCount(0);
  expect(problems()).toEqual([]);
});

for (const size of [
  { name: '1280', width: 1280, height: 800 },
  { name: '768', width: 768, height: 1024 },
] as const) {
  test(`screenshots at ${size.name}px: an AI suggestion and the query dialog`, async ({ page }) => {
    fs.mkdirSync(SHOTS_DIR, { recursive: true });
    await page.setViewportSize({ width: size.width, height: size.height });
    const { rows } = await openAiReport(page);
    const first = rows.findIndex((r) => Number(r.http_status_code) === 200);
    await cell(page, first, 'ai_title')
      .getByRole('button', { name: /^Suggest/ })
      .click();
    await expect(cell(page, first, 'ai_title').getByText(AI_NOTE)).toBeVisible({ timeout: 20_000 });
    await cell(page, first, 'ai_title').scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS_DIR}/${size.name}-ai-suggestion.png` });

    for (const [name, isWanted] of [
      ['query-dialog', hasAdsAndAnEmptySource],
      ['query-dialog-planner', hasPlannerAndTrends],
    ] as const) {
      await openQueryDialog(page, isWanted, name);
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${SHOTS_DIR}/${size.name}-${name}.png` });
      const body = page.getByTestId('query-report-dialog').locator('.mantine-Modal-content');
      await body.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${SHOTS_DIR}/${size.name}-${name}-end.png` });
    }
  });
}
