/** What a new user tripped over (issue 28 §3), each as the browser shows it. */
import { expect, test, type Page } from '@playwright/test';
import { SECTION, authFile, extra, open, openCrawls, query, sidebar, websites } from './helpers.ts';

test.use({ storageState: authFile('staff') });

/** Opens a report of Northwind's newest crawl and waits for its first page of rows. */
async function openReport(page: Page, reportId: string, extra = ''): Promise<void> {
  await open(page, `${SECTION}?website=${websites.northwind.id}`);
  await expect(page.getByTestId('overview')).toBeVisible({ timeout: 20_000 });
  const crawl = query(page).get('crawl');
  await page.goto(`${SECTION}/${reportId}?website=${websites.northwind.id}&crawl=${crawl}${extra}`);
  await expect(page.getByTestId('row-range')).toHaveText(/ of [\d,]+ rows$/, { timeout: 20_000 });
}

test('number inputs keep a minus sign and name the field instead of reading another number', async ({ page }) => {
  await openCrawls(page, websites.northwind.id);
  const form = page.getByTestId('crawl-settings');
  const maxUrls = form.getByRole('textbox', { name: 'Max URLs' });
  await maxUrls.fill('');
  await maxUrls.pressSequentially('-5');
  await expect(maxUrls).toHaveValue('-5');
  await expect(maxUrls).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('Max URLs must be a whole number from 1 to 1,000,000')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();

  await openReport(page, 'internal/all');
  const label = await page.getByTestId('page-label').textContent();
  const input = page.getByRole('textbox', { name: 'Go to page' });
  await input.pressSequentially('-3');
  await expect(input).toHaveValue('-3');
  await input.press('Enter');
  await expect(page.getByTestId('page-input-error')).toHaveText(/^Enter a page from 1 to [\d,]+$/);
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('page-label')).toHaveText(label!);
});

test("'URLs containing' on a report of links finds links from a page, and says it matched the linking page", async ({
  page,
}) => {
  await openReport(page, 'links/internal-broken');
  const table = page.getByTestId('report-table');
  const linking = await table.locator('[data-column=url_from] [data-url]').first().getAttribute('data-url');
  const targets = await table
    .locator('[data-column=url_to] [data-url]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-url')));
  const path = new URL(linking!).pathname;
  expect(
    targets.some((target) => target?.includes(path)),
    'a linking page no target contains',
  ).toBe(false);

  await page.getByRole('textbox', { name: 'URLs containing' }).fill(path);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByTestId('filter-matches')).toHaveText(
    new RegExp(`^'${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}' is in the linking page of [\\d,]+ rows?`),
  );
  const rows = table.locator('tbody tr[data-index]');
  await expect(rows.first()).toBeVisible();
  const pairs = await rows.evaluateAll((trs) =>
    trs.map((tr) =>
      ['url_from', 'url_to'].map((id) => tr.querySelector(`[data-column=${id}] [data-url]`)?.getAttribute('data-url')),
    ),
  );
  expect(pairs.some(([from]) => from?.includes(path))).toBe(true);
  for (const [from, to] of pairs) expect(`${from} ${to}`).toContain(path);
});

test('with one crawl the chart ends at it (no key date after it) and reads "the last crawl"', async ({ page }) => {
  await open(page, `${SECTION}?website=${extra.big.id}`);
  await expect(page.getByTestId('overview')).toBeVisible({ timeout: 20_000 });
  await page.goto(`${SECTION}/status-code/4xx?website=${extra.big.id}&crawl=${query(page).get('crawl')}`);
  await expect(page.getByTestId('chart-subtitle')).toHaveText('Issues found by the last crawl');
  const svg = page.getByTestId('issues-chart').locator('svg').first();
  await expect(svg.locator('circle')).toHaveCount(1);
  const { cx, width } = await svg.evaluate((el) => ({
    cx: Number(el.querySelector('circle')!.getAttribute('cx')),
    width: (el as SVGSVGElement).width.baseVal.value,
  }));
  // The plot's right margin (30) and inset (14): the lone crawl sits at the axis' end.
  expect(Math.abs(cx - (width - 30 - 14))).toBeLessThan(1.5);
});

test('sidebar counts are exact up to 9,999, then one decimal', async ({ page }) => {
  const counts: { shown: string; label: string }[] = [];
  // Northwind's ~2,000 URLs give four-digit counts; the big website's 110,000 give five- and six-digit ones.
  for (const websiteId of [websites.northwind.id, extra.big.id]) {
    await open(page, `${SECTION}?website=${websiteId}`);
    await expect(page.getByTestId('overview')).toBeVisible({ timeout: 20_000 });
    const nav = sidebar(page);
    await nav.getByText('Category', { exact: true }).click();
    for (const id of await nav
      .locator('[data-testid^=group-][aria-expanded=false]')
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-testid')!)))
      await nav.getByTestId(id).click();
    await expect(nav.locator('a[data-report] span[class*=reportCount]').first()).toBeVisible();
    counts.push(
      ...(await nav
        .locator('a[data-report] span[class*=reportCount]')
        .evaluateAll((spans) => spans.map((s) => ({ shown: s.textContent, label: s.getAttribute('aria-label')! })))),
    );
  }
  const rows = (label: string) => Number(label.replace(/ rows?$/, '').replace(/,/g, ''));
  expect(counts.some((c) => rows(c.label) >= 1000 && rows(c.label) <= 9999)).toBe(true);
  expect(counts.some((c) => rows(c.label) >= 10_000)).toBe(true);
  for (const { shown, label } of counts) {
    const n = rows(label);
    if (n <= 9999) expect(shown).toBe(n.toLocaleString('en-GB'));
    else {
      expect(shown).toMatch(/^\d+(\.\d)?[km]$/);
      const value = Number(shown.slice(0, -1)) * (shown.endsWith('m') ? 1e6 : 1e3);
      expect(Math.abs(value - n) / n).toBeLessThan(0.005);
    }
  }
});

test('hiding every column leaves a message and a way back', async ({ page }) => {
  await openReport(page, 'internal/all');
  await page.getByRole('button', { name: 'Columns' }).click();
  const dialog = page.getByRole('dialog', { name: 'Columns' });
  const toggleAll = dialog.getByRole('checkbox', { name: 'Toggle All' });
  await toggleAll.click();
  // From some columns shown, Toggle All shows them all first.
  if (await toggleAll.isChecked()) await toggleAll.click();
  await expect(toggleAll).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Close the column dialog' }).click();
  const panel = page.getByTestId('no-columns');
  await expect(panel).toContainText('Every column is hidden');
  await expect(page.getByTestId('report-table')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeDisabled();

  await panel.getByRole('button', { name: 'Choose columns' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close the column dialog' }).click();
  await panel.getByRole('button', { name: 'Show all columns' }).click();
  await expect(panel).toHaveCount(0);
  await expect(page.getByTestId('report-table').locator('thead th[data-column=url]')).toBeVisible();
});

test('the checklist dialog shows URLs the way the table does', async ({ page }) => {
  await openReport(page, 'links/internal-broken');
  const row = page.getByTestId('report-table').locator('tbody tr[data-index="0"]');
  const shown = async (id: string) => {
    const cell = row.locator(`[data-column=${id}] [data-url]`);
    return { text: await cell.textContent(), full: await cell.getAttribute('data-url') };
  };
  const target = await shown('url_to');
  const linking = await shown('url_from');
  expect(linking.text).not.toBe(linking.full);
  await row.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Save checklist (1)' }).click();
  const item = page.getByRole('dialog', { name: 'Save the checklist' }).getByTestId('checklist-item');
  const urls = await item
    .locator('[data-url]')
    .evaluateAll((els) => els.map((el) => ({ text: el.textContent, full: el.getAttribute('data-url') })));
  expect(urls).toEqual([target, linking]);
  await expect(item.getByText('Linking URL')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Discard changes' }).click();
});
