/** The Removed tab's removal reasons (issue 30 §1) on the demo's newest crawl: column, filter, counts, overview. */
import { expect, test } from '@playwright/test';
import { REMOVAL_REASONS } from '../../catalog/removal-reasons.ts';
import {
  SECTION,
  authFile,
  open,
  query,
  removalReasonsOf,
  reportsWithRemovals,
  waitForOverview,
  websites,
} from './helpers.ts';

test.use({ storageState: authFile('staff') });

test('the Removed tab gives each row its reason, counts each reason and filters by one', async ({ page }) => {
  await open(page, `${SECTION}?website=${websites.northwind.id}`);
  await waitForOverview(page);
  const candidates = await reportsWithRemovals(page);
  expect(candidates.length, 'a report with removed rows').toBeGreaterThan(0);
  const report = candidates[0]!;
  const counts = report.removedByReason!;

  await page.goto(`${SECTION}/${report.reportId}?website=${websites.northwind.id}&crawl=${query(page).get('crawl')}`);
  await page.getByTestId('tab-removed').click();
  const filter = page.getByTestId('removal-reasons');
  await expect(filter).toContainText(`All ${report.removed!.toLocaleString('en-GB')}`);
  for (const reason of REMOVAL_REASONS)
    await expect(filter.locator('label', { hasText: new RegExp(`^${reason}`, 'i') })).toHaveText(
      new RegExp(`^${reason} ${counts[reason].toLocaleString('en-GB')}$`, 'i'),
    );
  const table = page.getByTestId('report-table');
  await expect(table.locator('th[data-column=removal_reason]')).toHaveText(/Removal reason/);
  const cells = table.locator('tbody td[data-column=removal_reason]');
  await expect(cells.first()).toHaveText(/^(fixed|gone|not crawled|report changed)$/);

  for (const reason of removalReasonsOf(report)) {
    await filter.locator('label', { hasText: new RegExp(`^${reason}`, 'i') }).click();
    await expect.poll(() => query(page).get('reason')).toBe(reason);
    await expect(page.getByTestId('row-range')).toContainText(`of ${counts[reason].toLocaleString('en-GB')} row`);
    await expect(cells.first()).toHaveText(reason);
    expect(new Set(await cells.allTextContents())).toEqual(new Set([reason]));
  }

  // Leaving the tab drops the filter and the column.
  await page.getByTestId('tab-all').click();
  await expect.poll(() => query(page).get('reason')).toBeNull();
  await expect(table.locator('th[data-column=removal_reason]')).toHaveCount(0);
  await expect(filter).toHaveCount(0);
});

test("the overview splits a report's Removed into fixed and the rest", async ({ page }) => {
  await open(page, `${SECTION}?website=${websites.northwind.id}`);
  await waitForOverview(page);
  const fixed = (await reportsWithRemovals(page)).find(
    // NONE reports are listed apart from the severity cards, without a change column.
    (r) => r.severity !== 'NONE' && (r.removedByReason?.fixed ?? 0) > 0 && r.ems_lumar_row_count > 0,
  );
  expect(fixed, 'a report with issues and fixed rows').toBeDefined();
  const row = page.locator(`tr[data-report="${fixed!.reportId}"]`);
  await expect(row.getByTestId('fixed-count')).toHaveText(
    `${fixed!.removedByReason!.fixed.toLocaleString('en-GB')} fixed`,
  );
  // The change's tooltip (the rank indicator has a title too).
  await expect(row.locator('span[title*=" removed"]')).toHaveAttribute(
    'title',
    new RegExp(`removed \\(${fixed!.removedByReason!.fixed} fixed`),
  );
});
