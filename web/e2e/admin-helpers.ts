/** Steps of the administration browser tests: open a tab, act on a row, read a one-time link from the outbox. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

/** The service's DATA_DIR (playwright.config.ts): with no SMTP server set, mail lands in its outbox. */
const DATA_DIR = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), 'thc-e2e-data');

export type AdminTab = 'Websites' | 'Users' | 'Sessions' | 'Audit log';

export async function openAdmin(page: Page, tab: AdminTab = 'Websites'): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Administration' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible();
  await page.getByRole('tab', { name: tab }).click();
}

/** Opens a row's actions menu and picks one. */
export async function rowAction(page: Page, subject: string, action: string | RegExp): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${subject}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
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

/** In the open Segments dialog: adds a segment with a URL scope, sees it listed, and removes it again. */
export async function addAndRemoveSegment(page: Page, segment: { id: string; name: string; urlScope: string }) {
  await dialog(page).getByRole('button', { name: 'Add segment' }).click();
  await dialog(page).getByLabel('Segment id').fill(segment.id);
  await dialog(page).getByLabel('Segment name').fill(segment.name);
  await dialog(page).getByLabel('URL scope').fill(segment.urlScope);
  await dialog(page).getByRole('button', { name: 'Add segment' }).click();
  const row = dialog(page).getByTestId(`admin-segment-${segment.id}`);
  await expect(row).toContainText(segment.urlScope);
  await dialog(page)
    .getByRole('button', { name: `Remove segment ${segment.name}` })
    .click();
  await expect(row).toHaveCount(0);
}
