/**
 * What is at stake (issue 30 §3) on the demo's newest crawl, which joins search console and analytics: the overview's
 * At stake column and its order, and the health card's traffic-weighted companion.
 */
import { expect, test, type Locator } from '@playwright/test';
import type { Overview } from '../../catalog/api.ts';
import { visitsOf } from '../../catalog/stakes.ts';
import { SECTION, api, authFile, open, query, waitForOverview, websites } from './helpers.ts';

test.use({ storageState: authFile('staff') });

const visitsIn = async (card: Locator): Promise<number[]> =>
  (await card.locator('tbody tr [data-testid=stake]').evaluateAll((cells) => cells.map((c) => c.dataset.visits))).map(
    Number,
  );

test('the overview shows what is at stake per report and orders the reports by it', async ({ page }) => {
  await open(page, `${SECTION}?website=${websites.northwind.id}`);
  await waitForOverview(page);
  const overview = await api<Overview>(page, '/api/technical-health-check/overview/get-overview', {
    websiteId: websites.northwind.id,
    currentId: Number(query(page).get('crawl')),
    refresh: false,
  });
  const critical = overview.severityMap.CRITICAL!.reports.filter((r) => r.ems_lumar_row_count > 0);
  const staked = critical.filter((r) => r.stake && (visitsOf(r.stake) ?? 0) > 0);
  expect(staked.length, 'critical reports with visits at stake').toBeGreaterThan(1);

  const card = page.locator('section[data-severity=CRITICAL]');
  await expect(card.locator('th', { hasText: 'At stake' })).toBeVisible();
  // Each row's cell carries the visits the service gave its report.
  for (const report of staked.slice(0, 3))
    await expect(card.locator(`tr[data-report="${report.reportId}"] [data-testid=stake]`)).toHaveAttribute(
      'data-visits',
      String(visitsOf(report.stake!)),
    );

  const reportOrder = () =>
    card.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-report')));
  const byRank = await reportOrder();
  await page.getByTestId('overview-order').getByText('At stake').click();
  const isMostFirst = async () => (await visitsIn(card)).every((v, i, all) => i === 0 || all[i - 1]! >= v);
  await expect.poll(isMostFirst).toBe(true);
  expect((await visitsIn(card)).length).toBeGreaterThanOrEqual(staked.length);
  await page.getByTestId('overview-order').getByText('Rank').click();
  await expect.poll(reportOrder).toEqual(byRank);

  const companion = page.getByTestId('stat-traffic-health');
  await expect(companion).toContainText(/^Traffic-weighted \d+(\.\d)?\/100/);
});

test("a report's rows sort by what is at stake unless a column is sorted, and the sort survives a reload", async ({
  page,
}) => {
  await open(page, `${SECTION}?website=${websites.northwind.id}`);
  await waitForOverview(page);
  const crawl = query(page).get('crawl');
  const body = { websiteId: websites.northwind.id, currentId: Number(crawl), reportId: 'crawl/all', tableId: 'urls' };
  const rows = await api<{ rows: { url: string }[] }>(page, '/api/technical-health-check/report/get-rows', {
    ...body,
    differenceType: 'all',
    showChecked: false,
    limit: 10,
    offset: 0,
    orderBy: [],
  });
  const byStake = rows.rows.map((r) => r.url);
  expect(byStake, 'the most at stake is not simply the first URL').not.toEqual([...byStake].sort());

  await page.goto(`${SECTION}/crawl/all?website=${websites.northwind.id}&crawl=${crawl}`);
  const note = page.getByTestId('stake-order-note');
  await expect(note).toBeVisible();
  const urls = page.getByTestId('report-table').locator('tbody td[data-column=url]');
  await expect(urls.first().locator('a').first()).toHaveAttribute('href', byStake[0]!);

  const header = page.getByTestId('report-table').locator('th[data-column=url]');
  await header.getByRole('button').click();
  await expect.poll(() => query(page).get('sort')).toBe('url.desc');
  await expect(note).toHaveCount(0);
  await page.reload();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(note).toHaveCount(0);
  await header.getByRole('button').click();
  await header.getByRole('button').click();
  await expect.poll(() => query(page).get('sort')).toBeNull();
  await expect(note).toBeVisible();
  await expect(urls.first().locator('a').first()).toHaveAttribute('href', byStake[0]!);
});
