/**
 * Reading the table and the chart: URLs through the one formatter (own pages as paths, others in full, cut at the
 * end, the full URL on hover and when copied), frozen columns that cover what scrolls under them, 'Issues over
 * time' ticked at the crawl dates, and sidebar and overview report names with their counts in view.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { SECTION, authFile, crawlsOf, open, sidebar, waitForOverview, websites } from './helpers.ts';
import { crawlTickText } from '../../catalog/crawl-label.ts';

test.use({ storageState: authFile('staff') });

const OWN_ORIGIN = 'https://www.northwind-outfitters.co.uk';

async function openReport(page: Page, report: string): Promise<void> {
  await open(page, `${SECTION}/${report}?website=${websites.northwind.id}`);
  await expect(page.getByTestId('row-range')).toHaveText(/^1–\d+ of [\d,]+ rows$/, { timeout: 20_000 });
}

/** Text, tooltip, link and how the text is cut, of every URL element in `scope`. */
function urlsIn(scope: Locator) {
  return scope.locator('[data-url]').evaluateAll((elements) =>
    elements.map((e) => {
      const style = getComputedStyle(e);
      return {
        text: e.textContent ?? '',
        title: e.getAttribute('title'),
        href: e.getAttribute('href'),
        full: e.getAttribute('data-url') ?? '',
        column: e.closest('[data-column]')?.getAttribute('data-column') ?? null,
        cut: `${style.whiteSpace} ${style.textOverflow} ${style.overflow}`,
      };
    }),
  );
}

test('URLs: own pages as paths, other URLs in full, cut at the end, the full URL on hover and in the copy', async ({
  page,
  context,
}) => {
  await openReport(page, 'links/internal-http');
  // The host is named once, in the page header; the table's own pages show as paths.
  await expect(page.locator('main header').getByText('northwind-outfitters.co.uk', { exact: true })).toBeVisible();
  const table = page.getByTestId('report-table');
  const cells = await urlsIn(table);
  const from = cells.filter((c) => c.column === 'primary_url_from');
  const to = cells.filter((c) => c.column === 'url_to');
  expect(from.length).toBeGreaterThan(0);
  expect(to.length).toBe(from.length);
  for (const cell of from) {
    expect(cell.full.startsWith(`${OWN_ORIGIN}/`), cell.full).toBe(true);
    expect(cell.text).toBe(cell.full.slice(OWN_ORIGIN.length));
    expect(cell.title).toBe(cell.full);
    expect(cell.href).toBe(cell.full);
  }
  // The report's subject, links to the site's own pages over http://, show their path behind an 'http' badge.
  const insecureOrigin = OWN_ORIGIN.replace('https://', 'http://');
  for (const cell of to) {
    expect(cell.full.startsWith(`${insecureOrigin}/`), cell.full).toBe(true);
    expect(cell.text).toBe(cell.full.slice(insecureOrigin.length));
    expect(cell.title).toBe(cell.full);
  }
  await expect(table.locator('[data-column=url_to]').getByTitle('Plain http://, not https://')).toHaveCount(to.length);
  for (const cell of cells) {
    expect(cell.text).not.toContain('…');
    expect(cell.cut).toBe('nowrap ellipsis hidden');
  }

  // The sub-row lists its source pages through the same formatter.
  await table.getByRole('button', { name: 'Show the source pages' }).first().click();
  const sources = await urlsIn(table.getByRole('group', { name: 'Source pages' }));
  expect(sources.length).toBeGreaterThan(0);
  for (const source of sources) {
    expect(source.text).toBe(source.full.slice(OWN_ORIGIN.length));
    expect(source.href).toBe(source.full);
  }

  // Copying what a cell shows puts the full URL on the clipboard.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const first = table.locator('[data-column=primary_url_from] [data-url]').first();
  await first.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    window.getSelection()!.removeAllRanges();
    window.getSelection()!.addRange(range);
  });
  await page.keyboard.press('Control+C');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(from[0]!.full);
});

for (const width of [1280, 768]) {
  test(`frozen columns at ${width}px are opaque and cover every pixel of what scrolls sideways under them`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await frozenColumnsCoverWhatScrolls(page);
  });
}

async function frozenColumnsCoverWhatScrolls(page: Page): Promise<void> {
  await openReport(page, 'links/internal-http');
  const scroller = page.getByTestId('report-table');
  await scroller.scrollIntoViewIfNeeded();
  const report = await scroller.evaluate(async (element) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const pinned = [...element.querySelectorAll<HTMLElement>('thead tr:last-child th[data-pinned]')];
    const box = element.getBoundingClientRect();
    const frozenRight = Math.max(...pinned.map((th) => th.getBoundingClientRect().right));
    const headerBottom = element.querySelector('thead')!.getBoundingClientRect().bottom;
    const max = element.scrollWidth - element.clientWidth;
    const leaks: string[] = [];
    const transparent: string[] = [];
    for (const left of [5, 42, 163, 240, max]) {
      element.scrollLeft = Math.min(left, max);
      await frame();
      const headers = [...element.querySelectorAll('thead tr')];
      const rows = [...element.querySelectorAll('tbody tr[data-index]')]
        .filter((row) => {
          const r = row.getBoundingClientRect();
          return r.top >= headerBottom && r.bottom <= box.bottom;
        })
        .slice(0, 4);
      for (const line of [...headers, ...rows]) {
        const r = line.getBoundingClientRect();
        for (const y of [r.top + 1.5, (r.top + r.bottom) / 2, r.bottom - 1.5]) {
          for (let x = Math.ceil(box.left) + 0.5; x < frozenRight; x += 1) {
            const hit = document.elementFromPoint(x, y);
            const cell = hit?.closest('td, th');
            if (!cell?.hasAttribute('data-pinned')) {
              leaks.push(
                `scrollLeft ${left}: (${x}, ${Math.round(y)}) shows ${cell?.getAttribute('data-column') ?? hit?.tagName}`,
              );
            }
          }
        }
        for (const cell of line.querySelectorAll<HTMLElement>('[data-pinned]')) {
          const colour = getComputedStyle(cell).backgroundColor;
          if (!/^rgb\(/.test(colour)) transparent.push(`${cell.getAttribute('data-column')}: ${colour}`);
        }
      }
    }
    return { pinned: pinned.length, max, leaks: leaks.slice(0, 12), leakCount: leaks.length, transparent };
  });
  expect(report.pinned, 'the checklist and URL columns are frozen').toBe(2);
  expect(report.max, 'the table is wider than its card').toBeGreaterThan(300);
  expect(report.leaks, `${report.leakCount} pixels of scrolled cells show in the frozen area`).toEqual([]);
  expect(report.transparent).toEqual([]);
}

/** The texts of the chart's x-axis tick labels and their centres, left to right. */
async function xTicks(page: Page) {
  const labels = page.getByTestId('issues-chart').locator('svg g[aria-label="x-axis tick label"] text');
  const found = await labels.evaluateAll((texts) =>
    texts.map((t) => {
      const r = t.getBoundingClientRect();
      return { text: t.textContent ?? '', left: r.left, right: r.right, centre: (r.left + r.right) / 2 };
    }),
  );
  return found.sort((a, b) => a.centre - b.centre);
}

test('Issues over time: ticks at the crawls, labelled as the dropdown labels them, each point on its tick, thinned when crowded', async ({
  page,
}) => {
  await open(page, `${SECTION}?website=${websites.northwind.id}`);
  await waitForOverview(page);
  const crawls = await crawlsOf(page, websites.northwind.id);
  // Bodies are read as each answer arrives: one read after a later navigation is no longer available.
  type Summary = { trends: { crawlId: number; crawledAt: string }[] };
  const summaries: Promise<Summary | null>[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('/report/get-summary') && r.ok())
      summaries.push((r.json() as Promise<Summary>).catch(() => null));
  });
  await page.goto(`${SECTION}/links/internal-broken?website=${websites.northwind.id}`);
  await expect.poll(async () => (await Promise.all(summaries)).filter(Boolean).length).toBeGreaterThan(0);
  const { trends } = (await Promise.all(summaries)).filter((s): s is Summary => s !== null).at(-1)!;
  const expected = [...trends]
    .sort((a, b) => Date.parse(a.crawledAt) - Date.parse(b.crawledAt))
    .map((t) => crawlTickText(crawls.find((c) => c.crawlId === t.crawlId)!.label).replace('\n', ''));
  expect(expected.length).toBeGreaterThan(2);
  // Each tick is the crawl's label on two lines (a <text> of two <tspan>s, read here as one string).
  expect(expected.every((d) => /^\d{1,2} [A-Z][a-z]{2} \d{4}crawl \d+$/.test(d))).toBe(true);

  const chart = page.getByTestId('issues-chart');
  await expect(chart.locator('svg').first()).toBeVisible();
  await expect.poll(async () => (await xTicks(page)).map((t) => t.text)).toEqual(expected);
  const dots = await chart.locator('svg g[aria-label="dot"] circle').evaluateAll((circles) =>
    circles.map((c) => {
      const r = c.getBoundingClientRect();
      return (r.left + r.right) / 2;
    }),
  );
  const ticks = await xTicks(page);
  expect(dots.sort((a, b) => a - b).map((x, i) => Math.abs(x - ticks[i]!.centre) < 1.5)).toEqual(
    expected.map(() => true),
  );

  // Narrow: fewer labels, all of them crawl dates, the newest kept, none overlapping.
  await page.setViewportSize({ width: 420, height: 900 });
  // Polled as a whole: the chart redraws as its width settles, and labels read mid-redraw measure 0 × 0.
  await expect
    .poll(async () => {
      const thinned = await xTicks(page);
      return {
        isFewer: thinned.length > 0 && thinned.length < expected.length,
        areCrawlDates: thinned.every((t) => expected.includes(t.text)),
        newest: thinned.at(-1)?.text,
        overlaps: thinned
          .slice(1)
          .filter((t, i) => t.left <= thinned[i]!.right)
          .map((t) => t.text),
      };
    })
    .toEqual({ isFewer: true, areCrawlDates: true, newest: expected.at(-1), overlaps: [] });
});

for (const width of [1280, 768]) {
  test(`sidebar and overview cards at ${width}px: full names on hover, counts always in view`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await open(page, `${SECTION}?website=${websites.northwind.id}`);
    await waitForOverview(page);

    // Overview cards: every report name links with its full title, and its row count shows inside the card.
    const cards = page.locator('section[data-severity]');
    for (const row of await cards.locator('tbody tr[data-report]').all()) {
      const link = row.getByRole('link');
      expect(await link.getAttribute('title')).toBe(await link.textContent());
      const count = row.locator('td').nth(2);
      await expect(count).toHaveText(/^[\d,]+$/);
      expect(await count.evaluate((td) => td.scrollWidth <= td.clientWidth)).toBe(true);
    }

    const burger = page.getByRole('button', { name: 'Open the report menu' });
    if (await burger.isVisible()) await burger.click();
    const nav = sidebar(page);
    await nav.getByText('Severity', { exact: true }).click();
    for (const group of ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW']) await nav.getByTestId(`group-${group}`).click();
    const links = nav.locator('a[data-report]');
    expect(await links.count()).toBeGreaterThan(20);
    const checks = await links.evaluateAll((anchors) =>
      anchors.map((a) => {
        const title = a.querySelector<HTMLElement>('span[class*=reportTitle]')!;
        const count = a.querySelector<HTMLElement>('span[class*=reportCount]');
        const box = a.getBoundingClientRect();
        const countBox = count?.getBoundingClientRect();
        return {
          report: a.getAttribute('data-report'),
          hover: a.getAttribute('title'),
          name: title.textContent,
          nameFits: title.scrollHeight <= title.clientHeight + 1 && title.scrollWidth <= title.clientWidth + 1,
          countInView:
            !count || !countBox ? null : countBox.right <= box.right && count.scrollWidth <= count.clientWidth,
        };
      }),
    );
    for (const check of checks) {
      expect(check.hover, check.report!).toBe(check.name);
      if (check.countInView !== null) expect(check.countInView, check.report!).toBe(true);
    }
    expect(checks.filter((c) => c.countInView !== null).length).toBeGreaterThan(20);
    // Two lines hold the names the old single line cut ('Broken internal lin…', 'Internal links to HTTP U…').
    for (const report of ['links/internal-broken', 'links/internal-http', 'links/external-redirects']) {
      expect(checks.find((c) => c.report === report)?.nameFits, report).toBe(true);
    }
  });
}
