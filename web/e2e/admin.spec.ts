/**
 * Administration in the dashboard as an ADMIN: websites (add, settings, segments added, edited and removed, archive
 * hiding it from its client and restore bringing it back, delete with a typed confirmation), users (added with a
 * password set now, invited by a one-time link, role and websites, reset link, disable, remove), who is signed in
 * where and signing them out, and the audit log.
 */
import { expect, test } from '@playwright/test';
import { SECTION, logins, signIn, watchProblems, websites } from './helpers.ts';
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

const site = { id: 'e2e-admin-site', name: 'E2E Admin Site', domain: 'admin-site.example' };
const person = 'e2e-invited@admin.example';
const siteClient = { email: 'e2e-site-client@admin.example', password: 'site-client-pass-1' };

test('an admin adds a website, changes its settings and segments, adds its client, archives, restores and deletes it', async ({
  page,
  browser,
}) => {
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
  await addEditAndRemoveSegment(page, { id: 'blog', name: 'Blog pages', urlScope: '/blog/' });
  await dialog(page).getByRole('button', { name: 'Close' }).click();

  // A client bound to it, added with a password set now, signs in and finds it beside Northwind.
  await page.getByRole('tab', { name: 'Users' }).click();
  await page.getByRole('button', { name: 'Add user' }).click();
  await dialog(page).getByLabel('Email address').fill(siteClient.email);
  await pickMany(page, 'Websites', [`${site.name} Renamed`, websites.northwind.name]);
  await dialog(page).getByText('Set a password now').click();
  await expect(dialog(page).getByRole('button', { name: 'Send invitation' })).toHaveCount(0);
  await dialog(page).getByRole('textbox', { name: 'Password', exact: true }).fill(siteClient.password);
  await dialog(page).getByRole('button', { name: 'Add user' }).click();
  const clientRow = page.getByTestId(`admin-user-${siteClient.email}`);
  await expect(clientRow).toContainText('Client');
  await expect(clientRow).toContainText(`${site.name} Renamed, ${websites.northwind.name}`);
  const theirs = await browser.newContext();
  const them = await theirs.newPage();
  await signIn(them, siteClient);
  const offered = async () => {
    await them.goto(SECTION);
    await expect(them.getByTestId('user-menu')).toBeVisible();
    if ((await them.getByTestId('website-picker').count()) === 0)
      return [await them.getByTestId('website-name').locator('p').first().innerText()];
    await them.getByTestId('website-picker').click();
    const names = await them.getByRole('option').locator('p:first-child').allInnerTexts();
    await them.keyboard.press('Escape');
    return names.sort();
  };
  expect(await offered()).toEqual([`${site.name} Renamed`, websites.northwind.name]);

  // Archived, it is hidden from its client; restored, it is back.
  await page.getByRole('tab', { name: 'Websites' }).click();
  await rowAction(page, `${site.name} Renamed`, 'Archive');
  await expect(row).toContainText('Archived');
  expect(await offered()).toEqual([websites.northwind.name]);
  await rowAction(page, `${site.name} Renamed`, 'Restore');
  await expect(row).toContainText('Active');
  expect(await offered()).toEqual([`${site.name} Renamed`, websites.northwind.name]);
  await theirs.close();

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
    'segment set',
    'segment remove',
    'user add',
    'website archive',
    'website restore',
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
  const row = await inviteUser(page, person, [websites.northwind.name]);
  await expect(row).toContainText('Client');
  await expect(row).toContainText(websites.northwind.name);

  // The invited user follows the emailed link, chooses a password and signs in.
  const { context: theirs, them } = await acceptInvitation(browser, person, 'invited-pass-1');
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
  await pickOne(page, 'Role', 'Staff');
  await pickMany(page, 'Websites', [websites.alpine.name]);
  await dialog(page).getByRole('button', { name: 'Save' }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect(row).toContainText('Staff');
  await expect(row).toContainText(`${websites.alpine.name}, ${websites.northwind.name}`);

  await resetPasswordByLink(page, them, person, 'reset-pass-22');
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

  await removeUser(page, person);
  await theirs.close();
});

test('at 768 px each table fits with its Status and actions in view, the lesser columns folded into the first cell', async ({
  page,
}) => {
  await signIn(page, logins.admin);
  await openAdmin(page);
  const northwind = page.getByTestId(`admin-website-${websites.northwind.id}`);
  await expect(northwind.getByTestId('folded')).toHaveCount(0);
  await page.setViewportSize({ width: 768, height: 1024 });
  await expect(northwind.getByTestId('folded')).toContainText('AI suggestions');
  await expect(northwind.getByText('Active')).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('button', { name: `Actions for ${websites.northwind.name}` })).toBeInViewport({
    ratio: 1,
  });
  for (const [tab, list] of [
    ['Websites', 'admin-websites'],
    ['Users', 'admin-users'],
    ['Sessions', 'admin-sessions'],
    ['Audit log', 'admin-audit'],
  ] as const) {
    await page.getByRole('tab', { name: tab }).click();
    const box = await page.getByTestId(list).getByRole('table').boundingBox();
    expect(box!.x + box!.width, `the ${tab} table's right edge`).toBeLessThanOrEqual(768);
  }
  await page.getByRole('tab', { name: 'Sessions' }).click();
  await expect(
    page
      .getByTestId('admin-sessions')
      .getByRole('button', { name: /^Sign out/ })
      .first(),
  ).toBeInViewport({
    ratio: 1,
  });
  await page.getByRole('tab', { name: 'Users' }).click();
  const client = page.getByTestId(`admin-user-${logins.client.email}`);
  await expect(client.getByTestId('folded')).toContainText('Role');
  await expect(page.getByRole('button', { name: `Actions for ${logins.client.email}` })).toBeInViewport({ ratio: 1 });
});
