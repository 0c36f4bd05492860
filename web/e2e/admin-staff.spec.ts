/**
 * Administration as STAFF: their own websites' settings and segments, and the client users of those websites only
 * (their websites, and their sessions to sign out); no website adding or deleting, no other staff, no audit log. A
 * client finds neither the page nor its calls.
 */
import { expect, request, test } from '@playwright/test';
import { authFile, extra, logins, open, signIn, watchProblems, websites } from './helpers.ts';
import {
  acceptInvitation,
  addEditAndRemoveSegment,
  dialog,
  inviteUser,
  openAdmin,
  pickMany,
  pickOne,
  removeUser,
  resetPasswordByLink,
  rowAction,
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
    await addEditAndRemoveSegment(page, { id: 'shop', name: 'Shop pages', urlScope: '/shop/' });
    expect(problems()).toEqual([]);
  });

  test('invites a client of their website, changes their websites, signs their session out, resets, disables and removes them; sees no staff or admin', async ({
    page,
    browser,
    baseURL,
  }) => {
    await open(page);
    await openAdmin(page, 'Users');
    const users = page.getByTestId('admin-users');
    await expect(users).toContainText(logins.client.email);
    await expect(users).not.toContainText(logins.admin.email);
    await expect(users).not.toContainText(logins.alpineStaff.email);

    await page.getByRole('button', { name: 'Add user' }).click();
    await expect(dialog(page).getByRole('combobox', { name: 'Role' })).toBeDisabled();
    const row = await inviteUser(page, client, [extra.empty.name]);
    await expect(row).toContainText(extra.empty.name);

    await rowAction(page, client, 'Change role and websites');
    await pickMany(page, 'Websites', [websites.alpine.name]);
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await expect(dialog(page)).toHaveCount(0);
    await expect(row).toContainText(`${websites.alpine.name}, ${extra.empty.name}`);

    const { context: theirs, them } = await acceptInvitation(browser, client, 'staff-invited-1');
    await resetPasswordByLink(page, them, client, 'staff-reset-22');
    await signIn(them, { email: client, password: 'staff-reset-22' });

    // Staff see the sessions of their clients and their own, not an admin's or another website's staff's.
    const others = await request.newContext({ baseURL });
    for (const login of [logins.admin, logins.alpineStaff])
      expect((await others.post('/api/auth/login', { data: login })).status()).toBe(200);
    await others.dispose();
    await open(page);
    await openAdmin(page, 'Sessions');
    const sessions = page.getByTestId('admin-sessions');
    const session = sessions.getByRole('row').filter({ hasText: client });
    await expect(session).toHaveCount(1);
    await expect(sessions.getByRole('row').filter({ hasText: logins.staff.email }).first()).toBeVisible();
    await expect(sessions).not.toContainText(logins.admin.email);
    await expect(sessions).not.toContainText(logins.alpineStaff.email);
    await session.getByRole('button', { name: /^Sign out/ }).click();
    await expect(session).toHaveCount(0);
    await them.reload();
    await expect(them.getByRole('button', { name: 'Sign in' })).toBeVisible();

    await page.getByRole('tab', { name: 'Users' }).click();
    await rowAction(page, client, 'Disable');
    await expect(row).toContainText('Disabled');
    await removeUser(page, client);
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
