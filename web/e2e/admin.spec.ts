/**
 * Administration in the dashboard as an ADMIN: websites (add, settings, segments, archive, delete with a typed
 * confirmation), users (invite by a one-time link, role and websites, reset link, disable, remove), who is signed in
 * where and signing them out, and the audit log.
 */
import { expect, test } from '@playwright/test';
import { logins, signIn, watchProblems, websites } from './helpers.ts';
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

const site = { id: 'e2e-admin-site', name: 'E2E Admin Site', domain: 'admin-site.example' };
const person = 'e2e-invited@admin.example';

test('an admin adds a website, changes its settings and segments, archives it and deletes it', async ({ page }) => {
  const problems = watchProblems(page, {
    allowStatus: (url, status) => url.endsWith('/api/admin/run') && status < 500,
  });
  await signIn(page, logins.admin);
  await openAdmin(page);
  await page.getByRole('button', { name: 'Add website' }).click();
  await dialog(page).getByLabel('Website id').fill('Not An Id');
  await dialog(page).getByLabel('Name').fill(site.name);
  await dialog(page).getByLabel('Domain').fill(site.domain);
  await dialog(page).getByRole('button', { name: 'Add website' }).click();
  // The CLI's own check and message, shown beside the field it names.
  await expect(dialog(page).getByText('website add: --id: lowercase letters, digits and dashes')).toBeVisible();
  await dialog(page).getByLabel('Website id').fill(site.id);
  await pickOne(page, 'Goal', 'Ecommerce');
  await dialog(page).getByRole('button', { name: 'Add website' }).click();
  const row = page.getByTestId(`admin-website-${site.id}`);
  await expect(row).toContainText(site.name);
  await expect(row).toContainText('Ecommerce');

  await rowAction(page, site.name, 'Edit settings');
  await dialog(page).getByLabel('Name').fill(`${site.name} Renamed`);
  await dialog(page).getByLabel('Domain').fill(`www.${site.domain}`);
  await pickOne(page, 'Goal', 'Conversion');
  await dialog(page).getByRole('switch', { name: 'Hreflang reports' }).check({ force: true });
  await dialog(page).getByRole('switch', { name: 'AI suggestions' }).check({ force: true });
  await dialog(page).getByRole('button', { name: 'Save' }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect(row).toContainText(`${site.name} Renamed`);
  await expect(row).toContainText(`www.${site.domain}`);
  await expect(row).toContainText('Conversion');
  await expect(row.getByText('On', { exact: true })).toHaveCount(2);

  await rowAction(page, `${site.name} Renamed`, 'Segments');
  await addAndRemoveSegment(page, { id: 'blog', name: 'Blog pages', urlScope: '/blog/' });
  await dialog(page).getByRole('button', { name: 'Close' }).click();

  await rowAction(page, `${site.name} Renamed`, 'Archive');
  await expect(row).toContainText('Archived');
  await rowAction(page, `${site.name} Renamed`, 'Delete…');
  const remove = dialog(page).getByRole('button', { name: 'Delete website' });
  await dialog(page).getByLabel(`Type ${site.id} to confirm`).fill('e2e-admin');
  await expect(remove).toBeDisabled();
  await dialog(page).getByLabel(`Type ${site.id} to confirm`).fill(site.id);
  await remove.click();
  await expect(row).toHaveCount(0);

  await page.getByRole('tab', { name: 'Audit log' }).click();
  const audit = page.getByTestId('admin-audit');
  for (const action of [
    'website add',
    'website set',
    'segment add',
    'segment remove',
    'website archive',
    'website delete',
  ])
    await expect(
      audit.getByRole('row').filter({ hasText: action }).filter({ hasText: logins.admin.email }).first(),
    ).toBeVisible();
  // The refused id is a 400 of /api/admin/run (allowed above), which Chromium also logs to the console.
  expect(problems().filter((p) => !/status of 400/.test(p))).toEqual([]);
});

test('an admin invites a user, signs their session out, changes them, resets, disables and removes them', async ({
  page,
  browser,
}) => {
  await signIn(page, logins.admin);
  await openAdmin(page, 'Users');
  await page.getByRole('button', { name: 'Add user' }).click();
  await dialog(page).getByLabel('Email address').fill(person);
  await pickMany(page, 'Websites', [websites.northwind.name]);
  await dialog(page).getByRole('button', { name: 'Send invitation' }).click();
  const row = page.getByTestId(`admin-user-${person}`);
  await expect(row).toContainText('Client');
  await expect(row).toContainText(websites.northwind.name);

  // The invited user follows the emailed link, chooses a password and signs in.
  const theirs = await browser.newContext();
  const them = await theirs.newPage();
  await setPasswordWithLink(them, await mailedToken(person, 'invite'), 'invited-pass-1');
  await signIn(them, { email: person, password: 'invited-pass-1' });

  await page.getByRole('tab', { name: 'Sessions' }).click();
  const session = page.getByTestId('admin-sessions').getByRole('row').filter({ hasText: person });
  await expect(session).toContainText('Chrome');
  await session.getByRole('button', { name: /^Sign out/ }).click();
  await expect(session).toHaveCount(0);
  await them.reload();
  await expect(them.getByRole('button', { name: 'Sign in' })).toBeVisible();

  await page.getByRole('tab', { name: 'Users' }).click();
  await rowAction(page, person, 'Change role and websites');
  await pickMany(page, 'Websites', [websites.alpine.name]);
  await dialog(page).getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText(`${websites.alpine.name}, ${websites.northwind.name}`);

  await rowAction(page, person, 'Email a password reset link');
  await setPasswordWithLink(them, await mailedToken(person, 'reset'), 'reset-pass-22');
  await signIn(them, { email: person, password: 'reset-pass-22' });

  await rowAction(page, person, 'Disable');
  await expect(row).toContainText('Disabled');
  await them.reload();
  await them.getByLabel('Email address').fill(person);
  await them.locator('input[name=password]').fill('reset-pass-22');
  await them.getByRole('button', { name: 'Sign in' }).click();
  await expect(them.getByRole('alert')).toHaveText('This account is disabled; ask your administrator');
  await rowAction(page, person, 'Enable');
  await expect(row).toContainText('Active');

  await rowAction(page, person, 'Remove…');
  await dialog(page).getByRole('button', { name: 'Remove user' }).click();
  await expect(row).toHaveCount(0);
  await theirs.close();
});
