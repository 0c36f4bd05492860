import fs from 'node:fs';
import { expect, test, type Cookie, type Page } from '@playwright/test';
import { keyDates } from '../../catalog/index.ts';
import { SECTION, api, authFile, open, query, websites } from './helpers.ts';

test.use({ storageState: authFile('staff') });

interface OverviewAnswer {
  severityMap: Record<
    string,
    { reports: { reportId: string; tableId: string; ems_rank: number; ems_lumar_row_count: number }[] }
  >;
}

/** A report of the demo's newest crawl with at least `rows` rows and a severity, preferring URL reports. */
async function busyReport(page: Page, rows: number): Promise<string> {
  const crawl = Number(query(page).get('crawl'));
  const overview = await api<OverviewAnswer>(page, '/api/technical-health-check/overview/get-overview', {
    websiteId: websites.northwind.id,
    currentId: crawl,
    refresh: false,
  });
  const candidates = Object.entries(overview.severityMap)
    .filter(([severity]) => severity !== 'NONE')
    .flatMap(([, s]) => s.reports)
    .filter((r) => r.ems_lumar_row_count >= rows && !r.reportId.startsWith('hreflang/'))
    .sort(
      (a, b) =>
        Number(b.tableId === 'urls') - Number(a.tableId === 'urls') || b.ems_lumar_row_count - a.ems_lumar_row_count,
    );
  expect(candidates.length, `a report with ${rows}+ rows`).toBeGreaterThan(0);
  return candidates[0]!.reportId;
}

async function openBusyReport(page: Page, rows = 45): Promise<string> {
  await open(page, `${SECTION}?website=${websites.northwind.id}`);
  await expect(page.getByTestId('overview')).toBeVisible();
  const id = await busyReport(page, rows);
  await page.goto(`${SECTION}/${id}?website=${websites.northwind.id}&crawl=${query(page).get('crawl')}`);
  await expect(page.getByTestId('row-range')).toHaveText(/^1–\d+ of [\d,]+ rows$/, { timeout: 20_000 });
  return id;
}

const pageLabel = (page: Page) => page.getByTestId('page-label');
const bodyRows = (page: Page) => page.getByTestId('report-table').locator('tbody tr[data-index]');

test('header, chart and breakdown tabs with counts that drive the table', async ({ page }) => {
  await openBusyReport(page);
  await expect(page.getByTestId('report-title')).toHaveText(/^[A-Z][^:]+: .+/);
  await expect(page.getByRole('heading', { name: 'Issues over time' })).toBeVisible();
  await expect(page.getByTestId('issues-chart').locator('svg').first()).toBeVisible();
  const chartBox = await page.getByTestId('issues-chart').boundingBox();
  expect(Math.round(chartBox!.height)).toBe(250);
  await expect(page.getByRole('heading', { name: 'Breakdown of issues' })).toBeVisible();
  const allCount = Number((await page.getByTestId('tab-all').textContent())!.replace(/\D/g, ''));
  await expect(page.getByTestId('row-range')).toContainText(`of ${allCount.toLocaleString('en-GB')} rows`);
  const addedText = (await page.getByTestId('tab-added').textContent())!;
  const added = Number(addedText.replace(/\D/g, ''));
  await page.getByTestId('tab-added').click();
  await expect.poll(() => query(page).get('tab')).toBe('added');
  if (added === 0) await expect(page.getByText('No results found')).toBeVisible();
  else await expect(page.getByTestId('row-range')).toContainText(`of ${added.toLocaleString('en-GB')} rows`);
});

test('sort cycle per column: none, desc, asc, none — sent to the server', async ({ page }) => {
  await openBusyReport(page);
  const header = page
    .getByTestId('report-table')
    .locator('th[data-column]:not([data-column=checked])')
    .filter({ has: page.locator('button') })
    .first();
  const column = (await header.getAttribute('data-column'))!;
  const orders: unknown[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/report/get-rows'))
      orders.push((request.postDataJSON() as { orderBy: unknown }).orderBy);
  });
  await expect(header).toHaveAttribute('aria-sort', 'none');
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  expect(query(page).get('sort')).toBe(`${column}.desc`);
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  expect(query(page).get('sort')).toBe(`${column}.asc`);
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'none');
  expect(query(page).get('sort')).toBeNull();
  await expect.poll(() => orders.length).toBeGreaterThanOrEqual(3);
  expect(orders.slice(-3)).toEqual([[{ id: column, desc: true }], [{ id: column, desc: false }], []]);
});

test('pagination buttons, the page input and page sizes', async ({ page }) => {
  await openBusyReport(page, 45);
  const pages = Number((await pageLabel(page).textContent())!.match(/of ([\d,]+)/)![1]!.replace(/,/g, ''));
  expect(pages).toBeGreaterThanOrEqual(5);
  await expect(bodyRows(page)).toHaveCount(10);
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(pageLabel(page)).toHaveText(`Page 2 of ${pages}`);
  expect(query(page).get('page')).toBe('2');
  await page.getByRole('button', { name: 'Last page' }).click();
  await expect(pageLabel(page)).toHaveText(`Page ${pages} of ${pages}`);
  await expect(page.getByRole('button', { name: 'Next page' })).toBeDisabled();
  await page.getByRole('button', { name: 'Previous page' }).click();
  await expect(pageLabel(page)).toHaveText(`Page ${pages - 1} of ${pages}`);
  await page.getByRole('button', { name: 'First page' }).click();
  await expect(pageLabel(page)).toHaveText(`Page 1 of ${pages}`);
  await expect(page.getByRole('button', { name: 'Previous page' })).toBeDisabled();

  const input = page.getByRole('textbox', { name: 'Go to page' });
  await input.fill('3');
  await input.press('Enter');
  await expect(pageLabel(page)).toHaveText(`Page 3 of ${pages}`);
  await input.fill('');
  await input.press('Enter');
  await expect(pageLabel(page)).toHaveText(`Page 1 of ${pages}`);

  await page.getByRole('combobox', { name: 'Rows per page' }).click();
  await expect(page.getByRole('option')).toHaveText([
    '10 per page',
    '20 per page',
    '30 per page',
    '40 per page',
    '50 per page',
    '100 per page',
  ]);
  await page.getByRole('option', { name: '20 per page' }).click();
  await expect.poll(() => query(page).get('size')).toBe('20');
  await expect(bodyRows(page)).toHaveCount(20);
  await page.reload();
  await expect(bodyRows(page)).toHaveCount(20);
});

test('the URL filter narrows the rows; no match shows the empty state', async ({ page }) => {
  await openBusyReport(page);
  await page.getByRole('textbox', { name: 'URLs containing' }).fill('zz-no-such-url-zz');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect.poll(() => query(page).get('filter')).toBe('zz-no-such-url-zz');
  await expect(page.getByText('No results found')).toBeVisible();
  await expect(pageLabel(page)).toHaveText('Page 1 of 1');
  // On a narrow screen the message stays inside the visible part of a table wider than its card.
  await page.setViewportSize({ width: 768, height: 1024 });
  const scroller = (await page.getByTestId('report-table').boundingBox())!;
  const table = await page.getByRole('table', { name: 'Report rows' }).evaluate((t) => t.scrollWidth);
  expect(table).toBeGreaterThan(scroller.width);
  const message = (await page.getByTestId('no-results').boundingBox())!;
  expect(message.x).toBeGreaterThanOrEqual(scroller.x);
  expect(message.x + message.width).toBeLessThanOrEqual(scroller.x + scroller.width);
});

test('a failed rows request empties the table and shows Error!', async ({ page }) => {
  await openBusyReport(page);
  await page.route('**/report/get-rows', (route) => route.fulfill({ status: 500, json: { error: 'boom' } }));
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(pageLabel(page)).toHaveText('Error!');
  await expect(bodyRows(page)).toHaveCount(0);
  await page.unroute('**/report/get-rows');
  await page.getByRole('button', { name: 'Refresh the table' }).click();
  await expect(pageLabel(page)).toHaveText(/^Page 2 of/);
});

test('the column dialog hides, shows and reorders columns, and remembers them', async ({ page }) => {
  await openBusyReport(page);
  const headers = () =>
    page
      .getByTestId('report-table')
      .locator('th[data-column]')
      .evaluateAll((ths) => ths.map((th) => th.getAttribute('data-column')).filter((id) => !id?.startsWith('ai_')));
  const before = await headers();
  await page.getByRole('button', { name: 'Columns' }).click();
  const dialog = page.getByRole('dialog', { name: 'Columns' });
  await expect(dialog.getByRole('checkbox', { name: 'Toggle All' })).toBeChecked();
  const second = before[1]!;
  const boxes = dialog.getByRole('checkbox');
  await boxes.nth(2).uncheck();
  await expect.poll(headers).toEqual(before.filter((id) => id !== second));
  await dialog.getByRole('checkbox', { name: 'Toggle All' }).click();
  await expect.poll(headers).toEqual(before);
  await dialog
    .getByRole('button', { name: /Move .* right/ })
    .first()
    .click();
  const moved = [before[1], before[0], ...before.slice(2)];
  await expect.poll(headers).toEqual(moved);
  await dialog.getByRole('button', { name: 'Close the column dialog' }).click();
  await page.reload();
  await expect.poll(headers).toEqual(moved);
  await page.getByRole('button', { name: 'Columns' }).click();
  await dialog.getByRole('button', { name: 'Reset layout' }).click();
  await expect.poll(headers).toEqual(before);
});

test('CSV download: BOM, header of the visible columns, file name', async ({ page }) => {
  await openBusyReport(page);
  const title = (await page.getByTestId('report-title').textContent())!.split(': ')[1]!;
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(
    // The title, the crawl's label (date, time when a day holds several, number), unix seconds.
    new RegExp(
      `^${title.toLowerCase().replace(/\s+/g, '_')}_\\d{1,2}_[a-z]{3}_\\d{4}(_\\d{4})?_crawl_\\d+(_partial)?_\\d{10}\\.csv$`,
    ),
  );
  const text = fs.readFileSync(await download.path(), 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const [header, ...lines] = text.slice(1).trimEnd().split('\r\n');
  const titles = await page
    .getByTestId('report-table')
    .locator('th[data-column]:not([data-column=checked])')
    .evaluateAll((ths) => ths.map((th) => th.getAttribute('data-column')).filter((id) => !id?.startsWith('ai_')));
  expect(header!.split(',').length).toBe(titles.length);
  const total = Number((await page.getByTestId('tab-all').textContent())!.replace(/\D/g, ''));
  expect(lines.length).toBe(total);
});

test('the issues chart marks the key dates between its first and last crawl', async ({ page }) => {
  await openBusyReport(page);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download data' }).click();
  const csv = fs.readFileSync(await (await downloading).path(), 'utf8');
  const days = csv
    .slice(1)
    .trimEnd()
    .split('\r\n')
    .slice(1)
    .map((line) => line.split(',')[0]!);
  expect(days.length).toBeGreaterThan(1);
  const [first, last] = [days[0]!, days.at(-1)!];
  const labels = page.getByTestId('issues-chart').locator('g[aria-description="key dates"] text');
  const inside = keyDates.filter((k) => k.date > first && k.date < last).map((k) => k.label);
  expect(inside.length, `key dates between ${first} and ${last}`).toBeGreaterThan(0);
  await expect(labels.first()).toBeVisible();
  const drawn = await labels.allTextContents();
  for (const label of inside) expect(drawn).toContain(label);
  const outside = new Set(keyDates.filter((k) => k.date < first || k.date > last).map((k) => k.label));
  for (const label of drawn) expect(outside.has(label) && !inside.includes(label), label).toBe(false);
});

test('dragging a resize handle widens the column, for this user and report only, across visits', async ({ page }) => {
  const id = await openBusyReport(page);
  const table = page.getByTestId('report-table');
  const column = (await table
    .locator('th[data-column]:not([data-column=checked])')
    .first()
    .getAttribute('data-column'))!;
  const header = table.locator(`th[data-column="${column}"]`);
  const widthOf = async () => Math.round((await header.boundingBox())!.width);
  const before = await widthOf();
  const handle = page.getByTestId(`resize-${column}`);
  await handle.scrollIntoViewIfNeeded();
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect.poll(widthOf).toBe(before + 120);
  const cell = table.locator(`tbody tr[data-index="0"] td[data-column="${column}"]`);
  expect(Math.round((await cell.boundingBox())!.width)).toBe(before + 120);

  await page.reload();
  await expect(pageLabel(page)).toHaveText(/^Page 1 of/, { timeout: 20_000 });
  await expect.poll(widthOf).toBe(before + 120);

  // Another report with the same column keeps its own width.
  const other = id === 'crawl/all' ? 'internal/all' : 'crawl/all';
  await page.goto(`${SECTION}/${other}?website=${websites.northwind.id}&crawl=${query(page).get('crawl')}`);
  await expect(pageLabel(page)).toHaveText(/^Page 1 of/, { timeout: 20_000 });
  await expect(header).toBeVisible();
  expect(await widthOf()).toBe(before);

  // Another user in the same browser (the client's session cookie, the same local storage) keeps their own width.
  const client = JSON.parse(fs.readFileSync(authFile('client'), 'utf8')) as { cookies: Cookie[] };
  await page.context().clearCookies();
  await page.context().addCookies(client.cookies);
  await page.goto(`${SECTION}/${id}?website=${websites.northwind.id}`);
  await expect(page.getByRole('button', { name: /^User menu for client@/ })).toBeVisible();
  await expect(page.getByTestId('row-range')).toHaveText(/^1–\d+ of [\d,]+ rows$/, { timeout: 20_000 });
  expect(await widthOf()).toBe(before);
});

test('the URL column stays in view while a wide table scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 768, height: 900 });
  await openBusyReport(page);
  const table = page.getByTestId('report-table');
  const url = table.locator('tbody tr[data-index="0"] td[data-column=url]');
  const urlHeader = table.locator('th[data-column=url]');
  const next = table.locator('tbody tr[data-index="0"] td[data-column=url] + td');
  const xOf = async (locator: typeof url) => Math.round((await locator.boundingBox())!.x);
  const [urlX, headerX, nextX] = [await xOf(url), await xOf(urlHeader), await xOf(next)];
  const scrolled = await table.evaluate((el) => {
    el.scrollLeft = el.scrollWidth;
    return el.scrollLeft;
  });
  expect(scrolled, 'the table is wider than the page at 768 px').toBeGreaterThan(100);
  await expect.poll(() => xOf(next)).toBe(nextX - scrolled);
  expect(await xOf(url)).toBe(urlX);
  expect(await xOf(urlHeader)).toBe(headerX);
  // The frozen cell is drawn over the cells that scroll beneath it.
  await url.scrollIntoViewIfNeeded();
  expect(await table.evaluate((el) => el.scrollLeft)).toBe(scrolled);
  const box = (await url.boundingBox())!;
  const onTop = await page.evaluate(
    ([x, y]) => document.elementFromPoint(x!, y!)?.closest('td')?.getAttribute('data-column'),
    [box.x + box.width / 2, box.y + box.height / 2],
  );
  expect(onTop).toBe('url');
});

test('a duplicate set row expands into the other members of its set', async ({ page }) => {
  await open(page, `${SECTION}/content/duplicate?website=${websites.northwind.id}`);
  await expect(pageLabel(page)).toHaveText(/^Page 1 of/, { timeout: 20_000 });
  // The demo's newest Northwind crawl has duplicate sets (fixtures/golden/report-counts.json).
  // Pinned by index: once expanded, the row's button is named 'Hide …' and a filter on 'Show …' would move on.
  const index = await bodyRows(page)
    .filter({ has: page.getByRole('button', { name: 'Show the duplicate set members' }) })
    .first()
    .getAttribute('data-index');
  const first = bodyRows(page).and(page.locator(`[data-index="${index}"]`));
  const own = (await first.locator('td[data-column=url] a').first().getAttribute('href'))!;
  await first.getByRole('button', { name: 'Show the duplicate set members' }).click();
  const detail = first.getByRole('group', { name: 'Duplicate set members' });
  await expect(detail).toContainText('Duplicate set members');
  const members = await detail.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
  expect(members.length).toBeGreaterThan(0);
  expect(members).not.toContain(own);
  for (const member of members) expect(member).toMatch(/^https?:\/\//);

  // A set is the pages naming the same primary URL plus the primary itself (which the report leaves out).
  const primary = await first.locator('td[data-column=duplicate_body_primary_url] a').first().getAttribute('href');
  expect(members).toContain(primary);
});

test('a link row expands into the pages the link is found on', async ({ page }) => {
  await open(page, `${SECTION}/links/internal-http?website=${websites.northwind.id}`);
  await expect(pageLabel(page)).toHaveText(/^Page 1 of/, { timeout: 20_000 });
  const show = page.getByRole('button', { name: 'Show the source pages' });
  await expect(show.first()).toBeVisible();
  const index = await bodyRows(page).filter({ has: show }).first().getAttribute('data-index');
  const row = bodyRows(page).and(page.locator(`[data-index="${index}"]`));
  const target = (await row.locator('td[data-column=url_to] a').first().getAttribute('href'))!;
  await row.getByRole('button', { name: 'Show the source pages' }).click();
  const detail = row.getByRole('group', { name: 'Source pages' });
  await expect(detail).toContainText('Source pages');
  const sources = await detail.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
  expect(sources.length).toBeGreaterThan(0);
  const host = new URL(target).hostname;
  for (const source of sources) {
    expect(source).not.toBe(target);
    expect(new URL(source).hostname, 'an internal link is found on pages of the same site').toBe(host);
  }
  await row.getByRole('button', { name: 'Hide the source pages' }).click();
  await expect(row.getByRole('group', { name: 'Source pages' })).toHaveCount(0);
});

test('a redirect chain row expands into its hops', async ({ page }) => {
  await open(page, `${SECTION}/redirects/chain?website=${websites.northwind.id}`);
  await expect(pageLabel(page)).toHaveText(/^Page 1 of/, { timeout: 20_000 });
  // The demo's newest Northwind crawl has redirect chains (fixtures/golden/report-counts.json).
  const expand = page.getByRole('button', { name: 'Show the redirect hops' }).first();
  await expect(expand).toBeVisible();
  await expand.click();
  await expect(page.getByText('Redirect hops').first()).toBeVisible();
  await page.getByRole('button', { name: 'Hide the redirect hops' }).first().click();
  await expect(page.getByText('Redirect hops')).toHaveCount(0);
});

test('checklist: check a row, confirm it in the dialog; it hides unless Show Checked Items is on', async ({ page }) => {
  await openBusyReport(page);
  const table = page.getByTestId('report-table');
  await expect(table.locator('th[data-column=checked]')).toHaveCount(1);
  const box = table.getByRole('checkbox').first();
  const label = (await box.getAttribute('aria-label'))!;
  await box.check();
  await page.getByRole('button', { name: 'Save checklist (1)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save the checklist' });
  await expect(dialog).toContainText('Mark 1 row as checked');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Checklist saved')).toBeVisible();
  await expect(table.getByRole('checkbox', { name: label, exact: true })).toHaveCount(0);
  // The filters sit at the top of the page, under the fixed header once the page is scrolled.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('switch', { name: 'Show Checked Items' }).click();
  await expect.poll(() => query(page).get('checked')).toBe('1');
  await expect(table.getByRole('checkbox', { name: label, exact: true })).toBeChecked();

  // Not on the Removed tab, and not on an older crawl.
  await page.getByTestId('tab-removed').click();
  await expect(table.locator('th[data-column=checked]')).toHaveCount(0);
  await page.getByTestId('tab-all').click();
  await expect(table.locator('th[data-column=checked]')).toHaveCount(1);
  await page.getByRole('combobox', { name: 'Current Crawl', exact: true }).click();
  await page.getByRole('option').nth(1).click();
  await expect(page.getByTestId('page-label')).toHaveText(/^Page 1 of/);
  await expect(table.locator('th[data-column=checked]')).toHaveCount(0);
});
