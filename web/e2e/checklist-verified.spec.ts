/**
 * Issue 30 §2 in the browser: rows checked on one crawl are verified, not fixed yet, or left by the next. A site on
 * 127.0.0.1 is crawled twice through the Crawls page; between the crawls /a gains its H1 (fixed), /b keeps none and
 * /c answers 404 (gone).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import {
  SECTION,
  addStaffWebsite,
  authFile,
  logins,
  openCrawls,
  query,
  saveCrawlSettings,
  waitForOverview,
  watchProblems,
} from './helpers.ts';

const REPORT = 'content/missing-h1';
const website = { id: 'e2e-verified', name: 'E2E Verified Fixes', domain: '127.0.0.1' };

/** Home links to /a, /b and /c, which lack an H1 until `version` 2 gives /a one and takes /c away. */
function startChangingSite(): Promise<{ url: string; version: { n: number }; close: () => Promise<void> }> {
  const version = { n: 1 };
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    const html = (title: string, body: string) =>
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><html lang="en"><head><title>${title} of the verified fixes site</title></head>${body}`);
    if (path === '/')
      html('Home', '<body><h1>Home</h1><a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a></body>');
    else if (path === '/a')
      html('Page A', version.n === 1 ? '<body><p>No heading yet.</p></body>' : '<body><h1>A</h1></body>');
    else if (path === '/b') html('Page B', '<body><p>No heading.</p></body>');
    else if (path === '/c' && version.n === 1) html('Page C', '<body><p>No heading.</p></body>');
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        version,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

async function crawlNow(page: Page, crawlId: number): Promise<void> {
  await openCrawls(page, website.id);
  await page.getByRole('button', { name: 'Start now' }).click();
  await expect(page.getByRole('link', { name: `Loaded as crawl ${crawlId}` })).toBeVisible({ timeout: 150_000 });
}

const reportPage = (crawlId: number) => `${SECTION}/${REPORT}?website=${website.id}&crawl=${crawlId}`;

test.describe('the checklist verifies itself', () => {
  test.use({ storageState: authFile('staff') });
  let site: Awaited<ReturnType<typeof startChangingSite>>;

  test.beforeAll(async ({ baseURL }) => {
    site = await startChangingSite();
    await addStaffWebsite(baseURL!, website);
  });
  test.afterAll(async () => {
    await site?.close();
  });

  test('rows checked on one crawl are verified, not fixed yet, or left on the next', async ({ page }) => {
    test.setTimeout(400_000);
    const problems = watchProblems(page);
    await openCrawls(page, website.id);
    await saveCrawlSettings(page, {
      startUrl: site.url,
      maxUrls: 20,
      concurrency: 2,
      checkExternal: false,
      schedule: 'None',
    });
    await crawlNow(page, 1);

    // Check the three pages without an H1 on crawl 1.
    await page.goto(reportPage(1));
    const table = page.getByTestId('report-table');
    const urls = ['a', 'b', 'c'].map((p) => `${site.url}${p}`);
    for (const url of urls) await table.getByRole('checkbox', { name: `Checked: ${url}`, exact: true }).check();
    await page.getByRole('button', { name: 'Save checklist (3)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save the checklist' });
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Checklist saved')).toBeVisible();

    site.version.n = 2;
    await crawlNow(page, 2);

    // The overview counts the verified fix beside the report's change.
    await page.goto(`${SECTION}?website=${website.id}&crawl=2`);
    await waitForOverview(page);
    await expect(page.locator(`tr[data-report="${REPORT}"]`).getByTestId('verified-count')).toHaveText('1 verified');

    // Still listed: not fixed yet, with who checked it (staff); shown with Show Checked Items.
    await page.goto(reportPage(2));
    const stateOf = (url: string) =>
      table.locator('tbody tr', { hasText: url }).locator('td[data-column=checklist_state]');
    await page.getByRole('switch', { name: 'Show Checked Items' }).click();
    await expect.poll(() => query(page).get('checked')).toBe('1');
    await expect(stateOf(urls[1]!)).toHaveText(new RegExp(`^not fixed yet: checked by ${logins.staff.email} on `));

    // Removed: /a fixed, so verified by crawl 2; /c gone, so it left for that reason.
    await page.getByTestId('tab-removed').click();
    await expect(stateOf(urls[0]!)).toHaveText(/^verified by .*crawl 2/);
    await expect(stateOf(urls[2]!)).toHaveText('left: gone');
    await expect(table.locator('tbody tr', { hasText: urls[0]! }).locator('td[data-column=removal_reason]')).toHaveText(
      'fixed',
    );
    expect(problems()).toEqual([]);
  });
});
