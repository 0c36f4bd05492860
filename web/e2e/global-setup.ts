/**
 * Signs each test role in once and keeps its session for the tests (the service limits sign-ins to 10 per
 * 15 minutes per address), and adds the websites the crawl-state tests need through the admin API.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, request, type FullConfig } from '@playwright/test';
import { AUTH_DIR, SECTION, authFile, extra, logins, websites, type Role } from './helpers.ts';

export default async function globalSetup(config: FullConfig): Promise<void> {
  const use = config.projects[0]!.use;
  const baseURL = use.baseURL!;
  fs.mkdirSync(AUTH_DIR, { recursive: true });

  const admin = await request.newContext({ baseURL });
  const login = await admin.post('/api/auth/login', { data: logins.admin });
  if (!login.ok()) throw new Error(`admin sign-in failed: ${login.status()}`);
  const { csrfToken } = (await login.json()) as { csrfToken: string };
  const run = async (command: Record<string, unknown>): Promise<void> => {
    const answer = await admin.post('/api/admin/run', { data: { command }, headers: { 'x-csrf-token': csrfToken } });
    if (!answer.ok() && answer.status() !== 409)
      throw new Error(`admin ${String(command.command)}: ${await answer.text()}`);
  };
  await run({ command: 'website add', ...extra.inactive });
  await run({ command: 'module remove', website: extra.inactive.id, module: 'technical-health-check' }).catch(() => {});
  await run({ command: 'website add', ...extra.empty });
  await run({ command: 'user add', ...extra.emptyClient, role: 'CLIENT', websites: [extra.empty.id] });

  // The demo publishes Northwind's older crawls and leaves its two newest pending (one for the approve test, the
  // newest for the staff pending views); Alpine stays pending. Approving here keeps the suite independent of that.
  const crawls = (await (
    await admin.post('/api/technical-health-check/crawl/get-redux', {
      data: { websiteId: websites.northwind.id },
      headers: { 'x-csrf-token': csrfToken },
    })
  ).json()) as { id: string; crawlId: number; moduleState: string }[];
  for (const crawl of crawls.slice(2)) {
    if (crawl.moduleState === 'APPROVED') continue;
    const answer = await admin.post('/api/technical-health-check/crawl/approve', {
      data: { moduleId: crawl.id, websiteId: websites.northwind.id },
      headers: { 'x-csrf-token': csrfToken },
    });
    if (!answer.ok()) throw new Error(`approving ${crawl.id}: ${answer.status()} ${await answer.text()}`);
  }
  await admin.dispose();

  const browser = await chromium.launch(use.launchOptions);
  const accounts: Record<Role, { email: string; password: string }> = {
    staff: logins.staff,
    client: logins.client,
    alpineClient: logins.alpineClient,
    emptyClient: extra.emptyClient,
  };
  for (const [role, account] of Object.entries(accounts) as [Role, { email: string; password: string }][]) {
    const page = await browser.newPage({ baseURL });
    await page.goto(SECTION);
    await page.getByLabel('Email address').fill(account.email);
    await page.locator('input[name=password]').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Technical Health Check' }).waitFor();
    await page.context().storageState({ path: authFile(role) });
    await page.close();
  }
  await browser.close();
  fs.writeFileSync(path.join(AUTH_DIR, 'ready'), new Date().toISOString());
}
