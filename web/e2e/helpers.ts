/** Shared steps of the dashboard's browser tests: demo logins, problem collection, admin commands, selects. */
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, request, type Page } from '@playwright/test';
import type { Overview, OverviewReport } from '../../catalog/api.ts';
import { REMOVAL_REASONS, type RemovalReason } from '../../catalog/removal-reasons.ts';

/** Where global-setup keeps each role's signed-in browser state (one directory per service port). */
export const AUTH_DIR = path.join(os.tmpdir(), `thc-e2e-auth-${process.env.E2E_PORT ?? '3111'}`);
export type Role = 'staff' | 'client' | 'alpineClient' | 'emptyClient';
export const authFile = (role: Role): string => path.join(AUTH_DIR, `${role}.json`);

export const SECTION = '/technical-health-check';

/** The demo logins the service seeds (service/auth/demo-accounts.ts, README 'Demo logins'). */
export const logins = {
  admin: { email: 'admin@thc.example', password: 'thc-admin-demo' },
  staff: { email: 'staff@northwind-outfitters.example', password: 'northwind-staff-demo' },
  client: { email: 'client@northwind-outfitters.example', password: 'northwind-client-demo' },
  alpineClient: { email: 'client@alpine-travel.example', password: 'alpine-client-demo' },
  alpineStaff: { email: 'staff@alpine-travel.example', password: 'alpine-staff-demo' },
} as const;

export const websites = {
  northwind: { id: 'northwind-outfitters', name: 'Northwind Outfitters' },
  alpine: { id: 'alpine-travel', name: 'Alpine Travel' },
} as const;

export type Login = { email: string; password: string };

/** Signs in through the form (slow: prefer `open` with a stored session). */
export async function signIn(page: Page, login: Login, target = SECTION): Promise<void> {
  await page.goto(target);
  await page.getByLabel('Email address').fill(login.email);
  await page.locator('input[name=password]').fill(login.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Technical Health Check' })).toBeVisible();
}

/** Opens a page of the section with the test's stored session (test.use({ storageState: authFile(role) })). */
export async function open(page: Page, target = SECTION): Promise<void> {
  await page.goto(target);
  await expect(page.getByRole('heading', { level: 1, name: 'Technical Health Check' })).toBeVisible();
}

/** Fails the test on any console error, page error, failed request or 5xx answer seen on the page. */
export function watchProblems(
  page: Page,
  options: { allowStatus?: (url: string, status: number) => boolean } = {},
): () => string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText ?? '';
    // Navigations and superseded fetches are aborted on purpose.
    if (failure.includes('ERR_ABORTED') || failure.includes('NS_BINDING_ABORTED')) return;
    problems.push(`request failed: ${request.method()} ${request.url()} ${failure}`);
  });
  page.on('response', (response) => {
    const status = response.status();
    if (status >= 400 && !options.allowStatus?.(response.url(), status)) {
      problems.push(`HTTP ${status}: ${response.request().method()} ${response.url()}`);
    }
  });
  return () => problems;
}

/** Picks an option of a Mantine Select by its label. */
export async function choose(page: Page, label: string, option: string | RegExp): Promise<void> {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).first().click();
}

export async function selectedValue(page: Page, label: string): Promise<string> {
  return page.getByRole('combobox', { name: label, exact: true }).inputValue();
}

export function sidebar(page: Page) {
  return page.getByRole('navigation', { name: 'Technical Health Check reports' });
}

export async function waitForOverview(page: Page): Promise<void> {
  await expect(page.getByTestId('overview')).toBeVisible({ timeout: 20_000 });
}

export function query(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

/** A JSON call with the page's session (cookies and CSRF token), for reading what the page should show. */
export async function api<T>(page: Page, path: string, data: unknown): Promise<T> {
  const me = await page.request.get('/api/auth/me');
  const { csrfToken } = (await me.json()) as { csrfToken: string };
  const answer = await page.request.post(path, { data, headers: { 'x-csrf-token': csrfToken } });
  expect(answer.ok(), `${path}: ${answer.status()}`).toBe(true);
  return (await answer.json()) as T;
}

export interface CrawlInfo {
  id: string | number;
  crawlId: number;
  crawledFriendly: string;
  label: string;
  partial: string | null;
  dataStart: string;
  dataEnd: string;
  moduleState: string;
}

export function crawlsOf(page: Page, websiteId: string): Promise<CrawlInfo[]> {
  return api<CrawlInfo[]>(page, '/api/technical-health-check/crawl/get-redux', { websiteId });
}

/**
 * Websites the tests add through the admin API: one without the module, one without any crawl, and one big crawl
 * (generated from Northwind's profile) for the chunked and the 100,000-row CSV exports.
 */
export const extra = {
  inactive: { id: 'e2e-no-module', name: 'E2E No Module Ltd', domain: 'no-module.example' },
  empty: { id: 'e2e-no-crawls', name: 'E2E Awaiting First Crawl', domain: 'awaiting.example' },
  big: { id: 'e2e-big-outfitters', name: 'E2E Big Outfitters', domain: 'big-outfitters.example', urls: 110_000 },
  emptyClient: { email: 'client@awaiting.example', password: 'awaiting-client-demo' },
  /** Issue 28: a crawl a week before three on one day, the middle one of them stopped early (partial). */
  sameDay: {
    id: 'e2e-same-day',
    name: 'E2E Same Day Crawls',
    domain: 'same-day.example',
    crawls: [
      { crawlId: 1, crawledAt: '2026-11-09T09:00:00Z' },
      { crawlId: 2, crawledAt: '2026-11-16T06:00:00Z' },
      { crawlId: 3, crawledAt: '2026-11-16T09:41:00Z', partialReason: 'stopped' },
      { crawlId: 4, crawledAt: '2026-11-16T14:05:00Z' },
    ],
  },
} as const;

/** Runs admin commands (service/admin/commands.ts) through the running service's API as the demo admin. */
export async function adminCommands(baseURL: string, commands: Record<string, unknown>[]): Promise<void> {
  const context = await request.newContext({ baseURL });
  try {
    const login = await context.post('/api/auth/login', { data: logins.admin });
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    for (const command of commands) {
      const answer = await context.post('/api/admin/run', {
        data: { command },
        headers: { 'x-csrf-token': csrfToken },
      });
      if (!answer.ok() && answer.status() !== 409)
        throw new Error(`${String(command.command)}: ${await answer.text()}`);
    }
  } finally {
    await context.dispose();
  }
}

/** A website added by the admin, with the demo staff user bound to it. */
export async function addStaffWebsite(
  baseURL: string,
  website: { id: string; name: string; domain: string },
): Promise<void> {
  await adminCommands(baseURL, [
    { command: 'website add', ...website },
    { command: 'user bind', email: logins.staff.email, websites: [website.id] },
  ]);
}

export const crawlsPage = (websiteId: string) => `/crawls?website=${websiteId}`;

export async function openCrawls(page: Page, websiteId: string): Promise<void> {
  await page.goto(crawlsPage(websiteId));
  await expect(page.getByRole('heading', { level: 1, name: 'Crawls' })).toBeVisible();
  await expect(page.getByTestId('crawl-settings')).toBeVisible({ timeout: 20_000 });
}

/** Fills the settings a loopback crawl needs and saves them. */
export async function saveCrawlSettings(
  page: Page,
  settings: {
    startUrl: string;
    maxUrls: number;
    concurrency: number;
    checkExternal?: boolean;
    timeLimitHours?: number;
    schedule?: 'None' | { day: string; time: string };
  },
): Promise<void> {
  const form = page.getByTestId('crawl-settings');
  await form.getByRole('textbox', { name: /^Start URL/ }).fill(settings.startUrl);
  await form.getByRole('textbox', { name: 'Max URLs' }).fill(String(settings.maxUrls));
  await form.getByRole('textbox', { name: 'Concurrency' }).fill(String(settings.concurrency));
  if (settings.checkExternal !== undefined)
    await form.getByRole('switch', { name: 'Check external links' }).setChecked(settings.checkExternal);
  if (settings.timeLimitHours !== undefined)
    await form.getByRole('textbox', { name: 'Time limit (hours)' }).fill(String(settings.timeLimitHours));
  if (settings.schedule === 'None') await choose(page, 'Schedule', 'None (manual runs only)');
  else if (settings.schedule) {
    await choose(page, 'Schedule', settings.schedule.day);
    await form.getByLabel('Time (London)').fill(settings.schedule.time);
  }
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Crawl settings saved').first()).toBeVisible();
  await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
}

/**
 * Fails on serious or critical WCAG 2.1 A/AA violations axe finds on the page once its transitions have ended. Axe
 * blends colours with opacity: mid-way through a dialog's fade-in, its red button's white label read 4.45:1, against
 * the 4.51:1 it settles at.
 */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        // Loaders spin for ever; transitions and one-shot animations end.
        .filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)))
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('; ')})`,
    ),
    `${name}: serious or critical axe violations`,
  ).toEqual([]);
}

export const removalReasonsOf = (r: OverviewReport): RemovalReason[] =>
  REMOVAL_REASONS.filter((reason) => (r.removedByReason?.[reason] ?? 0) > 0);

/** The shown reports of the crawl with removed rows, the most distinct reasons first, URL reports preferred. */
export async function reportsWithRemovals(page: Page): Promise<OverviewReport[]> {
  const overview = await api<Overview>(page, '/api/technical-health-check/overview/get-overview', {
    websiteId: websites.northwind.id,
    currentId: Number(query(page).get('crawl')),
    refresh: false,
  });
  return Object.values(overview.severityMap)
    .flatMap((s) => s.reports)
    .filter((r) => (r.removed ?? 0) > 0 && !r.reportId.startsWith('hreflang/'))
    .sort(
      (a, b) =>
        removalReasonsOf(b).length - removalReasonsOf(a).length ||
        Number(b.tableId === 'urls') - Number(a.tableId === 'urls') ||
        a.reportId.localeCompare(b.reportId),
    );
}

/** Review screenshots of a state at 768 px wide and at 1280×800, ending at 1280 (test-results/shots or SHOTS_DIR). */
export async function reviewShots(page: Page, name: string): Promise<void> {
  const dir = process.env.SHOTS_DIR ?? 'test-results/shots';
  for (const [width, height] of [
    [768, 1024],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    // The layout settles after a resize (the sidebar folds away or comes back).
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${dir}/${width}-${name}.png` });
  }
}
