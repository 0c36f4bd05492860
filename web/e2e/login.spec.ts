/** The login page under the sign-in limits, and where a STAFF user lands. */
import { expect, test } from '@playwright/test';
import { SECTION, logins, query, signIn, websites } from './helpers.ts';

test('shows the real wait from Retry-After once sign-ins from this address to an account are limited', async ({
  page,
}) => {
  const email = 'e2e-limited@thc.example';
  let status = 401;
  for (let tries = 0; status === 401 && tries < 20; tries++)
    status = (await page.request.post('/api/auth/login', { data: { email, password: 'wrong-password' } })).status();
  expect(status).toBe(429);

  await page.goto(SECTION);
  await page.getByLabel('Email address').fill(email);
  await page.locator('input[name=password]').fill('wrong-password');
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/auth/login')),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  expect(answer.status()).toBe(429);
  const seconds = Number(answer.headers()['retry-after']);
  expect(seconds).toBeGreaterThan(1);
  expect(seconds).toBeLessThan(60);
  await expect(page.getByRole('alert')).toHaveText(
    `Too many sign-in attempts. Please wait ${seconds} seconds and try again.`,
  );
});

test('a STAFF user lands on the website bound to them and is offered no other', async ({ page }) => {
  await signIn(page, logins.alpineStaff);
  await expect.poll(() => query(page).get('website')).toBe(websites.alpine.id);
  await expect(page.getByTestId('website-name')).toContainText(websites.alpine.name);
  await expect(page.getByRole('combobox', { name: 'Website' })).toHaveCount(0);
});
