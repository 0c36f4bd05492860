/**
 * The Data sources page against the real service: a website whose crawls came without marketing data shows its
 * Search Console reports as not connected; its staff upload the vendor's CSVs on the page, watch the import, and
 * the search-console report and the query report fill in, the query report's parts of the sources still missing
 * saying so. The demo website's sources are connected, as the demo imported them. A client gets the not-found page
 * and 404 from the calls, and reports and query report parts of a missing source as not available.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { QueryReport } from '../../catalog/api.ts';
import {
  SECTION,
  adminCommands,
  api,
  authFile,
  crawlsOf,
  logins,
  reviewShots,
  watchProblems,
  websites,
} from './helpers.ts';
import { BULK_CSV, PERFORMANCE_CSVS, addSiteWithoutSources, waitForImportJobs } from './source-site.ts';

const site = { id: 'e2e-sources' } as const;
const MICROSOFT_CSV = path.join(import.meta.dirname, '../../fixtures/sources/microsoft-ads/destination-url-report.csv');

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(240_000);
  await addSiteWithoutSources(baseURL!, site.id);
});

const report = (reportId: string) => `${SECTION}/${reportId}?website=${site.id}`;

/** Waits until the service has picked the website's crawls up from its store. */
async function waitForCrawls(page: Page): Promise<void> {
  await expect
    .poll(
      async () =>
        (await api<unknown[]>(page, '/api/technical-health-check/crawl/get-redux', { websiteId: site.id })).length,
      {
        timeout: 30_000,
      },
    )
    .toBe(2);
}

test.describe('as staff', () => {
  test.use({ storageState: authFile('staff') });

  test('uploading Search Console exports on the Data sources page lights up its reports and the query report', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const problems = watchProblems(page, { allowStatus: (url, status) => url.includes('/upload') && status === 409 });
    await page.goto(SECTION);
    await waitForCrawls(page);

    // Opened by its address with the overview held back: the page waits for its own summary to say the source is
    // missing and never asks for the rows, which the service would refuse (409).
    const rowsAsked: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/report/get-rows')) rowsAsked.push(request.postData() ?? '');
    });
    await page.route('**/overview/get-overview', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      // The page may have moved on meanwhile, which ends the request.
      await route.continue().catch(() => undefined);
    });
    await page.goto(report('search-console/all'));
    const notConnected = page.getByTestId('not-connected');
    await expect(notConnected).toBeVisible({ timeout: 20_000 });
    await expect(notConnected).toHaveAttribute('data-source', 'search-console');
    expect(rowsAsked).toEqual([]);
    await page.unroute('**/overview/get-overview');
    await notConnected.getByTestId('data-sources-link').click();

    await expect(page.getByRole('heading', { level: 1, name: 'Data sources' })).toBeVisible();
    const card = page.locator('[data-testid="source-card"][data-source="search-console"]');
    await expect(card.getByTestId('source-status')).toHaveText('Not connected');

    // The bulk export (by day, URL and query) feeds the pages and the query report. The Performance report's totals
    // for 1–14 Nov would count its 2–3 Nov twice, so they are refused beside it (409), with both spans named.
    let answered = page.waitForResponse((r) => r.url().includes('/api/data-sources/upload'));
    await card.getByTestId('drop-search-console-input').setInputFiles([BULK_CSV]);
    expect((await answered).status()).toBe(202);
    await waitForImportJobs(page, site.id);
    await expect(card.getByTestId('job-progress')).toHaveCount(0, { timeout: 120_000 });
    answered = page.waitForResponse((r) => r.url().includes('/api/data-sources/upload'));
    await card.getByTestId('drop-search-console-input').setInputFiles(PERFORMANCE_CSVS);
    const refused = await answered;
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toMatch(/Pages\.csv.*2026-11-02/s);
    await expect(card.getByTestId('source-error')).toContainText('Pages.csv');
    // The page has no command line: it names its own way to replace, the checkbox beside the drop zone.
    await expect(card.getByTestId('source-error')).toContainText(
      'tick "Replace the dates these files cover" beside the drop zone to replace them',
    );
    await expect(card.getByTestId('source-error')).not.toContainText('--replace');
    await expect(card.getByTestId('drop-search-console-replace')).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await reviewShots(page, 'data-sources-overlap-refused');
    await expect(card.getByTestId('source-status')).toHaveText('Connected');
    await expect(card.getByTestId('last-import')).toContainText(`by ${logins.staff.email}`);
    await expect(card.getByTestId('source-import')).toHaveCount(1);
    await expect(card.getByTestId('matched-pages')).toContainText('of ');
    await expect(card.getByTestId('unmatched')).toContainText('http://alpine-travel.eu/de/datenschutz');
    await expect(card.getByTestId('coverage-chart').locator('svg')).toBeVisible();
    // The bulk export's two days on an axis of two weeks, ticked from its first day, never by the hour: the data
    // knows no finer grain than a day. Its bars are narrow, not one block across the chart.
    const chart = card.getByTestId('coverage-chart');
    const ticks = await chart.locator('svg g[aria-label="x-axis tick label"] text').allTextContents();
    expect(ticks).toContain('2 Nov');
    expect(
      ticks.every((t) => /^\d{1,2} (Oct|Nov)$/.test(t)),
      ticks.join(', '),
    ).toBe(true);
    const plotWidth = (await chart.locator('svg').boundingBox())!.width;
    const barWidths = await chart
      .locator('svg g[aria-label="rect"]')
      .last()
      .locator('rect')
      .evaluateAll((rects) => rects.map((r) => r.getBoundingClientRect().width));
    expect(barWidths).toHaveLength(2);
    expect(Math.max(...barWidths)).toBeLessThan(plotWidth / 10);

    await page.goto(report('search-console/all'));
    await expect(page.getByTestId('report-table')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('not-connected')).toHaveCount(0);
    const button = page.getByTestId('report-table').getByTestId('query-report-button').first();
    await expect(button).toBeVisible();
    await button.click();
    await expect(page.getByTestId('query-report')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('query-source-search-console')).toHaveAttribute('data-empty', 'false');
    // The sources the website still lacks are not connected, not "no data", with the way to connect them.
    const ads = page.getByTestId('query-source-ads-one');
    await expect(ads).toHaveAttribute('data-not-connected', 'google-ads');
    await expect(ads.getByTestId('not-connected')).toContainText('Google Ads is not connected');
    await expect(ads.getByTestId('data-sources-link')).toHaveAttribute('href', `/data-sources?website=${site.id}`);
    await expect(ads.getByTestId('query-source-empty')).toHaveCount(0);
    await expect(page.getByTestId('query-source-trends')).toHaveAttribute('data-not-connected', 'trends');
    await page.getByTestId('query-source-ads-one').scrollIntoViewIfNeeded();
    await reviewShots(page, 'query-report-not-connected');
    expectOnlyTheRefusedUpload(problems());
  });

  test('a query’s totals over a period (an API response without dates) show as the period in the query report, never as days', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const problems = watchProblems(page);
    await page.goto(SECTION);
    const apiDir = path.join(import.meta.dirname, '../../fixtures/sources/search-console/api');
    const daily = JSON.parse(fs.readFileSync(path.join(apiDir, 'searchanalytics-date-page-query.json'), 'utf8')) as {
      rows: { keys: string[] }[];
    };
    const withoutDates = { ...daily, rows: daily.rows.map((r) => ({ ...r, keys: r.keys.slice(1) })) };
    const me = await page.request.get('/api/auth/me');
    const { csrfToken } = (await me.json()) as { csrfToken: string };
    const uploaded = await page.request.post(
      `/api/data-sources/upload?websiteId=${site.id}&source=search-console&start=2026-11-05&end=2026-11-08`,
      {
        headers: { 'x-csrf-token': csrfToken },
        multipart: {
          files: {
            name: 'searchanalytics-page-query.json',
            mimeType: 'application/json',
            buffer: Buffer.from(JSON.stringify(withoutDates)),
          },
        },
      },
    );
    expect(uploaded.status(), await uploaded.text()).toBe(202);
    await waitForImportJobs(page, site.id);

    await page.goto(report('search-console/all'));
    await expect(page.getByTestId('report-table')).toBeVisible({ timeout: 20_000 });
    const answered = page.waitForResponse((r) => r.url().endsWith('/query/get-report'));
    await page.getByRole('button', { name: 'Open the query report for alpine travel', exact: true }).click();
    const overTime = ((await (await answered).json()) as QueryReport).searchConsole.overTime;
    expect(overTime.filter((p) => p.period).map((p) => [p.date, p.period])).toEqual([
      ['2026-11-08', { start: '2026-11-05', end: '2026-11-08' }],
    ]);
    const days = overTime.filter((p) => !p.period).length;
    expect(days).toBeGreaterThan(0);
    const section = page.getByTestId('query-source-search-console');
    await expect(section.getByTestId('query-search-console-periods')).toHaveText(
      'Totals for 5–8 Nov come from an export without daily rows: each is shown across its period, not as days.',
    );
    const clicks = section.getByRole('figure').filter({ hasText: 'Clicks per day and totals per period' });
    await expect(clicks.locator('g.period-band rect')).toHaveCount(1);
    await expect(clicks.locator('g.period-total line')).toHaveCount(1);
    await expect(clicks.locator('g.period-label text')).toHaveText('total for 5–8 Nov');
    // Dots for the days only: the period's last day gets none.
    await expect(clicks.locator('g[aria-label="dot"] circle')).toHaveCount(days);
    await section.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await reviewShots(page, 'query-report-period');
    expect(problems()).toEqual([]);
  });

  test("the demo website's sources are connected, imported from vendor files by the demo", async ({ page }) => {
    const problems = watchProblems(page);
    await page.goto(`/data-sources?website=${websites.northwind.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Data sources' })).toBeVisible();
    for (const source of ['search-console', 'analytics', 'google-ads', 'microsoft-ads', 'keyword-planner', 'trends']) {
      const card = page.locator(`[data-testid="source-card"][data-source="${source}"]`);
      await expect(card.getByTestId('source-status'), source).toHaveText('Connected', { timeout: 20_000 });
      await expect(card.getByTestId('last-import'), source).toContainText('by demo');
    }
    const searchConsole = page.locator('[data-testid="source-card"][data-source="search-console"]');
    await expect(searchConsole.getByTestId('source-import')).toHaveCount(2);
    await expect(searchConsole.getByTestId('coverage-chart').locator('svg')).toBeVisible();
    expect(problems()).toEqual([]);
  });

  test('a corrected export replaces the dates it covers when "Replace" is ticked, and the chart ticks by day', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const problems = watchProblems(page, { allowStatus: (url, status) => url.includes('/upload') && status === 409 });
    await page.goto(`/data-sources?website=${site.id}`);
    const card = page.locator('[data-testid="source-card"][data-source="microsoft-ads"]');
    await expect(card.getByTestId('source-status')).toHaveText('Not connected', { timeout: 20_000 });
    const report = fs.readFileSync(MICROSOFT_CSV, 'utf8');
    const upload = async (text: string, status: number) => {
      const answered = page.waitForResponse((r) => r.url().includes('/api/data-sources/upload'));
      await card.getByTestId('drop-microsoft-ads-input').setInputFiles({
        name: 'destination-url-report.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(text),
      });
      const response = await answered;
      expect(response.status()).toBe(status);
      if (status === 202) {
        await waitForImportJobs(page, site.id);
        await expect(card.getByTestId('job-progress')).toHaveCount(0, { timeout: 120_000 });
      }
      return response;
    };
    await upload(report, 202);
    await expect(card.getByTestId('source-status')).toHaveText('Connected');
    // Two rows a day at most: the row axis counts whole rows (not 0, 0.5, 1, 1.5, 2 rounded to 0, 1, 1, 2, 2).
    await expect(card.getByTestId('coverage-chart').locator('svg g[aria-label="y-axis tick label"] text')).toHaveText([
      '0',
      '1',
      '2',
    ]);

    // 58 clicks on 2 Nov corrected to 61: refused without the box ticked, taken with it; the upload unticks it.
    const corrected = report.replace('"1,096","58",', '"1,096","61",');
    await upload(corrected, 409);
    await expect(card.getByTestId('source-error')).toContainText('rows differ from ads_two rows imported before');
    await expect(card.getByTestId('source-error')).toContainText('tick "Replace the dates these files cover"');
    const replace = card.getByTestId('drop-microsoft-ads-replace');
    await replace.check();
    const sent = page.waitForRequest((r) => r.url().includes('/api/data-sources/upload'));
    await upload(corrected, 202);
    expect(new URL((await sent).url()).searchParams.get('replace')).toBe('true');
    await expect(replace).not.toBeChecked();
    await expect(card.getByTestId('source-import').first()).toContainText('destination-url-report.csv');
    const sources = await api<{ sources: { id: string; imports: { isReplace: boolean }[] }[] }>(
      page,
      '/api/data-sources/list',
      { websiteId: site.id },
    );
    expect(sources.sources.find((s) => s.id === 'microsoft-ads')!.imports.map((i) => i.isReplace)).toEqual([
      true,
      false,
    ]);
    const chart = page
      .locator('[data-testid="source-card"][data-source="search-console"]')
      .getByTestId('coverage-chart');
    await card.scrollIntoViewIfNeeded();
    await reviewShots(page, 'data-sources-replace');
    await chart.scrollIntoViewIfNeeded();
    await reviewShots(page, 'data-sources-coverage');
    expectOnlyTheRefusedUpload(problems());
  });

  test('a bad file is refused with the service’s words and nothing is imported', async ({ page }) => {
    const problems = watchProblems(page, { allowStatus: (url, status) => url.includes('/upload') && status === 400 });
    await page.goto(`/data-sources?website=${site.id}`);
    const card = page.locator('[data-testid="source-card"][data-source="analytics"]');
    await expect(card.getByTestId('source-status')).toHaveText('Not connected');
    await card.getByTestId('drop-analytics-input').setInputFiles({
      name: 'not-an-export.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('hello,world\n1,2\n'),
    });
    await expect(card.getByTestId('source-error')).toContainText('not-an-export.csv: not a format import-data reads');
    await expect(card.getByTestId('source-status')).toHaveText('Not connected');
    expect(problems().filter((p) => !p.startsWith('console:'))).toEqual([]);
  });
});

test.describe('as a client', () => {
  test.use({ storageState: authFile('client') });

  test('a report and a query report part of a source the website lacks are not available, with no way to connect', async ({
    page,
    browser,
    baseURL,
  }) => {
    const client = { email: 'client@e2e-sources.example', password: 'e2e-sources-client' };
    await adminCommands(baseURL!, [{ command: 'user add', ...client, role: 'CLIENT', websites: [site.id] }]);
    // A client sees approved crawls only: the staff approve the newest.
    const staff = await browser.newContext({ storageState: authFile('staff') });
    const staffPage = await staff.newPage();
    const [newest] = await crawlsOf(staffPage, site.id);
    await api(staffPage, '/api/technical-health-check/crawl/approve', {
      moduleId: `${site.id}:${newest!.crawlId}`,
      websiteId: site.id,
    });
    await staff.close();

    await page.context().clearCookies();
    expect((await page.request.post('/api/auth/login', { data: client })).ok()).toBe(true);
    const problems = watchProblems(page);
    await page.goto(report('analytics/all'));
    const notConnected = page.getByTestId('not-connected');
    await expect(notConnected).toBeVisible({ timeout: 20_000 });
    await expect(notConnected).toHaveAttribute('data-source', 'analytics');
    await expect(notConnected).toContainText('This report is not available for this website.');
    await expect(notConnected.getByTestId('data-sources-link')).toHaveCount(0);
    await reviewShots(page, 'report-not-available-client');

    // Search Console was imported by the staff test above; Google Ads never was.
    await page.goto(report('search-console/all'));
    const button = page.getByTestId('report-table').getByTestId('query-report-button').first();
    await expect(button).toBeVisible({ timeout: 20_000 });
    await button.click();
    const ads = page.getByTestId('query-source-ads-one');
    await expect(ads).toHaveAttribute('data-not-connected', 'google-ads');
    await expect(ads).toContainText('This section is not available for this website.');
    await expect(ads.getByTestId('data-sources-link')).toHaveCount(0);
    expect(problems()).toEqual([]);
  });

  test('the page does not exist and every call answers 404', async ({ page }) => {
    await page.goto(`/data-sources?website=${websites.northwind.id}`);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByTestId('source-card')).toHaveCount(0);
    const me = await page.request.get('/api/auth/me');
    const { csrfToken } = (await me.json()) as { csrfToken: string };
    const listed = await page.request.post('/api/data-sources/list', {
      data: { websiteId: websites.northwind.id },
      headers: { 'x-csrf-token': csrfToken },
    });
    expect([listed.status(), await listed.json()]).toEqual([404, { error: 'website could not be found.' }]);
    const uploaded = await page.request.post(
      `/api/data-sources/upload?websiteId=${websites.northwind.id}&source=search-console`,
      {
        multipart: {
          files: { name: 'Pages.csv', mimeType: 'text/csv', buffer: fs.readFileSync(PERFORMANCE_CSVS[0]!) },
        },
        headers: { 'x-csrf-token': csrfToken },
      },
    );
    expect([uploaded.status(), await uploaded.json()]).toEqual([404, { error: 'website could not be found.' }]);
  });
});

/** The browser logs the one refused upload's 409 itself; nothing else may have gone wrong on the page. */
function expectOnlyTheRefusedUpload(problems: string[]): void {
  const isRefusal = (problem: string): boolean => problem.includes('status of 409');
  expect(problems.filter(isRefusal)).toHaveLength(1);
  expect(problems.filter((problem) => !isRefusal(problem))).toEqual([]);
}
