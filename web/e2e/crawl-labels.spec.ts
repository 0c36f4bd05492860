/**
 * Issue 28 §2, in the browser: crawls of one day told apart in the dropdowns, the overview and the chart (ticks,
 * tooltips and its downloaded data); a partial crawl marked, never the default comparison, and a warning when it is
 * compared with. The same-day website is loaded by global-setup; the partial crawl by Max URLs is crawled here from a
 * site on 127.0.0.1 through the Crawls page.
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { CSV_BOM } from '../../catalog/constants.ts';
import { PARTIAL_COMPARISON_WARNING } from '../../catalog/crawl-label.ts';
import { csvLine } from '../../catalog/csv.ts';
import {
  SECTION,
  addStaffWebsite,
  authFile,
  choose,
  crawlsOf,
  expectAccessible,
  extra,
  open,
  openCrawls,
  query,
  saveCrawlSettings,
  selectedValue,
  waitForOverview,
  watchProblems,
} from './helpers.ts';
import { startLoopbackSite, type LoopbackSite } from './loopback-site.ts';

const { sameDay } = extra;
const labels = {
  1: '9 Nov 2026 (crawl 1)',
  2: '16 Nov 2026, 06:00 (crawl 2)',
  3: '16 Nov 2026, 09:41 (crawl 3, partial)',
  4: '16 Nov 2026, 14:05 (crawl 4)',
} as const;

async function optionsOf(page: Page, label: string): Promise<string[]> {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  const options = page.getByRole('option');
  await expect(options.first()).toBeVisible();
  const texts = await options.allTextContents();
  await page.keyboard.press('Escape');
  return texts;
}

test.describe('crawl labels and partial crawls', () => {
  test.use({ storageState: authFile('staff') });

  test('three crawls of one day read apart everywhere; the partial one is marked and never the default comparison', async ({
    page,
  }) => {
    const problems = watchProblems(page);
    await open(page, `${SECTION}?website=${sameDay.id}`);
    await waitForOverview(page);
    expect((await crawlsOf(page, sameDay.id)).map((c) => [c.crawlId, c.label, c.partial])).toEqual([
      [4, labels[4], null],
      [3, labels[3], 'stopped'],
      [2, labels[2], null],
      [1, labels[1], null],
    ]);

    // The newest crawl is compared with the full crawl of that morning, not the partial one between them.
    expect(await selectedValue(page, 'Current Crawl')).toBe(labels[4]);
    expect(await selectedValue(page, 'Compared with')).toBe(labels[2]);
    expect(await optionsOf(page, 'Current Crawl')).toEqual([labels[4], labels[3], labels[2], labels[1]]);
    expect(await optionsOf(page, 'Compared with')).toEqual([labels[3], labels[2], labels[1]]);
    await expect(page.getByTestId('stat-health')).toContainText(`since ${labels[2]}`);
    await expect(page.getByTestId('partial-notice')).toHaveCount(0);

    // Compared with the partial crawl: said in the overview, and warned about.
    await choose(page, 'Compared with', labels[3]);
    await expect.poll(() => query(page).get('compare')).toBe('3');
    await expect(page.getByTestId('stat-health')).toContainText(`since ${labels[3]}`);
    const notice = page.getByTestId('partial-notice');
    await expect(notice).toContainText('Compared with a partial crawl');
    await expect(notice.getByTestId('partial-comparison')).toContainText(PARTIAL_COMPARISON_WARNING);
    await expect(notice.getByTestId('partial-current')).toHaveCount(0);
    await expectAccessible(page, 'Overview compared with a partial crawl');

    // The partial crawl itself: marked, with why, and compared with the full crawl before it.
    await choose(page, 'Current Crawl', labels[3]);
    await waitForOverview(page);
    expect(await selectedValue(page, 'Current Crawl')).toBe(labels[3]);
    expect(await selectedValue(page, 'Compared with')).toBe(labels[2]);
    await expect(notice).toContainText('This crawl is partial');
    await expect(notice.getByTestId('partial-current')).toContainText(
      `The crawl of ${labels[3]} holds only part of the website: it was stopped before it finished.`,
    );
    await expect(notice.getByTestId('partial-comparison')).toHaveCount(0);

    // The chart of a report names each crawl as the dropdown does; crawls hours apart share one tick, never overlap.
    await page.goto(`${SECTION}/status-code/4xx?website=${sameDay.id}`);
    const chart = page.getByTestId('issues-chart');
    await expect(chart.locator('svg').first()).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('table', { name: 'Issues per crawl' }).locator('tbody td:first-child')).toHaveText([
      labels[1],
      labels[2],
      labels[3],
      labels[4],
    ]);
    const ticks = await chart.locator('svg g[aria-label="x-axis tick label"] text').evaluateAll((texts) =>
      texts.map((t) => {
        const r = t.getBoundingClientRect();
        return { text: t.textContent ?? '', left: r.left, right: r.right };
      }),
    );
    expect(ticks.map((t) => t.text)).toEqual(['9 Nov 2026crawl 1', '16 Nov 202614:05, crawl 4']);
    expect(ticks[0]!.right).toBeLessThan(ticks[1]!.left);

    // Each point's tooltip names its crawl as the dropdown does, hours apart on one day or not, with its issues.
    const counts = await page
      .getByRole('table', { name: 'Issues per crawl' })
      .locator('tbody td:nth-child(2)')
      .allTextContents();
    const dots = chart.locator('svg g[aria-label="dot"] circle');
    await expect(dots).toHaveCount(4);
    const tip = chart.locator('svg g[aria-label="tip"] text');
    for (const [i, label] of [labels[1], labels[2], labels[3], labels[4]].entries()) {
      const box = (await dots.nth(i).boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      // Plot starts each line with a zero-width space and wraps a long one at a space: joined by one, they are the text.
      await expect
        .poll(async () => (await tip.locator('tspan').allTextContents()).join(' ').replaceAll('\u200b', ''))
        .toBe(`${label} ${counts[i]!} issues`);
    }

    // Its data, downloaded, tells the crawls of one day apart by the same labels.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download data' }).click();
    const csv = fs.readFileSync(await (await downloading).path(), 'utf8');
    const days = ['2026-11-09', '2026-11-16', '2026-11-16', '2026-11-16'];
    expect(csv.slice(CSV_BOM.length).trimEnd().split('\r\n')).toEqual([
      'date,crawl,issues',
      ...[labels[1], labels[2], labels[3], labels[4]].map((label, i) =>
        csvLine([days[i]!, label, counts[i]!.replaceAll(',', '')]),
      ),
    ]);
    expect(problems()).toEqual([]);
  });

  test.describe('a crawl cut short by Max URLs', () => {
    const website = { id: 'e2e-max-urls', name: 'E2E Max URLs Crawl', domain: '127.0.0.1' };
    let site: LoopbackSite;

    test.beforeAll(async ({ baseURL }) => {
      site = await startLoopbackSite({ pages: 40 });
      await addStaffWebsite(baseURL!, website);
    });
    test.afterAll(async () => {
      await site?.close();
    });

    test('is marked Partial in History, in the dropdown and above the overview', async ({ page }) => {
      test.setTimeout(180_000);
      const problems = watchProblems(page);
      await openCrawls(page, website.id);
      await saveCrawlSettings(page, {
        startUrl: site.url,
        maxUrls: 8,
        concurrency: 2,
        checkExternal: false,
        schedule: 'None',
      });
      await page.getByRole('button', { name: 'Start now' }).click();
      const loaded = page.getByRole('link', { name: 'Loaded as crawl 1' });
      await expect(loaded).toBeVisible({ timeout: 150_000 });
      const row = page.getByTestId('crawl-history').locator('tbody tr').first();
      const mark = row.getByTestId('partial');
      await expect(mark).toHaveText('Partial');
      await expect(mark).toHaveAttribute('title', 'Partial: it reached its Max URLs setting');

      await loaded.click();
      await waitForOverview(page);
      const [crawl] = await crawlsOf(page, website.id);
      expect(crawl).toMatchObject({ crawlId: 1, partial: 'max-urls' });
      expect(crawl!.label).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4} \(crawl 1, partial\)$/);
      expect(await selectedValue(page, 'Current Crawl')).toBe(crawl!.label);
      await expect(page.getByTestId('partial-current')).toContainText('it reached its Max URLs setting');
      expect(problems()).toEqual([]);
    });
  });
});
