/**
 * The dashboard over plain HTTP under a host name that is not localhost, as on an office server without https:
 * no console error (no header that only makes sense over https). Chromium maps the made-up name to 127.0.0.1 and
 * uses no proxy, so nothing leaves the machine.
 */
import { expect, test } from '@playwright/test';
import config from '../../playwright.config.ts';
import { SECTION, logins, signIn, waitForOverview, watchProblems, websites } from './helpers.ts';

const HOST = 'thc-plain-http.test';
const launchOptions = config.use!.launchOptions!;

test.use({
  launchOptions: {
    ...launchOptions,
    args: [...launchOptions.args!, `--host-resolver-rules=MAP ${HOST} 127.0.0.1`, '--no-proxy-server'],
  },
});

test('sign-in and overview over http://<host name> log no console error', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!);
  origin.hostname = HOST;
  const problems = watchProblems(page);
  await signIn(page, logins.staff, new URL(`${SECTION}?website=${websites.northwind.id}`, origin).href);
  await waitForOverview(page);
  expect(new URL(page.url()).hostname).toBe(HOST);
  expect(problems()).toEqual([]);
});
