import { expect, test, type Page } from '@playwright/test';
import {
  SECTION,
  authFile,
  choose,
  crawlsOf,
  extra,
  open,
  query,
  waitForOverview,
  websites,
  type CrawlInfo,
} from './helpers.ts';

/** global-setup leaves Northwind's two newest crawls pending; the older one of them is the one to approve. */
async function crawlToApprove(page: Page): Promise<CrawlInfo> {
  const crawls = await crawlsOf(page, websites.northwind.id);
  const pending = crawls.filter((c) => c.moduleState === 'PENDING');
  expect(pending.length, 'pending Northwind crawls').toBeGreaterThanOrEqual(1);
  return pending[pending.length - 1]!;
}

test.describe('internal users', () => {
  test.use({ storageState: authFile('staff') });

  test('see the pending notice on a pending crawl, with the auto-approval explanation, and none on approved ones', async ({
    page,
  }) => {
    await open(page, `${SECTION}?website=${websites.northwind.id}`);
    await waitForOverview(page);
    const crawls = await crawlsOf(page, websites.northwind.id);
    expect(crawls[0]!.moduleState).toBe('PENDING');
    const notice = page.getByTestId('pending-notice');
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('Tuesday at around 11am/12pm');
    await expect(notice).toContainText('only then is the client emailed');
    await expect(notice.getByRole('button', { name: 'Approve' })).toBeEnabled();
    const approved = crawls.find((c) => c.moduleState === 'APPROVED')!;
    await choose(page, 'Current Crawl', approved.label);
    await waitForOverview(page);
    await expect(page.getByTestId('pending-notice')).toHaveCount(0);
  });

  test('a failed approval shows the error toast and keeps the notice', async ({ page }) => {
    await open(page, `${SECTION}?website=${websites.northwind.id}`);
    const target = await crawlToApprove(page);
    await choose(page, 'Current Crawl', target.label);
    await waitForOverview(page);
    await page.route('**/crawl/approve', (route) => route.fulfill({ status: 500, json: { error: 'boom' } }));
    await page.getByTestId('pending-notice').getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('An error occurred when approving the crawl, please try again later.')).toBeVisible();
    await expect(page.getByTestId('pending-notice')).toBeVisible();
  });

  test('approving shows the toasts, hides the notice, and the toast closes after 5 seconds', async ({ page }) => {
    await open(page, `${SECTION}?website=${websites.northwind.id}`);
    const target = await crawlToApprove(page);
    await choose(page, 'Current Crawl', target.label);
    await waitForOverview(page);
    await page.route('**/crawl/approve', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await page.getByTestId('pending-notice').getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('Approving crawl...')).toBeVisible();
    await expect(page.getByText('Crawl approved')).toBeVisible();
    await expect(page.getByTestId('pending-notice')).toHaveCount(0);
    const after = await crawlsOf(page, websites.northwind.id);
    expect(after.find((c) => c.crawlId === target.crawlId)?.moduleState).toBe('APPROVED');
    const shownAt = Date.now();
    await expect(page.getByText('Crawl approved')).toHaveCount(0, { timeout: 9000 });
    expect(Date.now() - shownAt).toBeGreaterThan(3000);
  });

  test('a website without the module shows the red inactive panel', async ({ page }) => {
    await open(page, `${SECTION}?website=${extra.inactive.id}`);
    const panel = page.getByTestId('module-inactive');
    await expect(panel).toBeVisible();
    await expect(panel).toContainText('Technical Health Check is not active for this website');
    await expect(page.getByTestId('overview')).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Technical Health Check reports' })).toHaveCount(0);
  });

  test('a website without crawls says so', async ({ page }) => {
    await open(page, `${SECTION}?website=${extra.empty.id}`);
    await expect(page.getByRole('heading', { name: 'No crawls yet' })).toBeVisible();
  });

  test('a failed crawl list shows the fetch error texts, and retry recovers', async ({ page }) => {
    await page.route('**/crawl/get-redux', (route) => route.fulfill({ status: 500, json: { error: 'boom' } }));
    await open(page, `${SECTION}?website=${websites.northwind.id}`);
    const error = page.getByTestId('fetch-error');
    await expect(error).toContainText('An error occurred fetching the data');
    await expect(error).toContainText('An unexpected error occurred when fetching the data, please try again later.');
    await page.unroute('**/crawl/get-redux');
    await error.getByRole('button', { name: 'Try again' }).click();
    await waitForOverview(page);
  });

  test('a failed overview shows the fetch error texts', async ({ page }) => {
    await page.route('**/overview/get-overview', (route) => route.fulfill({ status: 500, json: { error: 'boom' } }));
    await open(page, `${SECTION}?website=${websites.northwind.id}`);
    await expect(page.getByTestId('fetch-error')).toContainText('An error occurred fetching the data');
  });
});

test.describe('clients', () => {
  test.use({ storageState: authFile('client') });

  test('see only approved crawls, no pending notice and no approve button', async ({ page }) => {
    await open(page);
    await waitForOverview(page);
    expect(query(page).get('website')).toBe(websites.northwind.id);
    await expect(page.getByTestId('website-name')).toContainText('Northwind Outfitters');
    await expect(page.getByTestId('pending-notice')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    const crawls = await crawlsOf(page, websites.northwind.id);
    expect(crawls.length).toBeGreaterThan(0);
    expect(crawls.every((c) => c.moduleState === 'APPROVED')).toBe(true);
    await page.getByRole('combobox', { name: 'Current Crawl', exact: true }).click();
    await expect(page.getByRole('option')).toHaveCount(crawls.length);
  });

  test('a link to a crawl they cannot see falls back to the latest approved one, with a notice', async ({ page }) => {
    await open(page, `${SECTION}?website=${websites.northwind.id}&crawl=999999`);
    await expect(page.getByTestId('unknown-crawl')).toBeVisible();
    await waitForOverview(page);
    await expect(page.getByTestId('pending-notice')).toHaveCount(0);
  });
});

test.describe('a client whose crawls are all pending', () => {
  test.use({ storageState: authFile('alpineClient') });

  test('sees the pending title and copy and no data', async ({ page }) => {
    await open(page);
    const panel = page.getByTestId('client-pending');
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('heading')).toHaveText('Your latest crawl is being reviewed');
    await expect(panel).toContainText('Tuesday at around 11am/12pm');
    await expect(page.getByTestId('overview')).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Technical Health Check reports' })).toHaveCount(0);
    await expect(page.getByRole('combobox', { name: 'Current Crawl' })).toHaveCount(0);
  });
});

test.describe('a client whose website has no crawl yet', () => {
  test.use({ storageState: authFile('emptyClient') });

  test('sees the pending title and copy', async ({ page }) => {
    await open(page);
    await expect(page.getByTestId('client-pending')).toBeVisible();
  });
});
