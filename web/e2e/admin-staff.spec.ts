/**
 * Administration as STAFF: their own websites' settings and segments, and the client users of those websites only;
 * no website adding or deleting, no other staff, no audit log. A client finds neither the page nor its calls.
 */
import { expect, test } from '@playwright/test';
import { authFile, extra, logins, open, watchProblems } from './helpers.ts';
import {
  addAndRemoveSegment,
  dialog,
  mailedToken,
  openAdmin,
  pickMany,
  pickOne,
  rowAction,
  setPasswordWithLink,
} from './admin-helpers.ts';

const client = 'e2e-staff-client@admin.example';

test.describe('as staff', () => {
  test.use({ storageState: authFile('staff') });

  test('changes their website’s settings and segments, but adds and deletes no website', async ({ page }) => {
    const problems = watchProblems(page);
    await open(page);
    await openAdmin(page);
    await expect(page.getByRole('button', { name: 'Add website' })).toHaveCount(0);
    await expect(page.getByRole('tab', { name: 'Audit log' })).toHaveCount(0);
    const row = page.getByTestId(`admin-website-${extra.empty.id}`);
    await rowAction(page, extra.empty.name, 'Edit settings');
    await pickOne(page, 'Goal', 'Conversion');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await expect(row).toContainText('Conversion');
    await page.getByRole('button', { name: `Actions for ${extra.empty.name}` }).click();
    await expect(page.getByRole('menuitem', { name: 'Delete…' })).toHaveCount(0);
    await page.getByRole('menuitem', { name: 'Segments' }).click();
    await addAndRemoveSegment(page, { id: 'shop', name: 'Shop pages', urlScope: '/shop/' });
    expect(problems()).toEqual([]);
  });

  test('invites a client of their website, resets, disables and removes them; sees no staff or admin', async ({
    page,
    browser,
  }) => {
    await open(page);
    await openAdmin(page, 'Users');
    const users = page.getByTestId('admin-users');
    await expect(users).toContainText(logins.client.email);
    await expect(users).not.toContainText(logins.admin.email);
    await expect(users).not.toContainText(logins.alpineStaff.email);

    await page.getByRole('button', { name: 'Add user' }).click();
    await expect(dialog(page).getByRole('combobox', { name: 'Role' })).toBeDisabled();
    await dialog(page).getByLabel('Email address').fill(client);
    await pickMany(page, 'Websites', [extra.empty.name]);
    await dialog(page).getByRole('button', { name: 'Send invitation' }).click();
    const row = page.getByTestId(`admin-user-${client}`);
    await expect(row).toContainText(extra.empty.name);

    const theirs = await browser.newContext();
    const them = await theirs.newPage();
    await setPasswordWithLink(them, await mailedToken(client, 'invite'), 'staff-invited-1');
    await rowAction(page, client, 'Email a password reset link');
    await setPasswordWithLink(them, await mailedToken(client, 'reset'), 'staff-reset-22');
    await rowAction(page, client, 'Disable');
    await expect(row).toContainText('Disabled');
    await rowAction(page, client, 'Remove…');
    await dialog(page).getByRole('button', { name: 'Remove user' }).click();
    await expect(row).toHaveCount(0);
    await theirs.close();
  });
});

test.describe('as a client', () => {
  test.use({ storageState: authFile('client') });

  test('finds no administration: no menu entry, no page, no calls', async ({ page }) => {
    await open(page);
    await page.getByTestId('user-menu').click();
    await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Administration' })).toHaveCount(0);
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    const me = await page.request.get('/api/auth/me');
    const { csrfToken } = (await me.json()) as { csrfToken: string };
    for (const call of [
      '/api/admin/get-websites',
      '/api/admin/get-users',
      '/api/admin/get-sessions',
      '/api/admin/run',
    ]) {
      const answer = await page.request.post(call, {
        data: { command: { command: 'user list' } },
        headers: { 'x-csrf-token': csrfToken },
      });
      expect([call, answer.status(), await answer.json()]).toEqual([
        call,
        404,
        { error: `POST ${call} does not exist` },
      ]);
    }
  });
});
