/**
 * The Crawls page, as the demo staff user, against crawls of sites served on 127.0.0.1: configure and start a crawl and
 * see it pending in the Current Crawl dropdown; cancel a slow one; one whose worker is frozen for real (SIGSTOP),
 * shown as stalled and ended within seconds of Cancel; a weekly schedule firing on a second service whose clock starts just before it; and a client, who
 * gets the not-found page and 404 from every crawl-runs call.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startService, type ServiceProcess } from '../../service/test/helpers/service-process.ts';
import {
  SECTION,
  adminCommands,
  authFile,
  crawlsOf,
  crawlsPage,
  expectAccessible,
  logins,
  open,
  openCrawls,
  saveCrawlSettings,
  signIn,
  watchProblems,
  websites,
} from './helpers.ts';
import { startLoopbackSite, type LoopbackSite } from './loopback-site.ts';
import { NEXT_RUN_LOOKS } from '../src/features/crawls/next-run-look.ts';
import { NO_SITEMAP_NOTICE } from '../../catalog/api.ts';

const repoDir = path.resolve(import.meta.dirname, '../..');
const sites = {
  loaded: { id: 'e2e-crawls-loopback', name: 'E2E Loopback Crawl', domain: '127.0.0.1' },
  cancelled: { id: 'e2e-crawls-slow', name: 'E2E Slow Loopback Crawl', domain: '127.0.0.1' },
  frozen: { id: 'e2e-crawls-frozen', name: 'E2E Frozen Loopback Crawl', domain: '127.0.0.1' },
} as const;

/**
 * How long a test that loads a crawl may take. Loading runs at the lowest CPU priority, so on a busy machine it takes
 * minutes: the tests wait for the run to end, whatever its outcome, within this rather than on a time per step.
 */
const LOADING_TEST_MS = 600_000;

/** How many list calls the page has made since this was called. */
function countListCalls(page: Page): () => number {
  let calls = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/crawl-runs/list')) calls++;
  });
  return () => calls;
}

/** Tells the page it is hidden or shown, as switching browser tabs does. */
async function setHidden(page: Page, isHidden: boolean): Promise<void> {
  await page.evaluate((hidden) => {
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (hidden ? 'hidden' : 'visible'),
    });
    document.dispatchEvent(new Event('visibilitychange'));
  }, isHidden);
}

/** The crawl worker of the service under test (other checkouts' tests may run workers too): one at most runs. */
function serviceWorkerPid(): number {
  const worker = path.join(repoDir, 'service/crawl-runs/worker.ts');
  const pids = execFileSync('pgrep', ['-f', worker], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  const ofService = pids.filter((pid) => {
    const parent = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]!;
    // Another group's service may run a crawl at the same time: this service is the one on this group's data.
    const environ = fs.readFileSync(`/proc/${parent}/environ`, 'utf8').split('\0');
    return (
      fs.readFileSync(`/proc/${parent}/cmdline`, 'utf8').includes('service/main.ts') &&
      environ.includes(`DATA_DIR=${process.env.E2E_DATA_DIR}`)
    );
  });
  expect(ofService).toHaveLength(1);
  return ofService[0]!;
}

/** Fails if a shown toast overlaps the control. */
async function expectUncovered(page: Page, control: Locator): Promise<void> {
  const box = await control.boundingBox();
  expect(box).not.toBeNull();
  const toasts = await page.locator('.mantine-Notification-root').all();
  expect(toasts.length).toBeGreaterThan(0);
  for (const toast of toasts) {
    const t = await toast.boundingBox();
    if (!t || !box) continue;
    const overlaps =
      t.x < box.x + box.width && box.x < t.x + t.width && t.y < box.y + box.height && box.y < t.y + t.height;
    expect(overlaps, `a toast at ${JSON.stringify(t)} covers the control at ${JSON.stringify(box)}`).toBe(false);
  }
}

const historyRow = (page: Page) => page.getByTestId('crawl-history').locator('tbody tr').first();

test.describe('as the demo staff user', () => {
  test.use({ storageState: authFile('staff') });
  let site: LoopbackSite;
  let slowSite: LoopbackSite;

  test.beforeAll(async ({ baseURL }) => {
    site = await startLoopbackSite({ pages: 40, delayMs: 150 });
    slowSite = await startLoopbackSite({ pages: 2000, delayMs: 1000 });
    await adminCommands(baseURL!, [
      { command: 'website add', ...sites.loaded },
      { command: 'website add', ...sites.cancelled },
      { command: 'user bind', email: logins.staff.email, websites: [sites.loaded.id, sites.cancelled.id] },
    ]);
  });

  test.afterAll(async () => {
    await site?.close();
    await slowSite?.close();
  });

  test('configure and start a crawl, watch it, and find it pending in the Current Crawl dropdown', async ({ page }) => {
    test.setTimeout(LOADING_TEST_MS);
    const problems = watchProblems(page);
    await open(page, `${SECTION}?website=${sites.loaded.id}`);
    await page.getByTestId('crawls-link').click();
    await expect(page).toHaveURL(new RegExp(`/crawls\\?website=${sites.loaded.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Crawls' })).toBeVisible();
    await expect(page.getByTestId('history-empty')).toBeVisible({ timeout: 20_000 });
    await expectAccessible(page, 'Crawls page');

    const form = page.getByTestId('crawl-settings');
    await form.getByRole('textbox', { name: /^Start URL/ }).fill('not a url');
    await expect(
      form.getByText('Start URL "not a url" is not a URL (it must start with http:// or https://)'),
    ).toBeVisible();
    await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Start now' })).toBeDisabled();
    await expect(page.getByTestId('start-reason')).toHaveText(
      'Save the crawl settings first: a crawl uses the saved settings.',
    );
    await form.getByRole('textbox', { name: /^Start URL/ }).fill(site.url);
    const exclude = form.getByRole('textbox', { name: 'Exclude patterns' });
    await exclude.fill('(a+)\\1');
    await expect(
      form.getByText(
        'Exclude pattern "(a+)\\1" cannot be used: backreferences are not supported (patterns must run in linear time)',
      ),
    ).toBeVisible();
    await exclude.fill('(a+)+$');
    const external = form.getByRole('switch', { name: 'Check external links' });
    const timeLimit = form.getByRole('textbox', { name: 'Time limit (hours)' });
    await expect(external).toBeChecked();
    await expect(timeLimit).toHaveValue('6');
    await timeLimit.fill('49');
    await expect(form.getByText('Time limit must be a whole number from 1 to 48')).toBeVisible();
    await saveCrawlSettings(page, {
      startUrl: site.url,
      maxUrls: 100,
      concurrency: 1,
      checkExternal: false,
      timeLimitHours: 2,
      schedule: 'None',
    });
    await expect(page.getByTestId('next-run')).toHaveText('Next run: none scheduled');
    await page.reload();
    await expect(external).not.toBeChecked();
    await expect(timeLimit).toHaveValue('2');
    await expect(exclude).toHaveValue('(a+)+$');

    await page.getByRole('button', { name: 'Start now' }).click();
    const card = page.getByTestId('active-run');
    await expect(card).toBeVisible();
    await expect(page.getByRole('button', { name: 'Start now' })).toBeDisabled();
    await expect(page.getByTestId('start-reason')).toHaveText('A crawl of this website is already queued or running.');
    await expect(card.locator('[data-stat="Pages done"]')).not.toHaveText('0', { timeout: 60_000 });
    await expect(card.locator('[data-stat="Elapsed"]')).toHaveText(/^\d\d:\d\d$/);
    await expect(card.getByTestId('run-activity')).toHaveText(
      /^(Fetching pages|Writing the export|Loading the crawl)( · last (response|export step|load step) \d+ s ago)?$/,
    );

    const loaded = page.getByRole('link', { name: 'Loaded as crawl 1' });
    await expect(card).toBeHidden({ timeout: 0 });
    await expect(loaded).toBeVisible();
    const listCalls = countListCalls(page);
    await page.waitForTimeout(3000);
    expect(listCalls(), 'no polling once no run is active').toBe(0);
    await setHidden(page, true);
    await setHidden(page, false);
    await expect.poll(listCalls, { message: 'one look when the page is shown again' }).toBe(1);
    const row = historyRow(page);
    await expect(row.locator('td').nth(4)).toHaveText('Manual');
    await expect(row.locator('td').nth(5)).toHaveText(logins.staff.email);
    await expect(row.locator('td').nth(2)).toHaveText('40');
    await expect(row.getByTestId('partial')).toHaveCount(0);
    expect(site.requests()).toBeGreaterThanOrEqual(40);

    // In-app navigation keeps the crawl list the page refreshed when the run was loaded.
    await loaded.click();
    await expect(page).toHaveURL(new RegExp(`${SECTION}\\?website=${sites.loaded.id}&crawl=1$`));
    await page.getByRole('combobox', { name: 'Current Crawl', exact: true }).click();
    const options = page.getByRole('option');
    await expect(options).toHaveCount(1);
    await expect(options.first()).toContainText('Pending');
    await page.keyboard.press('Escape');
    // The site answers /sitemap.xml and robots.txt 404: the overview says once that there is no sitemap.
    await expect(page.getByTestId('overview').getByRole('status').filter({ hasText: NO_SITEMAP_NOTICE })).toBeVisible();
    await expect(page.getByTestId('pending-notice').getByRole('button', { name: 'Approve' })).toBeEnabled({
      timeout: 20_000,
    });
    expect((await crawlsOf(page, sites.loaded.id)).map((c) => [c.crawlId, c.moduleState])).toEqual([[1, 'PENDING']]);
    expect(problems()).toEqual([]);
  });

  test('cancel a slow crawl: nothing is loaded', async ({ page }) => {
    test.setTimeout(180_000);
    const problems = watchProblems(page);
    await openCrawls(page, sites.cancelled.id);
    await saveCrawlSettings(page, { startUrl: slowSite.url, maxUrls: 1000, concurrency: 1 });
    await page.getByRole('button', { name: 'Start now' }).click();
    const card = page.getByTestId('active-run');
    await expect(card).toHaveAttribute('data-status', 'running', { timeout: 60_000 });
    await expect(card.locator('[data-stat="Pages done"]')).not.toHaveText('0', { timeout: 60_000 });

    const listCalls = countListCalls(page);
    await page.waitForTimeout(3000);
    expect(listCalls(), 'polls about once a second while a run is active').toBeGreaterThanOrEqual(2);
    await setHidden(page, true);
    await page.waitForTimeout(1500);
    const whenHidden = listCalls();
    await page.waitForTimeout(3000);
    expect(listCalls() - whenHidden, 'no polling while the page is hidden').toBe(0);
    await setHidden(page, false);
    await expect.poll(listCalls).toBeGreaterThan(whenHidden);

    // As many toasts as the page shows at once (settings saved while the crawl runs) leave Cancel uncovered. The
    // pointer rests on a toast, which holds every toast open (each closes 5 s on otherwise, and four saves may take
    // longer than that on a busy machine); the saves are typed, and the pointer goes to each new toast as it shows.
    const maxUrls = page.getByTestId('crawl-settings').getByRole('textbox', { name: 'Max URLs' });
    const saved = page.locator('.mantine-Notification-root').filter({ hasText: 'Crawl settings saved' });
    for (const [index, value] of [999, 998, 997, 996].entries()) {
      await maxUrls.fill(String(value));
      await maxUrls.press('Enter');
      await expect(saved).toHaveCount(index + 1);
      await saved.nth(index).hover();
    }
    const cancel = card.getByRole('button', { name: 'Cancel' });
    await expectUncovered(page, cancel);
    await cancel.click({ timeout: 2000 });
    const dialog = page.getByRole('dialog', { name: 'Cancel this crawl?' });
    const keep = dialog.getByRole('checkbox', { name: 'Keep the pages crawled so far and load them as a crawl' });
    await expect(keep).not.toBeChecked();
    await expectAccessible(page, 'Cancel dialog');
    await dialog.getByRole('button', { name: 'Cancel crawl' }).click();
    await expect(dialog).toBeHidden();

    await expect(historyRow(page).getByTestId('outcome')).toHaveText('Cancelled', { timeout: 60_000 });
    await expect(card).toBeHidden();
    await expect(page.getByRole('button', { name: 'Start now' })).toBeEnabled();
    const requestsAfterCancel = slowSite.requests();
    expect(requestsAfterCancel).toBeLessThan(100);
    await page.waitForTimeout(3000);
    expect(slowSite.requests() - requestsAfterCancel).toBeLessThanOrEqual(1);
    expect(await crawlsOf(page, sites.cancelled.id)).toEqual([]);

    // At 768 px the outcome is in view without scrolling the history sideways.
    await page.setViewportSize({ width: 768, height: 1024 });
    await historyRow(page).scrollIntoViewIfNeeded();
    const history = page.getByTestId('crawl-history');
    await expect(history.getByRole('columnheader', { name: 'Outcome' })).toBeInViewport({ ratio: 1 });
    await expect(historyRow(page).getByTestId('outcome')).toBeInViewport({ ratio: 1 });
    expect(problems()).toEqual([]);
  });
});

test.describe('a crawl whose worker freezes', () => {
  test.use({ storageState: authFile('staff') });

  test.beforeAll(async ({ baseURL }) => {
    await adminCommands(baseURL!, [
      { command: 'website add', ...sites.frozen },
      { command: 'user bind', email: logins.staff.email, websites: [sites.frozen.id] },
    ]);
  });

  test('is shown stalled a minute on, and ends within seconds of Cancel', async ({ page }) => {
    test.setTimeout(300_000);
    const slow = await startLoopbackSite({ pages: 2000, delayMs: 500 });
    try {
      const problems = watchProblems(page);
      await openCrawls(page, sites.frozen.id);
      await saveCrawlSettings(page, { startUrl: slow.url, maxUrls: 1000, concurrency: 1 });
      await page.getByRole('button', { name: 'Start now' }).click();
      const card = page.getByTestId('active-run');
      await expect(card.locator('[data-stat="Pages done"]')).not.toHaveText('0', { timeout: 60_000 });
      await expect(card.getByTestId('run-activity')).toHaveText(/^Fetching pages/);
      await expect(card.getByTestId('run-stalled')).toHaveCount(0);

      // Frozen for real, as a runaway pattern once left a worker: it reads no message and makes no progress.
      const worker = serviceWorkerPid();
      process.kill(worker, 'SIGSTOP');
      try {
        await expect(card.getByTestId('run-stalled')).toHaveText('Stalled: no progress for 1 min', {
          timeout: 90_000,
        });
        await card.getByRole('button', { name: 'Cancel' }).click();
        await page
          .getByRole('dialog', { name: 'Cancel this crawl?' })
          .getByRole('button', { name: 'Cancel crawl' })
          .click();
        // It never reads the stop: killed 2 s on, the run ends.
        await expect(historyRow(page).getByTestId('outcome')).toHaveText('Cancelled', { timeout: 8_000 });
      } finally {
        if (fs.existsSync(`/proc/${worker}`)) process.kill(worker, 'SIGKILL');
      }
      await expect(card).toBeHidden();
      await expect(page.getByRole('button', { name: 'Start now' })).toBeEnabled();
      expect(await crawlsOf(page, sites.frozen.id)).toEqual([]);
      expect(problems()).toEqual([]);
    } finally {
      await slow.close();
    }
  });
});

test.describe('as a client', () => {
  test.use({ storageState: authFile('client') });

  test('gets the not-found page at /crawls and 404 from every crawl-runs call', async ({ page }) => {
    await page.goto(crawlsPage(websites.northwind.id));
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Crawls' })).toHaveCount(0);

    const me = await page.request.get('/api/auth/me');
    const { csrfToken } = (await me.json()) as { csrfToken: string };
    const websiteId = websites.northwind.id;
    const calls: [string, unknown][] = [
      ['get-settings', { websiteId }],
      ['save-settings', { websiteId, settings: {} }],
      ['list', { websiteId }],
      ['start', { websiteId }],
      ['cancel', { websiteId, runId: 1, keepCrawled: false }],
    ];
    for (const [call, data] of calls) {
      const answer = await page.request.post(`/api/crawl-runs/${call}`, {
        data,
        headers: { 'x-csrf-token': csrfToken },
      });
      expect(answer.status(), call).toBe(404);
      expect(typeof ((await answer.json()) as { error?: unknown }).error, call).toBe('string');
    }
  });
});

test.describe('a weekly schedule', () => {
  /**
   * Monday 30 November 2026 06:00 in London (GMT). The second service's clock starts 150 s before it: its start, two
   * admin commands, a sign-in and the save must come before the time, which takes over a minute on a busy machine.
   */
  const due = '2026-11-30T06:00:00.000Z';
  const clockStart = new Date(Date.parse(due) - 150_000).toISOString();
  const website = { id: 'scheduled-loopback', name: 'Scheduled Loopback', domain: '127.0.0.1' };
  const staff = { email: 'staff@scheduled.example', password: 'scheduled-staff-e2e' };
  let service: ServiceProcess | undefined;
  let dataDir: string;
  let baseURL: string;
  let site: LoopbackSite;

  const adminCli = (args: string[]) => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
      cwd: repoDir,
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`npm run admin -- ${args.join(' ')}: ${result.stderr}${result.stdout}`);
  };

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    site = await startLoopbackSite({ pages: 4 });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-e2e-schedule-'));
    // As the main service under test (playwright.config.ts), it may crawl 127.0.0.1 and asks no real DNS server.
    service = await startService({
      env: {
        DATA_DIR: dataDir,
        CLOCK_START: clockStart,
        CRAWL_ALLOW: '127.0.0.1/32',
        CRAWL_DNS_SERVERS: '127.0.0.1:1',
      },
    });
    baseURL = service.origin;
    adminCli(['website', 'add', '--id', website.id, '--name', website.name, '--domain', website.domain]);
    adminCli([
      'user',
      'add',
      '--email',
      staff.email,
      '--password',
      staff.password,
      '--role',
      'STAFF',
      '--website',
      website.id,
    ]);
  });

  test.afterAll(async () => {
    await service?.stop();
    await site?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('fires at its time on the service clock and loads the crawl', async ({ browser }) => {
    test.setTimeout(LOADING_TEST_MS);
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await signIn(page, staff, SECTION);
    await openCrawls(page, website.id);
    await saveCrawlSettings(page, {
      startUrl: site.url,
      maxUrls: 100,
      concurrency: 2,
      schedule: { day: 'Monday', time: '06:00' },
    });
    await expect(page.getByTestId('next-run')).toHaveText('Next run: Monday 30 November 2026, 06:00 (London)');

    // The open page learns of the run without a reload, and without polling while it waits for the time.
    const listCalls = countListCalls(page);
    const loaded = page.getByRole('link', { name: 'Loaded as crawl 1' });
    const card = page.getByTestId('active-run');
    await expect(card.or(loaded)).toBeVisible({ timeout: 210_000 });
    expect(listCalls(), 'list reads from saving the schedule until its run shows').toBeLessThanOrEqual(
      2 + NEXT_RUN_LOOKS,
    );
    // Four pages crawl in seconds; loading them may take minutes on a busy machine: the run's end is waited on.
    await expect(card).toBeHidden({ timeout: 0 });
    await expect(loaded).toBeVisible();
    const row = historyRow(page);
    await expect(row.locator('td').nth(4)).toHaveText('Scheduled');
    await expect(row.locator('td').nth(5)).toHaveText('Schedule');
    await expect(row.locator('td').nth(0)).toHaveText(/^30 Nov 2026, 06:0\d$/);
    await expect(page.getByTestId('next-run')).toHaveText('Next run: Monday 7 December 2026, 06:00 (London)');
    await context.close();
  });
});
