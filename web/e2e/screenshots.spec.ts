/** Review screenshots (not assertions of pixels): written to test-results/shots (git-ignored) or SHOTS_DIR. */
import fs from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  SECTION,
  addStaffWebsite,
  authFile,
  choose,
  crawlsOf,
  extra,
  logins,
  open,
  openCrawls,
  reportsWithRemovals,
  saveCrawlSettings,
  sidebar,
  signIn,
  waitForOverview,
  websites,
} from './helpers.ts';
import { startLoopbackSite } from './loopback-site.ts';
import { dialog, openAdmin, rowAction } from './admin-helpers.ts';
import { BULK_CSV, addSiteWithoutSources, waitForImportJobs } from './source-site.ts';

const DIR = process.env.SHOTS_DIR ?? 'test-results/shots';
/** With README_SHOTS=1 the 1280×800 overview and report are also written where the README's tour shows them. */
const README_DIR = process.env.README_SHOTS === '1' ? 'docs/screenshots' : undefined;
const sizes = [
  { name: '1280', width: 1280, height: 800 },
  { name: '768', width: 768, height: 1024 },
] as const;

test.beforeAll(() => {
  fs.mkdirSync(DIR, { recursive: true });
});

async function shot(page: Page, size: string, name: string): Promise<void> {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${DIR}/${size}-${name}.png`, fullPage: false });
}

/** The README's tour picture of this page, at 1280×800 only. */
async function readmeShot(page: Page, size: string, name: string): Promise<void> {
  if (!README_DIR || size !== '1280') return;
  fs.mkdirSync(README_DIR, { recursive: true });
  await page.screenshot({ path: `${README_DIR}/${name}.png`, fullPage: false });
}

/**
 * One state at every size, ending at the first (1280): the viewport changes under the page, so a flow that crawls or
 * imports for real runs once. `of` shoots one element; `fitsWidth` checks the page never scrolls sideways.
 */
async function shotBoth(
  page: Page,
  name: string,
  options: { fullPage?: boolean; fitsWidth?: boolean; scrollTo?: Locator; of?: Locator } = {},
): Promise<void> {
  for (const size of [...sizes].reverse()) {
    await page.setViewportSize(size);
    if (options.scrollTo) await options.scrollTo.scrollIntoViewIfNeeded();
    if (options.fitsWidth)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    if (options.of) await options.of.screenshot({ path: `${DIR}/${size.name}-${name}.png` });
    else await shot(page, size.name, name);
    if (options.fullPage) await page.screenshot({ path: `${DIR}/${size.name}-${name}-full.png`, fullPage: true });
  }
}

async function openSidebarIfCollapsed(page: Page): Promise<void> {
  const burger = page.getByRole('button', { name: 'Open the report menu' });
  if (await burger.isVisible()) await burger.click();
}

for (const size of sizes) {
  test.describe(`at ${size.name}px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('login', async ({ page }) => {
      await page.goto(SECTION);
      await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
      await shot(page, size.name, 'login');
    });

    test("a report's Removed tab with its removal reasons", async ({ browser }) => {
      const context = await browser.newContext({ storageState: authFile('staff'), viewport: size });
      const page = await context.newPage();
      await open(page, `${SECTION}?website=${websites.northwind.id}`);
      await waitForOverview(page);
      const [report] = await reportsWithRemovals(page);
      expect(report, 'a report with removed rows').toBeDefined();
      await page.goto(`${SECTION}/${report!.reportId}?website=${websites.northwind.id}&tab=removed`);
      await expect(page.getByTestId('page-label')).toHaveText(/^Page 1 of/, { timeout: 20_000 });
      await page.getByTestId('removal-reasons').scrollIntoViewIfNeeded();
      await shot(page, size.name, 'report-removed-reasons');
      await context.close();
    });

    test('rows in their at-stake order; crawls run with different settings', async ({ browser }) => {
      const context = await browser.newContext({ storageState: authFile('staff'), viewport: size });
      const page = await context.newPage();
      await open(page, `${SECTION}/crawl/all?website=${websites.northwind.id}`);
      await expect(page.getByTestId('stake-order-note')).toBeVisible({ timeout: 20_000 });
      await page.getByTestId('stake-order-note').scrollIntoViewIfNeeded();
      await shot(page, size.name, 'report-stake-order');
      await open(page, `${SECTION}/crawl/all?website=${extra.sameDay.id}&crawl=2`);
      await expect(page.getByTestId('settings-differ-notice')).toBeVisible({ timeout: 20_000 });
      await shot(page, size.name, 'report-settings-differ');
      await context.close();
    });

    test('overview, both sidebar views, and a report', async ({ browser }) => {
      const context = await browser.newContext({ storageState: authFile('staff'), viewport: size });
      const page = await context.newPage();
      await open(page, `${SECTION}?website=${websites.northwind.id}`);
      await waitForOverview(page);
      const approved = (await crawlsOf(page, websites.northwind.id)).find((c) => c.moduleState === 'APPROVED');
      if (approved) await choose(page, 'Current Crawl', approved.label);
      await waitForOverview(page);
      await shot(page, size.name, 'overview-severity');
      await readmeShot(page, size.name, 'overview');
      await page.screenshot({ path: `${DIR}/${size.name}-overview-full.png`, fullPage: true });
      await page.getByTestId('notification-bell').click();
      await expect(page.getByTestId('notification-panel')).toBeVisible();
      await shot(page, size.name, 'notifications');
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('notification-panel')).toBeHidden();
      await openSidebarIfCollapsed(page);
      const nav = page.getByRole('navigation', { name: 'Technical Health Check reports' });
      await nav.getByText('Category', { exact: true }).click();
      await nav.getByTestId('group-content').click();
      await nav.getByTestId('group-links').click();
      await shot(page, size.name, 'overview-category');
      await nav.getByTestId('group-redirects').click();
      await nav.locator('a[data-report="redirects/chain"]').click();
      await expect(page.getByTestId('report-title')).toBeVisible();
      await expect(page.getByTestId('page-label')).toHaveText(/^Page 1 of/, { timeout: 20_000 });
      await page.waitForTimeout(500);
      await shot(page, size.name, 'report');
      await readmeShot(page, size.name, 'report');
      await page.screenshot({ path: `${DIR}/${size.name}-report-full.png`, fullPage: true });
      const table = page.getByTestId('report-table');
      await table.scrollIntoViewIfNeeded();
      await table.evaluate((el) => (el.scrollLeft = el.scrollWidth));
      await table.locator('tbody tr[data-index="0"]').hover();
      await shot(page, size.name, 'report-scrolled-sideways');
    });

    test('a links report with a sub-row open, the column dialog, the empty state', async ({ browser }) => {
      const context = await browser.newContext({ storageState: authFile('staff'), viewport: size });
      const page = await context.newPage();
      await open(page, `${SECTION}/links/internal-http?website=${websites.northwind.id}`);
      const rowRange = page.getByTestId('row-range');
      await expect(rowRange).toHaveText(/^1–\d+ of [\d,]+ rows$/, { timeout: 60_000 });
      const table = page.getByTestId('report-table');
      await table.getByRole('button', { name: 'Show the source pages' }).first().click();
      const detail = table.getByRole('group', { name: 'Source pages' });
      await expect(detail.getByRole('link').first()).toBeVisible();
      await table.scrollIntoViewIfNeeded();
      await shot(page, size.name, 'report-links-sub-row');
      await page.screenshot({ path: `${DIR}/${size.name}-report-links-sub-row-full.png`, fullPage: true });

      await page.getByRole('button', { name: 'Columns' }).click();
      await expect(page.getByRole('dialog', { name: 'Columns' })).toBeVisible();
      await shot(page, size.name, 'column-dialog');
      await page.getByRole('button', { name: 'Close the column dialog' }).click();

      await page.evaluate(() => window.scrollTo(0, 0));
      await page.getByRole('textbox', { name: 'URLs containing' }).fill('zz-no-such-url-zz');
      await page.getByRole('button', { name: 'Filter' }).click();
      await expect(page.getByTestId('no-results')).toHaveText('No results found');
      await page.getByRole('navigation', { name: 'Table pages' }).scrollIntoViewIfNeeded();
      await page.mouse.move(0, size.height - 1);
      await shot(page, size.name, 'report-empty');
    });

    test('what a new user tripped over: field errors, filter matches, one crawl, counts, no columns, checklist', async ({
      browser,
    }) => {
      test.setTimeout(180_000);
      const context = await browser.newContext({ storageState: authFile('staff'), viewport: size });
      const page = await context.newPage();
      await openCrawls(page, websites.northwind.id);
      const maxUrls = page.getByTestId('crawl-settings').getByRole('textbox', { name: 'Max URLs' });
      await maxUrls.fill('');
      await maxUrls.pressSequentially('-5');
      await maxUrls.scrollIntoViewIfNeeded();
      await shot(page, size.name, 'settings-negative');

      const rowRange = page.getByTestId('row-range');
      await open(page, `${SECTION}/internal/all?website=${websites.northwind.id}`);
      await expect(rowRange).toHaveText(/^1–\d+ of [\d,]+ rows$/, { timeout: 60_000 });
      const pageInput = page.getByRole('textbox', { name: 'Go to page' });
      await pageInput.pressSequentially('-3');
      await pageInput.press('Enter');
      await page.getByTestId('page-input-error').scrollIntoViewIfNeeded();
      await shot(page, size.name, 'page-input-error');

      await page.getByRole('button', { name: 'Columns' }).click();
      const toggleAll = page.getByRole('dialog', { name: 'Columns' }).getByRole('checkbox', { name: 'Toggle All' });
      await toggleAll.click();
      if (await toggleAll.isChecked()) await toggleAll.click();
      await page.getByRole('button', { name: 'Close the column dialog' }).click();
      await page.getByTestId('no-columns').scrollIntoViewIfNeeded();
      await shot(page, size.name, 'no-columns');
      await page.getByRole('button', { name: 'Show all columns' }).click();

      await open(page, `${SECTION}/links/internal-broken?website=${websites.northwind.id}`);
      await expect(rowRange).toHaveText(/^1–\d+ of [\d,]+ rows$/, { timeout: 60_000 });
      const row = page.getByTestId('report-table').locator('tbody tr[data-index="0"]');
      const linking = await row.locator('[data-column=url_from] [data-url]').getAttribute('data-url');
      await page.getByRole('textbox', { name: 'URLs containing' }).fill(new URL(linking!).pathname);
      await page.getByRole('button', { name: 'Filter' }).click();
      await expect(page.getByTestId('filter-matches')).toBeVisible();
      await page.getByTestId('filter-matches').scrollIntoViewIfNeeded();
      await shot(page, size.name, 'filter-matches');
      await row.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Save checklist (1)' }).click();
      await expect(page.getByRole('dialog', { name: 'Save the checklist' })).toBeVisible();
      await shot(page, size.name, 'checklist-dialog');
      await page.getByRole('button', { name: 'Cancel' }).click();

      await open(page, `${SECTION}/status-code/4xx?website=${extra.big.id}`);
      await expect(page.getByTestId('chart-subtitle')).toHaveText('Issues found by the last crawl', {
        timeout: 30_000,
      });
      await shot(page, size.name, 'chart-one-crawl');
      await openSidebarIfCollapsed(page);
      const nav = sidebar(page);
      await nav.getByText('Category', { exact: true }).click();
      for (const id of await nav
        .locator('[data-testid^=group-][aria-expanded=false]')
        .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-testid')!)))
        await nav.getByTestId(id).click();
      await shot(page, size.name, 'sidebar-counts');
    });

    test('the report page scrolled sideways under its frozen columns, with the sidebar open', async ({ browser }) => {
      const context = await browser.newContext({ storageState: authFile('staff'), viewport: size });
      const page = await context.newPage();
      await open(page, `${SECTION}/links/internal-http?website=${websites.northwind.id}`);
      await expect(page.getByTestId('row-range')).toHaveText(/^1–\d+ of [\d,]+ rows$/, { timeout: 60_000 });
      await openSidebarIfCollapsed(page);
      await sidebar(page).getByText('Category', { exact: true }).click();
      await shot(page, size.name, 'report-sidebar');
      const close = page.getByRole('button', { name: 'Close the report menu' });
      if (await close.isVisible()) await close.click();
      const table = page.getByTestId('report-table');
      await table.scrollIntoViewIfNeeded();
      await table.evaluate((el) => (el.scrollLeft = 173));
      await shot(page, size.name, 'report-frozen-columns');
    });

    const failures = [
      { name: 'summary', call: 'report/get-summary', target: `/links/internal-broken` },
      { name: 'rows', call: 'report/get-rows', target: `/links/internal-broken` },
      { name: 'overview', call: 'overview/get-overview', target: '' },
      { name: 'overview-on-report', call: 'overview/get-overview', target: `/links/internal-broken` },
      { name: 'crawls', call: 'crawl/get-redux', target: '' },
    ];
    for (const failure of failures) {
      test(`error state: ${failure.name}`, async ({ browser }) => {
        const context = await browser.newContext({ storageState: authFile('staff'), viewport: size });
        const page = await context.newPage();
        await page.route(`**/api/technical-health-check/${failure.call}`, (route) =>
          route.fulfill({ status: 500, json: { error: 'boom' } }),
        );
        await open(page, `${SECTION}${failure.target}?website=${websites.northwind.id}`);
        if (failure.name === 'overview-on-report') {
          await expect(page.getByTestId('report-table').locator('tbody tr[data-index]').first()).toBeVisible({
            timeout: 30_000,
          });
          await openSidebarIfCollapsed(page);
          await expect(sidebar(page).getByTestId('sidebar-error')).toBeVisible();
        } else {
          await expect(page.getByTestId('fetch-error').first()).toBeVisible({ timeout: 30_000 });
          if (failure.target) await page.getByTestId('fetch-error').first().scrollIntoViewIfNeeded();
        }
        await shot(page, size.name, `error-${failure.name}`);
      });
    }

    test('unknown report', async ({ browser }) => {
      const context = await browser.newContext({ storageState: authFile('staff'), viewport: size });
      const page = await context.newPage();
      await open(page, `${SECTION}/links/no-such-report?website=${websites.northwind.id}`);
      await expect(page.getByTestId('report-not-found')).toBeVisible();
      await shot(page, size.name, 'unknown-report');
    });

    test('pending crawl for staff', async ({ browser }) => {
      const context = await browser.newContext({ storageState: authFile('staff'), viewport: size });
      const page = await context.newPage();
      await open(page, `${SECTION}?website=${websites.northwind.id}`);
      await waitForOverview(page);
      const pending = (await crawlsOf(page, websites.northwind.id)).find((c) => c.moduleState === 'PENDING');
      if (pending) await choose(page, 'Current Crawl', pending.label);
      await waitForOverview(page);
      await shot(page, size.name, 'pending-staff');
    });

    test('pending crawl for a client', async ({ browser }) => {
      const context = await browser.newContext({ storageState: authFile('alpineClient'), viewport: size });
      const page = await context.newPage();
      await open(page);
      await expect(page.getByTestId('client-pending')).toBeVisible();
      await shot(page, size.name, 'pending-client');
    });

    test('crawls of one day and a partial crawl: labels, marks and the comparison warning', async ({ browser }) => {
      const context = await browser.newContext({ storageState: authFile('staff'), viewport: size });
      const page = await context.newPage();
      await open(page, `${SECTION}?website=${extra.sameDay.id}&compare=3`);
      await waitForOverview(page);
      await expect(page.getByTestId('partial-comparison')).toBeVisible();
      await shot(page, size.name, 'partial-comparison');
      await page.getByRole('combobox', { name: 'Current Crawl', exact: true }).click();
      await expect(page.getByRole('option').first()).toBeVisible();
      await shot(page, size.name, 'crawl-labels-dropdown');
      await page.keyboard.press('Escape');
      await open(page, `${SECTION}?website=${extra.sameDay.id}&crawl=3`);
      await waitForOverview(page);
      await expect(page.getByTestId('partial-current')).toBeVisible();
      await shot(page, size.name, 'partial-crawl');
      await open(page, `${SECTION}/status-code/4xx?website=${extra.sameDay.id}`);
      const chart = page.getByTestId('issues-chart');
      await expect(chart.locator('svg').first()).toBeVisible({ timeout: 20_000 });
      await chart.scrollIntoViewIfNeeded();
      await shot(page, size.name, 'same-day-chart');
      await context.close();
    });

    test('inactive module', async ({ browser }) => {
      const context = await browser.newContext({ storageState: authFile('staff'), viewport: size });
      const page = await context.newPage();
      await open(page, `${SECTION}?website=${extra.inactive.id}`);
      await expect(page.getByTestId('module-inactive')).toBeVisible();
      await shot(page, size.name, 'inactive');
    });

    test('administration: websites, settings, segments, users, sessions, audit log; a staff view; set password', async ({
      browser,
    }) => {
      test.setTimeout(240_000);
      const context = await browser.newContext({ viewport: size });
      const page = await context.newPage();
      await signIn(page, logins.admin);
      await openAdmin(page);
      await expect(page.getByTestId(`admin-website-${websites.northwind.id}`)).toBeVisible();
      await shot(page, size.name, 'admin-websites');
      await rowAction(page, websites.northwind.name, 'Edit settings');
      await expect(dialog(page)).toBeVisible();
      await shot(page, size.name, 'admin-website-dialog');
      await dialog(page).getByRole('button', { name: 'Cancel' }).click();
      await rowAction(page, websites.northwind.name, 'Segments');
      await dialog(page).getByRole('button', { name: 'Add segment' }).click();
      await shot(page, size.name, 'admin-segments');
      await dialog(page).getByRole('button', { name: 'Close' }).click();
      await rowAction(page, websites.northwind.name, 'Delete…');
      await shot(page, size.name, 'admin-delete-website');
      await dialog(page).getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('tab', { name: 'Users' }).click();
      await expect(page.getByTestId(`admin-user-${logins.client.email}`)).toBeVisible();
      await shot(page, size.name, 'admin-users');
      await page.getByRole('button', { name: 'Add user' }).click();
      await dialog(page).getByLabel('Email address').fill('not an email');
      await dialog(page).getByRole('button', { name: 'Send invitation' }).click();
      await expect(dialog(page).getByText('user invite: --email: an email address')).toBeVisible();
      await shot(page, size.name, 'admin-user-dialog-error');
      await dialog(page).getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('tab', { name: 'Sessions' }).click();
      await expect(page.getByTestId('admin-sessions').getByRole('row').nth(1)).toBeVisible();
      await shot(page, size.name, 'admin-sessions');
      await page.getByRole('tab', { name: 'Audit log' }).click();
      await expect(page.getByTestId('admin-audit')).toBeVisible();
      await shot(page, size.name, 'admin-audit');
      await context.close();

      const staffContext = await browser.newContext({ storageState: authFile('staff'), viewport: size });
      const staff = await staffContext.newPage();
      await open(staff);
      await openAdmin(staff, 'Users');
      await expect(staff.getByTestId(`admin-user-${logins.client.email}`)).toBeVisible();
      await shot(staff, size.name, 'admin-staff-users');
      await staffContext.close();

      const anonymous = await browser.newContext({ viewport: size });
      const linkPage = await anonymous.newPage();
      await linkPage.goto('/set-password?token=not-a-real-token');
      await linkPage.getByLabel('New password').fill('a-new-password');
      await linkPage.getByLabel('Repeat the password').fill('a-new-password');
      await linkPage.getByRole('button', { name: 'Save password' }).click();
      await expect(linkPage.getByRole('alert')).toContainText('This link is not valid');
      await shot(linkPage, size.name, 'set-password-invalid-link');
      await anonymous.close();
    });
  });
}

/** The flows that crawl and import for real run once; each of their states is taken at both sizes. */
test.describe('at both sizes, one flow each', () => {
  test('the Crawls page: settings, an active run with its cancel dialog, the history', async ({ browser, baseURL }) => {
    test.setTimeout(240_000);
    const website = { id: 'e2e-crawls-shots', name: 'E2E Crawls Screenshots', domain: '127.0.0.1' };
    await addStaffWebsite(baseURL!, website);
    const quick = await startLoopbackSite({ pages: 13 });
    const slow = await startLoopbackSite({ pages: 2000, delayMs: 700 });
    try {
      const context = await browser.newContext({ storageState: authFile('staff'), viewport: sizes[0] });
      const page = await context.newPage();
      await openCrawls(page, website.id);
      await expect(page.getByTestId('history-empty')).toBeVisible();
      await shotBoth(page, 'crawls-settings', { fullPage: true });

      // Max URLs below the site's 13 pages: the history marks the loaded crawl Partial.
      await saveCrawlSettings(page, { startUrl: quick.url, maxUrls: 10, concurrency: 2 });
      await page.getByRole('button', { name: 'Start now' }).click();
      await expect(page.getByRole('link', { name: 'Loaded as crawl 1' })).toBeVisible({ timeout: 120_000 });
      await expect(page.getByTestId('crawl-history').getByTestId('partial')).toBeVisible();
      // A start URL nobody answers, for a failed run in the history.
      await saveCrawlSettings(page, { startUrl: 'http://127.0.0.1:9/', maxUrls: 100, concurrency: 2 });
      await page.getByRole('button', { name: 'Start now' }).click();
      await expect(page.getByRole('button', { name: 'Start now' })).toBeEnabled({ timeout: 120_000 });
      await expect(page.getByTestId('notification-bell')).toHaveAccessibleName(/, \d+ unread$/);
      await shotBoth(page, 'header-unread', { of: page.getByRole('banner') });

      await saveCrawlSettings(page, { startUrl: slow.url, maxUrls: 1000, concurrency: 2 });
      await page.getByRole('button', { name: 'Start now' }).click();
      const card = page.getByTestId('active-run');
      await expect(card.locator('[data-stat="Pages done"]')).toHaveText(/^([4-9]|\d\d+)$/, { timeout: 60_000 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await shotBoth(page, 'crawls-active');
      await card.getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByRole('dialog', { name: 'Cancel this crawl?' })).toBeVisible();
      await shotBoth(page, 'crawls-cancel-dialog');
      await page.getByRole('button', { name: 'Cancel crawl' }).click();
      const history = page.getByTestId('crawl-history');
      await expect(history.locator('tbody tr')).toHaveCount(3, { timeout: 60_000 });
      await expect(card).toBeHidden();
      // The history scrolls sideways inside its frame; the page never does.
      await shotBoth(page, 'crawls-history', { fullPage: true, scrollTo: history, fitsWidth: true });
      await context.close();
    } finally {
      await quick.close();
      await slow.close();
    }
  });

  test('the Data sources page: imported, in the export, not connected; a refused file; the remove dialog', async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const websiteId = 'e2e-sources-shots';
    await addSiteWithoutSources(baseURL!, websiteId);
    const context = await browser.newContext({ storageState: authFile('staff'), viewport: sizes[0] });
    const page = await context.newPage();
    await page.goto(`/data-sources?website=${websiteId}`);
    const card = page.locator('[data-testid="source-card"][data-source="search-console"]');
    await expect(card).toBeVisible({ timeout: 30_000 });
    if ((await card.getByTestId('source-import').count()) === 0) {
      // One format per day: the Performance report's period would overlap the bulk export's days.
      await card.getByTestId('drop-search-console-input').setInputFiles([BULK_CSV]);
      await waitForImportJobs(page, websiteId);
      await expect(card.getByTestId('job-progress')).toHaveCount(0, { timeout: 120_000 });
    }
    await expect(card.getByTestId('source-status')).toHaveText('Connected', { timeout: 120_000 });
    const analytics = page.locator('[data-testid="source-card"][data-source="analytics"]');
    // The source shows Connected once the import is published; the drop zones take files again once the crawls'
    // refresh after it has ended too.
    await expect(analytics.getByRole('button', { name: 'Choose files' })).toBeEnabled({ timeout: 120_000 });
    await analytics.getByTestId('drop-analytics-input').setInputFiles({
      name: 'not-an-export.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('hello,world\n1,2\n'),
    });
    await expect(analytics.getByTestId('source-error')).toBeVisible();
    await shotBoth(page, 'data-sources', { fullPage: true, fitsWidth: true });
    // Each card's "Choose files" stays on its drop line; the line's text wraps instead.
    for (const size of sizes) {
      await page.setViewportSize(size);
      const zones = page.locator('[data-testid^="drop-"]:not([data-testid$="-input"]):not([data-testid$="-replace"])');
      await expect(zones).toHaveCount(6);
      for (const zone of await zones.all()) {
        const text = (await zone.locator('p').first().boundingBox())!;
        const button = (await zone.getByRole('button', { name: 'Choose files' }).boundingBox())!;
        expect(button.y, `${size.name}: ${await zone.getAttribute('data-testid')}`).toBeLessThan(text.y + text.height);
      }
    }
    await card
      .getByRole('button', { name: /^Remove the import of/ })
      .first()
      .click();
    await expect(page.getByRole('dialog', { name: 'Remove this import?' })).toBeVisible();
    await shotBoth(page, 'data-sources-remove-dialog');
    await page.getByRole('button', { name: 'Keep it' }).click();

    await page.goto(`/data-sources?website=${websites.northwind.id}`);
    await expect(page.getByTestId('source-card').first()).toBeVisible({ timeout: 30_000 });
    await shotBoth(page, 'data-sources-demo');
    await context.close();
  });
});
