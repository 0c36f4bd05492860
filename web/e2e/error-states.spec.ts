/**
 * Error and edge states (spec §4, §8): each failed request (summary, rows, overview, crawl list) answered with 500
 * gives one error state in its own area with one 'Try again', every spinner ends, and 'Try again' recovers. An
 * unknown report shows its message alone.
 */
import { expect, test, type Page } from '@playwright/test';
import { SECTION, authFile, open, sidebar, waitForOverview, watchProblems, websites } from './helpers.ts';

test.use({ storageState: authFile('staff') });

const REPORT = `${SECTION}/links/internal-broken?website=${websites.northwind.id}`;
const FAIL = { status: 500, json: { error: 'boom' } };

/** Answers every request of `call` (e.g. 'report/get-summary') with a 500 until the returned function is called. */
async function failing(page: Page, call: string): Promise<() => Promise<void>> {
  const pattern = `**/api/technical-health-check/${call}`;
  await page.route(pattern, (route) => route.fulfill(FAIL));
  return () => page.unroute(pattern);
}

/** Problems other than the 500s the test asked for (Chromium logs each as a console error). */
function unexpectedProblems(page: Page): () => string[] {
  const problems = watchProblems(page, { allowStatus: (_url, status) => status === 500 });
  return () => problems().filter((p) => !/status of 500/.test(p));
}

const errorPanels = (page: Page) => page.getByTestId('fetch-error');
const tryAgain = (page: Page) => page.getByRole('button', { name: 'Try again' });
const chartSection = (page: Page) => page.getByRole('region', { name: 'Issues over time' });
const bodyRows = (page: Page) => page.getByTestId('report-table').locator('tbody tr[data-index]');
const tabCount = (page: Page, tab: string) => page.getByTestId(`tab-${tab}`).locator('.mantine-Badge-root');

test('a failed summary: one error in the chart, counts that say so, no endless spinner; Try again recovers', async ({
  page,
}) => {
  const problems = unexpectedProblems(page);
  const recover = await failing(page, 'report/get-summary');
  await open(page, REPORT);
  const panel = chartSection(page).getByTestId('fetch-error');
  await expect(panel).toBeVisible({ timeout: 20_000 });
  await expect(panel).toHaveAttribute('data-area', 'summary');
  await expect(panel).toContainText('An error occurred fetching the data');
  await expect(panel).toContainText('An unexpected error occurred when fetching the data, please try again later.');
  // The rows still load, and nothing else on the page reports the same failure or keeps spinning.
  await expect(bodyRows(page).first()).toBeVisible();
  await expect(errorPanels(page)).toHaveCount(1);
  await expect(tryAgain(page)).toHaveCount(1);
  await expect(chartSection(page)).not.toContainText('Loading…');
  await expect(chartSection(page)).not.toContainText('last 0 crawls');
  for (const tab of ['all', 'added', 'removed']) await expect(tabCount(page, tab)).toHaveText('–');
  await expect(page.getByRole('button', { name: 'Refresh the report' })).not.toHaveAttribute('data-loading', 'true');
  await expect(page.locator('[aria-busy=true]')).toHaveCount(0);

  await recover();
  await tryAgain(page).click();
  await expect(chartSection(page).getByTestId('issues-chart').locator('svg').first()).toBeVisible();
  await expect(tabCount(page, 'all')).toHaveText(/^[\d,]+$/);
  await expect(errorPanels(page)).toHaveCount(0);
  await expect(chartSection(page)).toContainText(/Issues found by each of the last \d+ crawls?/);
  expect(problems()).toEqual([]);
});

test('a failed rows request: one error in the table, emptied, total 0, "Error!"; Try again recovers', async ({
  page,
}) => {
  const problems = unexpectedProblems(page);
  const recover = await failing(page, 'report/get-rows');
  await open(page, REPORT);
  const table = page.getByTestId('report-table');
  const panel = table.getByTestId('fetch-error');
  await expect(panel).toBeVisible({ timeout: 20_000 });
  await expect(panel).toHaveAttribute('data-area', 'rows');
  await expect(bodyRows(page)).toHaveCount(0);
  await expect(page.getByTestId('page-label')).toHaveText('Error!');
  await expect(page.getByTestId('row-range')).toHaveText('');
  await expect(table.getByLabel('Loading rows')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeDisabled();
  // The summary is fine: the chart and the counts show.
  await expect(chartSection(page).getByTestId('issues-chart').locator('svg').first()).toBeVisible();
  await expect(tabCount(page, 'all')).toHaveText(/^[\d,]+$/);
  await expect(errorPanels(page)).toHaveCount(1);
  await expect(tryAgain(page)).toHaveCount(1);

  await recover();
  await tryAgain(page).click();
  await expect(bodyRows(page).first()).toBeVisible();
  await expect(page.getByTestId('page-label')).toHaveText(/^Page 1 of/);
  await expect(errorPanels(page)).toHaveCount(0);
  expect(problems()).toEqual([]);
});

test('summary and rows both failing: one error per area, never two for the same request', async ({ page }) => {
  const recoverSummary = await failing(page, 'report/get-summary');
  const recoverRows = await failing(page, 'report/get-rows');
  await open(page, REPORT);
  await expect(errorPanels(page)).toHaveCount(2, { timeout: 20_000 });
  const areas = await errorPanels(page).evaluateAll((panels) => panels.map((p) => p.getAttribute('data-area')));
  expect(areas.sort()).toEqual(['rows', 'summary']);
  await expect(tryAgain(page)).toHaveCount(2);
  await recoverSummary();
  await recoverRows();
  await chartSection(page).getByRole('button', { name: 'Try again' }).click();
  await expect(errorPanels(page)).toHaveCount(1);
  await page.getByTestId('report-table').getByRole('button', { name: 'Try again' }).click();
  await expect(errorPanels(page)).toHaveCount(0);
  await expect(bodyRows(page).first()).toBeVisible();
});

test('a failed overview: one error on the page, sidebar spinners end without claiming results; Try again recovers', async ({
  page,
}) => {
  const problems = unexpectedProblems(page);
  const recover = await failing(page, 'overview/get-overview');
  await open(page, `${SECTION}?website=${websites.northwind.id}`);
  const panel = errorPanels(page);
  await expect(panel).toHaveCount(1);
  await expect(panel).toHaveAttribute('data-area', 'overview');
  const nav = sidebar(page);
  await expect(nav.getByTestId('sidebar-error')).toHaveText('Issue counts could not be loaded.');
  // The page's panel retries this request; the sidebar does not offer a second button for it.
  await expect(tryAgain(page)).toHaveCount(1);
  await nav.getByTestId('group-CRITICAL').click();
  await expect(nav.locator('[data-indicator]').first()).toBeVisible();
  await expect(nav.locator('[data-indicator=loading]')).toHaveCount(0);
  await expect(nav.locator('[data-indicator=clean], [data-indicator=rank]')).toHaveCount(0);
  expect(await nav.locator('[data-indicator=unavailable]').count()).toBeGreaterThan(0);

  await recover();
  await tryAgain(page).click();
  await waitForOverview(page);
  await expect(errorPanels(page)).toHaveCount(0);
  await expect(nav.getByTestId('sidebar-error')).toHaveCount(0);
  await expect(nav.locator('[data-indicator=unavailable]')).toHaveCount(0);
  await expect(nav.locator('[data-indicator=clean], [data-indicator=rank]').first()).toBeVisible();
  expect(problems()).toEqual([]);
});

test('a failed comparison overview: its own error, no change left "comparing…"; Try again recovers', async ({
  page,
}) => {
  const problems = unexpectedProblems(page);
  // The comparison crawl's overview is the call without a comparisonId; the current crawl's carries one.
  const pattern = '**/api/technical-health-check/overview/get-overview';
  await page.route(pattern, (route) =>
    'comparisonId' in (route.request().postDataJSON() as object) ? route.continue() : route.fulfill(FAIL),
  );
  await open(page, `${SECTION}?website=${websites.northwind.id}`);
  await waitForOverview(page);
  const panel = errorPanels(page);
  await expect(panel).toHaveCount(1);
  await expect(panel).toHaveAttribute('data-area', 'comparison');
  await expect(tryAgain(page)).toHaveCount(1);
  await expect(page.getByTestId('overview')).not.toContainText('comparing…');
  await expect(page.locator('section[data-severity] tbody').getByText('…', { exact: true })).toHaveCount(0);

  await page.unroute(pattern);
  await tryAgain(page).click();
  await expect(errorPanels(page)).toHaveCount(0);
  await expect(page.getByTestId('overview')).toContainText(/since \d{1,2} [A-Z][a-z]{2} \d{4}/);
  expect(problems()).toEqual([]);
});

test('a failed overview on a report page: the sidebar says so and offers the one Try again', async ({ page }) => {
  const problems = unexpectedProblems(page);
  const recover = await failing(page, 'overview/get-overview');
  await open(page, REPORT);
  await expect(bodyRows(page).first()).toBeVisible({ timeout: 20_000 });
  const nav = sidebar(page);
  await expect(nav.getByTestId('sidebar-error')).toContainText('Issue counts could not be loaded.');
  await expect(errorPanels(page)).toHaveCount(0);
  await expect(tryAgain(page)).toHaveCount(1);
  await expect(nav.locator('[data-indicator=loading]')).toHaveCount(0);
  await expect(nav.locator('a[data-report="links/internal-broken"] [data-indicator=unavailable]')).toBeVisible();

  await recover();
  await nav.getByRole('button', { name: 'Try again' }).click();
  await expect(nav.getByTestId('sidebar-error')).toHaveCount(0);
  await expect(nav.locator('a[data-report="links/internal-broken"] [data-indicator=rank]')).toBeVisible();
  expect(problems()).toEqual([]);
});

test('a failed crawl list: one error, no skeleton left loading; Try again recovers', async ({ page }) => {
  const problems = unexpectedProblems(page);
  const recover = await failing(page, 'crawl/get-redux');
  await open(page, `${SECTION}?website=${websites.northwind.id}`);
  await expect(errorPanels(page)).toHaveCount(1);
  await expect(errorPanels(page)).toHaveAttribute('data-area', 'crawls');
  await expect(tryAgain(page)).toHaveCount(1);
  await expect(page.locator('[aria-busy=true]')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Technical Health Check reports' })).toHaveCount(0);
  await recover();
  await tryAgain(page).click();
  await waitForOverview(page);
  await expect(errorPanels(page)).toHaveCount(0);
  expect(problems()).toEqual([]);
});

test('an unknown report shows the not-found message alone', async ({ page }) => {
  // Staff open the newest crawl, which the demo leaves pending: a known report shows the pending notice and filters.
  await open(page, `${SECTION}/links/internal-broken?website=${websites.northwind.id}`);
  await expect(page.getByTestId('pending-notice')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'URLs containing' })).toBeVisible();

  await page.goto(`${SECTION}/links/no-such-report?website=${websites.northwind.id}`);
  const notFound = page.getByTestId('report-not-found');
  await expect(notFound).toContainText('report could not be found.');
  await expect(page.getByRole('textbox', { name: 'URLs containing' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Filter' })).toHaveCount(0);
  await expect(page.getByText('Show Checked Items')).toHaveCount(0);
  await expect(page.getByTestId('pending-notice')).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Current Crawl', exact: true })).toHaveCount(0);
  await expect(errorPanels(page)).toHaveCount(0);
  await notFound.getByRole('link', { name: 'Back to the overview' }).click();
  await waitForOverview(page);
});
