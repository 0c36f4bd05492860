/**
 * The query report with Search Console's property totals, against the real service: staff upload the bulk export's
 * URL table, then its site table (searchdata_site_impression) on the Data sources page, and the query report's totals
 * and charts turn from the pages' sums into the property's figures, the note saying which they are, while the table
 * by landing URL keeps the pages' own. Review screenshots at 1280×800 and 768 wide go to SHOTS_DIR.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { QueryReport } from '../../catalog/api.ts';
import { SECTION, authFile, crawlsOf, reviewShots, watchProblems } from './helpers.ts';
import { BULK_CSV, addSiteWithoutSources, waitForImportJobs } from './source-site.ts';

const site = { id: 'e2e-property' } as const;
const SITE_CSV = path.join(path.dirname(BULK_CSV), 'searchdata_site_impression.csv');
const QUERY = 'alpine travel';

/**
 * The URL table of the same searches as searchdata_site_impression.csv: "alpine travel" showed both /de/ and
 * /de/deutschland/, so each page counts those impressions, where the property counts each search once. By hand: the
 * pages' clicks add up to the property's 38, their impressions to 670 against its 400.
 */
const URL_TABLE = [
  'data_date,site_url,url,query,is_anonymized_query,is_anonymized_discover,country,search_type,device,impressions,clicks,sum_position',
  ...[
    ['2026-11-02', '/de/', 'deu,WEB,DESKTOP', 150, 15, 90],
    ['2026-11-02', '/de/deutschland/', 'deu,WEB,DESKTOP', 120, 1, 300],
    ['2026-11-02', '/de/', 'deu,WEB,MOBILE', 100, 10, 80],
    ['2026-11-02', '/de/deutschland/', 'deu,WEB,MOBILE', 60, 0, 200],
    ['2026-11-02', '/de/', 'aut,IMAGE,MOBILE', 20, 0, 110],
    ['2026-11-03', '/de/', 'deu,WEB,DESKTOP', 130, 11, 65],
    ['2026-11-03', '/de/deutschland/', 'deu,WEB,DESKTOP', 90, 1, 250],
  ].map(
    ([day, page, where, impressions, clicks, position]) =>
      `${day},sc-domain:alpine-travel.eu,https://www.alpine-travel.eu${page},${QUERY},false,false,${where},${impressions},${clicks},${position}`,
  ),
].join('\n');

test.describe.configure({ mode: 'serial' });
test.use({ storageState: authFile('staff') });

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(240_000);
  await addSiteWithoutSources(baseURL!, site.id);
});

async function upload(page: Page, file: string): Promise<void> {
  await page.goto(`/data-sources?website=${site.id}`);
  const card = page.locator('[data-testid="source-card"][data-source="search-console"]');
  const answered = page.waitForResponse((r) => r.url().includes('/api/data-sources/upload'));
  await card.getByTestId('drop-search-console-input').setInputFiles([file]);
  expect((await answered).status()).toBe(202);
  await waitForImportJobs(page, site.id);
  await expect(card.getByTestId('job-progress')).toHaveCount(0, { timeout: 120_000 });
}

/** Opens the query report of QUERY from search-console/all; returns what its call answered. */
async function openQueryReport(page: Page): Promise<QueryReport> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${SECTION}/search-console/all?website=${site.id}`);
  await expect(page.getByTestId('report-table')).toBeVisible({ timeout: 20_000 });
  const answered = page.waitForResponse((r) => r.url().endsWith('/query/get-report'));
  // Both pages' top query is QUERY: either row opens the same report.
  await page
    .getByRole('button', { name: `Open the query report for ${QUERY}`, exact: true })
    .first()
    .click();
  await expect(page.getByTestId('query-report')).toBeVisible({ timeout: 20_000 });
  return (await (await answered).json()) as QueryReport;
}

const stat = (page: Page, id: string) => page.getByTestId('query-source-search-console').getByTestId(`stat-${id}`);

async function reviewQueryShots(page: Page, name: string): Promise<void> {
  await page.getByTestId('query-source-search-console').scrollIntoViewIfNeeded();
  await page.mouse.move(0, 0);
  await reviewShots(page, name);
}

test("the query report shows the property's figures once its site table is imported, the pages' sums before", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const problems = watchProblems(page);
  await page.goto(SECTION);
  await expect.poll(async () => (await crawlsOf(page, site.id)).length, { timeout: 30_000 }).toBe(2);

  const urlTable = test.info().outputPath('searchdata_url_impression.csv');
  fs.writeFileSync(urlTable, `${URL_TABLE}\n`);
  await upload(page, urlTable);
  const pages = await openQueryReport(page);
  expect(pages.searchConsole.figures).toBe('pages');
  const note = page.getByTestId('query-search-console-figures');
  await expect(note).toHaveAttribute('data-figures', 'pages');
  await expect(note).toContainText("the sums of the landing pages' figures");
  await expect(stat(page, 'sc-clicks')).toHaveText('38');
  await expect(stat(page, 'sc-impressions')).toHaveText('670');
  await reviewQueryShots(page, 'query-report-pages-sums');

  await upload(page, SITE_CSV);
  const property = await openQueryReport(page);
  expect(property.searchConsole.figures).toBe('property');
  await expect(note).toHaveAttribute('data-figures', 'property');
  await expect(note).toContainText("Search Console's figures for the whole property, each search counted once");
  // searchdata_site_impression.csv by hand: 16 + 10 + 0 + 12 clicks of 150 + 100 + 20 + 130 impressions.
  await expect(stat(page, 'sc-clicks')).toHaveText('38');
  await expect(stat(page, 'sc-impressions')).toHaveText('400');
  // The landing URL table stays the pages' own rows: 15 + 10 + 11 clicks of 400 impressions, and 2 of 270.
  expect(property.searchConsole.byUrl.map((r) => [r.url, r.clicks, r.impressions])).toEqual([
    ['https://www.alpine-travel.eu/de/', 36, 400],
    ['https://www.alpine-travel.eu/de/deutschland/', 2, 270],
  ]);
  await expect(page.getByTestId('query-source-search-console')).toContainText(
    "By landing URL (2), each page's own figures",
  );
  expect(property.searchConsole.byUrl).toEqual(pages.searchConsole.byUrl);
  await reviewQueryShots(page, 'query-report-property');
  expect(problems()).toEqual([]);
});
