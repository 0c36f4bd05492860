/**
 * Comparable or not (issue 30 §4), in the browser: the same-day website's first crawl was run with a lower Max URLs
 * and robots.txt ignored (demo-data.ts), so crawl 2, compared with it by default, says so above the overview and a
 * report's Added/Removed counts, listing both settings; crawl 4 against crawl 2 (same settings) says nothing.
 */
import { expect, test } from '@playwright/test';
import { SECTION, authFile, extra, open, waitForOverview } from './helpers.ts';

test.use({ storageState: authFile('staff') });

const { sameDay } = extra;

test('a comparison of crawls run with different settings lists them; the same settings say nothing', async ({
  page,
}) => {
  await open(page, `${SECTION}?website=${sameDay.id}&crawl=2`);
  await waitForOverview(page);
  const notice = page.getByTestId('settings-differ-notice');
  await expect(notice).toContainText('compared with 9 Nov 2026 (crawl 1), run with different settings');
  const differences = notice.getByTestId('setting-differences').locator('li');
  await expect(differences).toHaveText([
    'Max URLs: 100,000 in this crawl, 500 in the crawl compared with',
    'robots.txt: respected in this crawl, ignored in the crawl compared with',
  ]);

  await page.goto(`${SECTION}/crawl/all?website=${sameDay.id}&crawl=2`);
  await expect(page.getByTestId('tab-added')).toBeVisible();
  await expect(notice).toBeVisible();
  // Above the Added/Removed counts.
  const noticeBox = (await notice.boundingBox())!;
  expect(noticeBox.y + noticeBox.height).toBeLessThan((await page.getByTestId('tab-added').boundingBox())!.y);

  await open(page, `${SECTION}?website=${sameDay.id}&crawl=4`);
  await waitForOverview(page);
  await expect(page.getByTestId('stat-health')).toBeVisible();
  await expect(notice).toHaveCount(0);
});
