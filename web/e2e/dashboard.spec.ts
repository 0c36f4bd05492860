import { expect, test } from '@playwright/test';
import {
  SECTION,
  api,
  authFile,
  choose,
  crawlsOf,
  logins,
  open,
  query,
  selectedValue,
  sidebar,
  waitForOverview,
  websites,
} from './helpers.ts';

const dayMonthYear = (iso: string): string =>
  new Date(`${iso.slice(0, 10)}T12:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });

test.describe('sign-in and session', () => {
  test('a wrong password is refused, the right one opens the overview, sign out returns to the form', async ({
    page,
  }) => {
    await page.goto(SECTION);
    await page.getByLabel('Email address').fill(logins.staff.email);
    await page.locator('input[name=password]').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await page.locator('input[name=password]').fill(logins.staff.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitForOverview(page);
    await page.getByTestId('user-menu').click();
    await expect(page.getByText(logins.staff.email)).toBeVisible();
    await page.getByTestId('logout').click();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  });

  test('a deep link opens after signing in and survives a reload', async ({ page }) => {
    await page.goto(`${SECTION}/links/internal-broken?website=${websites.northwind.id}`);
    await page.getByLabel('Email address').fill(logins.staff.email);
    await page.locator('input[name=password]').fill(logins.staff.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('report-title')).toHaveText('Links: Broken internal links');
    await page.reload();
    await expect(page.getByTestId('report-title')).toHaveText('Links: Broken internal links');
    expect(query(page).get('website')).toBe(websites.northwind.id);
    expect(query(page).get('crawl')).toMatch(/^\d+$/);
  });
});

test.describe('website and crawl selection', () => {
  test.use({ storageState: authFile('staff') });

  test('changing website resets the crawl state', async ({ page }) => {
    await open(page, `${SECTION}?website=${websites.northwind.id}`);
    await waitForOverview(page);
    const crawls = await crawlsOf(page, websites.northwind.id);
    const older = crawls[crawls.length - 1]!;
    await choose(page, 'Current Crawl', older.label);
    await expect.poll(() => query(page).get('crawl')).toBe(String(older.crawlId));

    await choose(page, 'Website', websites.alpine.name);
    await expect.poll(() => query(page).get('website')).toBe(websites.alpine.id);
    await waitForOverview(page);
    const alpine = await crawlsOf(page, websites.alpine.id);
    expect(query(page).get('crawl')).toBe(String(alpine[0]!.crawlId));
    expect(await selectedValue(page, 'Current Crawl')).toBe(alpine[0]!.label);
  });

  test('changing the crawl sets the comparison to the next older crawl and the range to its data dates', async ({
    page,
  }) => {
    await open(page, `${SECTION}?website=${websites.northwind.id}`);
    await waitForOverview(page);
    const crawls = await crawlsOf(page, websites.northwind.id);
    expect(crawls.length).toBeGreaterThanOrEqual(3);

    // The dropdown lists crawls newest first, labelled by crawl label.
    await page.getByRole('combobox', { name: 'Current Crawl', exact: true }).click();
    await expect(page.getByRole('option')).toContainText(crawls.map((c) => c.label));
    await page.keyboard.press('Escape');

    // Pick a comparison other than the default, then change the crawl: the comparison resets.
    await choose(page, 'Compared with', crawls[crawls.length - 1]!.label);
    await expect.poll(() => query(page).get('compare')).toBe(String(crawls[crawls.length - 1]!.crawlId));
    const target = crawls[1]!;
    await choose(page, 'Current Crawl', target.label);
    await expect.poll(() => query(page).get('crawl')).toBe(String(target.crawlId));
    expect(query(page).get('compare')).toBeNull();
    expect(await selectedValue(page, 'Compared with')).toBe(crawls[2]!.label);
    await expect(page.getByTestId('data-range')).toHaveText(
      `${dayMonthYear(target.dataStart)} – ${dayMonthYear(target.dataEnd)}`,
    );

    // The oldest crawl has no comparison.
    await choose(page, 'Current Crawl', crawls[crawls.length - 1]!.label);
    await expect(page.getByRole('combobox', { name: 'Compared with', exact: true })).toBeDisabled();
  });

  test('back and forward move between pages and selections', async ({ page }) => {
    await open(page, `${SECTION}?website=${websites.northwind.id}`);
    await waitForOverview(page);
    await sidebar(page)
      .getByRole('button', { name: /Critical/i })
      .click();
    await sidebar(page)
      .getByRole('link', { name: /Broken internal links/ })
      .click();
    await expect(page.getByTestId('report-title')).toHaveText('Links: Broken internal links');
    await page.goBack();
    await waitForOverview(page);
    await page.goForward();
    await expect(page.getByTestId('report-title')).toHaveText('Links: Broken internal links');
  });
});

test.describe('sidebar', () => {
  test.use({ storageState: authFile('staff') });

  test('severity view: four groups, the current report’s group opens by itself', async ({ page }) => {
    await open(page, `${SECTION}/content/duplicate?website=${websites.northwind.id}`);
    const nav = sidebar(page);
    await expect(nav.getByTestId('sidebar-severity')).toBeVisible();
    for (const name of ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'])
      await expect(nav.getByTestId(`group-${name}`)).toBeVisible();
    await expect(nav.getByTestId('group-CRITICAL')).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.getByTestId('group-HIGH')).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.locator('a[aria-current=page]')).toHaveAttribute('data-report', 'content/duplicate');

    // Moving to a report of another severity opens that group too.
    await nav.getByTestId('group-LOW').click();
    await nav.locator('a[data-report="content/missing-h1"]').click();
    await expect(page.getByTestId('report-title')).toHaveText('Content: Missing H1');
    await expect(nav.getByTestId('group-LOW')).toHaveAttribute('aria-expanded', 'true');
    // Reference (NONE) reports are listed only by category.
    await expect(nav.locator('[data-indicator=locked]')).toHaveCount(0);
  });

  test('category view: categories by name, reports by rank then rows, indicators per report', async ({ page }) => {
    await open(page, `${SECTION}/content/duplicate?website=${websites.northwind.id}`);
    const nav = sidebar(page);
    await nav.getByText('Category', { exact: true }).click();
    await expect(nav.getByTestId('sidebar-category')).toBeVisible();
    await expect(nav.getByTestId('group-content')).toHaveAttribute('aria-expanded', 'true');
    const labels = await nav.locator('[data-testid^=group-] > span:nth-child(3)').allTextContents();
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'en-GB')));
    expect(labels).not.toContain('Hreflang');

    for (const group of await nav.locator('[data-testid^=group-]').all()) {
      if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
    }
    const overview = await api<{
      severityMap: Record<string, { reports: { reportId: string; ems_rank: number; ems_lumar_row_count: number }[] }>;
    }>(page, '/api/technical-health-check/overview/get-overview', {
      websiteId: websites.northwind.id,
      currentId: Number(query(page).get('crawl')),
      refresh: false,
    });
    const metric = new Map(
      Object.values(overview.severityMap).flatMap((s) => s.reports.map((r) => [r.reportId, r] as const)),
    );
    for (const list of await nav.locator('ul').all()) {
      const ids = await list
        .locator('a[data-report]')
        .evaluateAll((links) => links.map((a) => a.getAttribute('data-report')!));
      const keys = ids.map((id) => [metric.get(id)?.ems_rank ?? 0, metric.get(id)?.ems_lumar_row_count ?? 0] as const);
      for (let i = 1; i < keys.length; i++) {
        const [rankA, rowsA] = keys[i - 1]!;
        const [rankB, rowsB] = keys[i]!;
        expect(rankA > rankB || (rankA === rankB && rowsA >= rowsB), `${ids[i - 1]} before ${ids[i]}`).toBe(true);
      }
      for (const id of ids) {
        const m = metric.get(id);
        const indicator = list.locator(`a[data-report="${id}"] [data-indicator]`);
        const kind = await indicator.first().getAttribute('data-indicator');
        const severity = Object.entries(overview.severityMap).find(([, s]) =>
          s.reports.some((r) => r.reportId === id),
        )?.[0];
        if (severity === 'NONE') expect(kind, id).toBe('locked');
        else if ((m?.ems_rank ?? 0) === 0 && (m?.ems_lumar_row_count ?? 0) === 0) expect(kind, id).toBe('clean');
        else expect(kind, id).toBe('rank');
      }
    }
  });

  test('a spinner shows while the overview loads', async ({ page }) => {
    await open(page, `${SECTION}?website=${websites.northwind.id}`);
    await waitForOverview(page);
    // The overview's answer is held until the spinner has been seen, however slow the machine, then let go.
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/overview/get-overview', async (route) => {
      await held;
      await route.continue();
    });
    await choose(page, 'Website', websites.alpine.name);
    await sidebar(page).getByTestId('group-CRITICAL').click();
    await expect(sidebar(page).locator('[data-indicator=loading]').first()).toBeVisible();
    release();
    await expect(sidebar(page).locator('[data-indicator=loading]')).toHaveCount(0, { timeout: 15_000 });
  });

  test('hreflang reports show only for websites with hreflang', async ({ page }) => {
    await open(page, `${SECTION}/hreflang/missing?website=${websites.northwind.id}`);
    await expect(page.getByText('report could not be found.')).toBeVisible();
    await page.goto(`${SECTION}/hreflang/missing?website=${websites.alpine.id}`);
    await expect(page.getByTestId('report-title')).toHaveText(/^Hreflang: /);
    await sidebar(page).getByText('Category', { exact: true }).click();
    await expect(sidebar(page).getByTestId('group-hreflang')).toBeVisible();
  });
});

test.describe('routes', () => {
  test.use({ storageState: authFile('staff') });

  test('an unknown report says it could not be found', async ({ page }) => {
    await open(page, `${SECTION}/links/no-such-report?website=${websites.northwind.id}`);
    await expect(page.getByText('report could not be found.')).toBeVisible();
    await page.goto(`${SECTION}/images/large?website=${websites.northwind.id}`);
    await expect(page.getByText('report could not be found.')).toBeVisible();
  });

  test('the overview links every report of the severity map to its page', async ({ page }) => {
    await open(page, `${SECTION}?website=${websites.northwind.id}`);
    await waitForOverview(page);
    const critical = page.locator('[data-severity=CRITICAL]');
    await expect(critical.getByRole('heading', { name: 'Critical' })).toBeVisible();
    const first = critical.locator('tbody tr').first();
    const id = await first.getAttribute('data-report');
    await first.getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`${SECTION}/${id}\\?`));
    expect(query(page).get('website')).toBe(websites.northwind.id);
  });
});
