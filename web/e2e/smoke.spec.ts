/** A smoke test per screen: fails on any console error, failed request or error answer; plus an axe scan each. */
import { expect, test } from '@playwright/test';
import {
  SECTION,
  authFile,
  expectAccessible,
  extra,
  open,
  waitForOverview,
  watchProblems,
  websites,
} from './helpers.ts';

test('login screen', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto(SECTION);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expectAccessible(page, 'login');
  expect(problems()).toEqual([]);
});

test.describe('internal user', () => {
  test.use({ storageState: authFile('staff') });

  test('overview in both sidebar views', async ({ page }) => {
    const problems = watchProblems(page);
    await open(page, `${SECTION}?website=${websites.northwind.id}`);
    await waitForOverview(page);
    await expectAccessible(page, 'overview, severity view');
    await page
      .getByRole('navigation', { name: 'Technical Health Check reports' })
      .getByText('Category', { exact: true })
      .click();
    await page.getByTestId('group-content').click();
    await expectAccessible(page, 'overview, category view');
    await page.getByTestId('user-menu').click();
    await expect(page.getByTestId('logout')).toBeVisible();
    await expectAccessible(page, 'user menu');
    expect(problems()).toEqual([]);
  });

  test('report page', async ({ page }) => {
    const problems = watchProblems(page);
    await open(page, `${SECTION}/redirects/chain?website=${websites.northwind.id}`);
    await expect(page.getByTestId('report-title')).toBeVisible();
    await expect(page.getByTestId('page-label')).toHaveText(/^Page 1 of \d+/, { timeout: 20_000 });
    await expectAccessible(page, 'report');
    await page.getByRole('button', { name: 'Columns' }).click();
    await expect(page.getByRole('dialog', { name: 'Columns' })).toBeVisible();
    await expectAccessible(page, 'column dialog');
    expect(problems()).toEqual([]);
  });

  test('module inactive panel', async ({ page }) => {
    const problems = watchProblems(page);
    await open(page, `${SECTION}?website=${extra.inactive.id}`);
    await expect(page.getByTestId('module-inactive')).toBeVisible();
    await expectAccessible(page, 'module inactive');
    expect(problems()).toEqual([]);
  });

  test('unknown report', async ({ page }) => {
    const problems = watchProblems(page);
    await open(page, `${SECTION}/links/nope?website=${websites.northwind.id}`);
    await expect(page.getByText('report could not be found.')).toBeVisible();
    await expectAccessible(page, 'unknown report');
    expect(problems()).toEqual([]);
  });
});

test.describe('client', () => {
  test.use({ storageState: authFile('alpineClient') });

  test('client pending crawl', async ({ page }) => {
    const problems = watchProblems(page);
    await open(page);
    await expect(page.getByTestId('client-pending')).toBeVisible();
    await expectAccessible(page, 'client pending');
    expect(problems()).toEqual([]);
  });
});
