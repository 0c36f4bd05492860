/** Steps of the administration browser tests: open a tab, act on a row, read a one-time link from the outbox. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';

/** The service's DATA_DIR (playwright.config.ts): with no SMTP server set, mail lands in its outbox. */
const DATA_DIR = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), 'thc-e2e-data');

export type AdminTab = 'Websites' | 'Users' | 'Sessions' | 'Audit log';

export async function openAdmin(page: Page, tab: AdminTab = 'Websites'): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Administration' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible();
  await page.getByRole('tab', { name: tab }).click();
}

/**
 * Opens a row's actions menu and picks one, by keyboard: the toast of the previous command may lie over the row's
 * actions at the bottom right, and a pointer trying to click through it hovers it, which keeps it open.
 */
export async function rowAction(page: Page, subject: string, action: string | RegExp): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${subject}` }).press('Enter');
  await page.getByRole('menuitem', { name: action }).press('Enter');
}

export const dialog = (page: Page): Locator => page.getByRole('dialog');

/** Picks an option of a Mantine Select in the open dialog. */
export async function pickOne(page: Page, label: string, option: string): Promise<void> {
  await dialog(page).getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Picks options of a Mantine MultiSelect, closing its dropdown after. */
export async function pickMany(page: Page, label: string, options: readonly string[]): Promise<void> {
  const input = dialog(page).getByRole('combobox', { name: label });
  await input.click();
  for (const option of options) await page.getByRole('option', { name: option, exact: true }).click();
  await input.press('Escape');
}

/** The token of the newest one-time link of `kind` mailed to `email`, waiting for the mail to be written. */
export async function mailedToken(email: string, kind: 'invite' | 'reset'): Promise<string> {
  const outbox = path.join(DATA_DIR, 'outbox');
  const stem = `-${kind}-${email}`.replace(/[^A-Za-z0-9._-]+/g, '_');
  let token: string | undefined;
  await expect
    .poll(() => {
      const files = fs.existsSync(outbox)
        ? fs
            .readdirSync(outbox)
            .filter((f) => f.includes(stem))
            .sort()
        : [];
      const newest = files.at(-1);
      if (!newest) return undefined;
      const text = fs
        .readFileSync(path.join(outbox, newest), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      token = /\/set-password\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
      return token;
    })
    .toBeTruthy();
  return token!;
}

/** Sets a password through the page a one-time link opens. */
export async function setPasswordWithLink(page: Page, token: string, password: string): Promise<void> {
  await page.goto(`/set-password?token=${token}`);
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByRole('heading', { name: 'Password saved' })).toBeVisible();
}

/**
 * In the open Segments dialog: adds a segment with a URL scope, sees it listed, changes its name and scope, and
 * removes it again.
 */
export async function addEditAndRemoveSegment(page: Page, segment: { id: string; name: string; urlScope: string }) {
  await dialog(page).getByRole('button', { name: 'Add segment' }).click();
  await dialog(page).getByLabel('Segment id').fill(segment.id);
  await dialog(page).getByLabel('Segment name').fill(segment.name);
  await dialog(page).getByLabel('URL scope').fill(segment.urlScope);
  await dialog(page).getByRole('button', { name: 'Add segment' }).click();
  const row = dialog(page).getByTestId(`admin-segment-${segment.id}`);
  await expect(row).toContainText(segment.urlScope);

  const changed = { name: `${segment.name} (edited)`, urlScope: `${segment.urlScope}edited/` };
  await row.getByRole('button', { name: 'Edit' }).click();
  await expect(dialog(page).getByLabel('Segment id')).toHaveValue(segment.id);
  await expect(dialog(page).getByLabel('Segment id')).toBeDisabled();
  await dialog(page).getByLabel('Segment name').fill(changed.name);
  await dialog(page).getByLabel('URL scope').fill(changed.urlScope);
  await dialog(page).getByRole('button', { name: 'Save segment' }).click();
  await expect(dialog(page).getByRole('button', { name: 'Save segment' })).toHaveCount(0);
  await expect(row).toContainText(changed.name);
  await expect(row).toContainText(changed.urlScope);

  await dialog(page)
    .getByRole('button', { name: `Remove segment ${changed.name}` })
    .click();
  await expect(row).toHaveCount(0);
}

/** In the open "Add a user" dialog: invites `email` to the websites named, and returns their row in the Users tab. */
export async function inviteUser(page: Page, email: string, websiteNames: readonly string[]): Promise<Locator> {
  await dialog(page).getByLabel('Email address').fill(email);
  await pickMany(page, 'Websites', websiteNames);
  await dialog(page).getByRole('button', { name: 'Send invitation' }).click();
  return page.getByTestId(`admin-user-${email}`);
}

/** The invited user in a browser context of their own, their password chosen through the emailed invitation link. */
export async function acceptInvitation(
  browser: Browser,
  email: string,
  password: string,
): Promise<{ context: BrowserContext; them: Page }> {
  // Signed out: a new context otherwise takes the stored session the test's own page was given.
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const them = await context.newPage();
  await setPasswordWithLink(them, await mailedToken(email, 'invite'), password);
  return { context, them };
}

/** From the user's row: emails them a reset link, which they follow to choose `password`. */
export async function resetPasswordByLink(page: Page, them: Page, email: string, password: string): Promise<void> {
  await rowAction(page, email, 'Email a password reset link');
  await setPasswordWithLink(them, await mailedToken(email, 'reset'), password);
}

/** Removes the user from the Users tab and sees their row go. */
export async function removeUser(page: Page, email: string): Promise<void> {
  await rowAction(page, email, 'Remove…');
  await dialog(page).getByRole('button', { name: 'Remove user' }).click();
  await expect(page.getByTestId(`admin-user-${email}`)).toHaveCount(0);
}
