/**
 * The bell in the header, as the demo staff user: a crawl of their website that fails (nothing answers at its start
 * URL on 127.0.0.1) shows in History with its reason in full (wrapped) and its last phase, is told in the bell
 * without a reload, leads to the Crawls page and is then read; the email switch holds across a reload. The staff of
 * another website hears nothing of it, and a client has no bell at all.
 */
import { expect, test, type Page } from '@playwright/test';
import type { CrawlRunsAnswer } from '../../catalog/crawl-runs.ts';
import { freePort } from '../../scripts/support/free-port.ts';
import { PHASE_LABELS } from '../src/features/crawls/crawl-run-format.ts';
import {
  SECTION,
  adminCommands,
  api,
  authFile,
  crawlsPage,
  expectAccessible,
  logins,
  open,
  openCrawls,
  saveCrawlSettings,
  signIn,
  watchProblems,
} from './helpers.ts';

const site = { id: 'e2e-notices', name: 'E2E Notices', domain: '127.0.0.1' } as const;
const TITLE = `Crawl of ${site.name} failed`;

const bell = (page: Page) => page.getByTestId('notification-bell');
const panel = (page: Page) => page.getByTestId('notification-panel');

test.describe('as the demo staff user', () => {
  test.use({ storageState: authFile('staff') });

  test.beforeAll(async ({ baseURL }) => {
    await adminCommands(baseURL!, [
      { command: 'website add', ...site },
      { command: 'user bind', email: logins.staff.email, websites: [site.id] },
    ]);
  });

  test('a failed crawl shows in History with its whole reason and last phase, and in the bell; leads to the Crawls page, and is read once opened', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const problems = watchProblems(page);
    await openCrawls(page, site.id);
    await saveCrawlSettings(page, {
      startUrl: `http://127.0.0.1:${await freePort()}/`,
      maxUrls: 10,
      concurrency: 1,
      schedule: 'None',
    });
    await page.getByRole('button', { name: 'Start now' }).click();
    await expect(page.getByTestId('crawl-history').locator('tbody tr').first()).toHaveAttribute(
      'data-status',
      'failed',
      { timeout: 120_000 },
    );
    // History shows the failure's reason in full, wrapped rather than cut, and the phase the run last reached.
    const { runs } = await api<CrawlRunsAnswer>(page, '/api/crawl-runs/list', { websiteId: site.id });
    const [failed] = runs;
    expect(failed!.reason).toMatch(/^start URL http:\/\/127\.0\.0\.1:\d+\/ is unreachable \(.+\)$/);
    expect(failed!.progress.phase).toBeTruthy();
    const row = page.getByTestId('crawl-history').locator(`tbody tr[data-run="${failed!.id}"]`);
    const outcome = row.getByTestId('outcome');
    await expect(outcome).toHaveText(`Failed: ${failed!.reason!}`);
    const box = await outcome.evaluate((element) => ({
      lines: Math.round(element.getBoundingClientRect().height / parseFloat(getComputedStyle(element).lineHeight)),
      isCut: element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight,
    }));
    expect(box.isCut).toBe(false);
    expect(box.lines).toBeGreaterThan(1);
    await expect(row.getByTestId('phase')).toHaveText(PHASE_LABELS[failed!.progress.phase!]);
    // The Crawls page saw the run end: the bell reads the notices then, not at its next poll.
    await expect(bell(page)).toHaveAccessibleName(/^Notifications, \d+ unread$/);

    await page.goto(SECTION);
    await bell(page).click();
    const notice = panel(page).locator('li', { hasText: TITLE }).first();
    await expect(notice).toHaveAttribute('data-read', 'false');
    await expect(notice).toHaveAttribute('data-outcome', 'failed');
    await expect(notice.getByTestId('notice-detail')).toHaveText(
      /^Started \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d: \d+ pages? crawled, \d+ errors?\. start URL http:\/\/127\.0\.0\.1:\d+\/ is unreachable/,
    );
    await expectAccessible(page, 'notification panel');

    await notice.getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`${crawlsPage(site.id).replace('?', '\\?')}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Crawls' })).toBeVisible();
    await expect(panel(page)).toBeHidden();
    await bell(page).click();
    await expect(panel(page).locator('li', { hasText: TITLE }).first()).toHaveAttribute('data-read', 'true');
    // Other specs' crawls may have left this staff user more notices; alone, reading this one left none unread.
    const markAll = panel(page).getByRole('button', { name: 'Mark all read' });
    if (await markAll.isEnabled()) await markAll.click();
    await expect(bell(page)).toHaveAccessibleName('Notifications');
    await expect(markAll).toBeDisabled();
    expect(problems()).toEqual([]);
  });

  test('the email switch is kept across a reload', async ({ page }) => {
    await open(page);
    await bell(page).click();
    const email = panel(page).getByRole('switch', { name: 'Email me when a crawl of my websites ends' });
    await expect(email).toBeChecked();
    await email.setChecked(false, { force: true });
    await expect(email).not.toBeChecked();
    await page.reload();
    await bell(page).click();
    await expect(email).not.toBeChecked();
    await email.setChecked(true, { force: true });
    await page.reload();
    await bell(page).click();
    await expect(email).toBeChecked();
  });
});

test('the staff of another website hears nothing of it', async ({ page }) => {
  await signIn(page, logins.alpineStaff);
  await bell(page).click();
  await expect(panel(page)).toBeVisible();
  await expect(panel(page).locator('li', { hasText: TITLE })).toHaveCount(0);
});

test.describe('as the demo client', () => {
  test.use({ storageState: authFile('client') });

  test('has no bell, and the notification calls do not exist for them', async ({ page }) => {
    await open(page);
    await expect(page.getByTestId('user-menu')).toBeVisible();
    await expect(bell(page)).toHaveCount(0);
    const { csrfToken } = (await (await page.request.get('/api/auth/me')).json()) as { csrfToken: string };
    const answer = await page.request.post('/api/notifications/list', {
      data: {},
      headers: { 'x-csrf-token': csrfToken },
    });
    expect([answer.status(), await answer.json()]).toEqual([
      404,
      { error: 'POST /api/notifications/list does not exist' },
    ]);
  });
});
