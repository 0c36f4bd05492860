/**
 * Review screenshots of the rendered crawl (screenshots.spec.ts's pattern, same directory): the Crawls page with
 * its render settings set to All, and a rendered-crawl report after a crawl of a client-rendered React shop on
 * 127.0.0.1, run from that page.
 */
import fs from 'node:fs';
import type http from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { serveJsSite } from '../../service/test/helpers/js-sites/js-sites.ts';
import { SECTION, addStaffWebsite, authFile, choose, openCrawls, saveCrawlSettings } from './helpers.ts';

const DIR = process.env.SHOTS_DIR ?? 'test-results/shots';
const sizes = [
  { name: '1280', width: 1280, height: 800 },
  { name: '768', width: 768, height: 1024 },
] as const;

let shop: { server: http.Server; origin: string } | undefined;

test.beforeAll(async () => {
  fs.mkdirSync(DIR, { recursive: true });
  shop = await serveJsSite('history');
});

test.afterAll(() => shop?.server.close());

async function shot(page: Page, size: string, name: string): Promise<void> {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${DIR}/${size}-${name}.png`, fullPage: false });
}

/** One state at both sizes, ending at 1280 (screenshots.spec.ts's shotBoth): the crawl behind it runs once. */
async function shotBoth(page: Page, name: string, prepare: () => Promise<void>): Promise<void> {
  for (const size of [...sizes].reverse()) {
    await page.setViewportSize(size);
    await prepare();
    await shot(page, size.name, name);
  }
}

test('the render settings, a rendered crawl, and its head-changed-by-JavaScript report, at 768 and 1280 px', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const website = { id: 'e2e-rendered-shots', name: 'E2E Rendered Shop', domain: '127.0.0.1' };
  await addStaffWebsite(baseURL!, website);
  const context = await browser.newContext({ storageState: authFile('staff'), viewport: sizes[0] });
  const page = await context.newPage();
  await openCrawls(page, website.id);
  await choose(page, 'Render mode', 'All: crawl the rendered pages');
  await saveCrawlSettings(page, { startUrl: `${shop!.origin}/`, maxUrls: 100, concurrency: 2 });
  await shotBoth(page, 'crawls-render-settings', async () => {
    await page.getByRole('combobox', { name: 'Render mode', exact: true }).scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 160));
  });

  await page.getByRole('button', { name: 'Start now' }).click();
  await expect(page.getByRole('link', { name: 'Loaded as crawl 1' })).toBeVisible({ timeout: 240_000 });
  await page.goto(`${SECTION}/meta/changed-by-javascript?website=${website.id}`);
  await expect(page.getByTestId('report-title')).toHaveText(/Head changed by JavaScript/);
  await expect(page.getByTestId('row-range')).toHaveText(/^1–\d+ of \d+ rows$/, { timeout: 30_000 });
  await page.waitForTimeout(500);
  await shotBoth(page, 'report-changed-by-javascript', () => page.evaluate(() => window.scrollTo(0, 0)));
  await shotBoth(page, 'report-changed-by-javascript-table', () =>
    page.getByTestId('report-table').scrollIntoViewIfNeeded(),
  );
  await context.close();
});
