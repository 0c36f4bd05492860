/**
 * Signs each test role in once and keeps its session for the tests, adds the websites the crawl-state tests need
 * through the admin API (binding the staff login to them and to Alpine, which the tests switch to), and loads the big
 * and the same-day crawls into the running service's store when scripts/run-e2e.ts has not prepared them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, request, type APIRequestContext, type FullConfig } from '@playwright/test';
import { loadBigSite, loadSameDaySite } from './demo-data.ts';
import { AUTH_DIR, SECTION, authFile, extra, logins, websites, type Role } from './helpers.ts';

interface CrawlState {
  id: string;
  crawlId: number;
  moduleState: string;
}

async function crawlStates(admin: APIRequestContext, csrfToken: string, websiteId: string): Promise<CrawlState[]> {
  const answer = await admin.post('/api/technical-health-check/crawl/get-redux', {
    data: { websiteId },
    headers: { 'x-csrf-token': csrfToken },
  });
  return answer.ok() ? ((await answer.json()) as CrawlState[]) : [];
}

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

  await run({ command: 'website add', id: extra.big.id, name: extra.big.name, domain: extra.big.domain });
  const { sameDay } = extra;
  await run({ command: 'website add', id: sameDay.id, name: sameDay.name, domain: sameDay.domain });
  await run({
    command: 'user bind',
    email: logins.staff.email,
    websites: [websites.alpine.id, extra.inactive.id, extra.empty.id, extra.big.id, sameDay.id],
  });
  const dataDir = config.webServer?.env?.DATA_DIR;
  if (!dataDir) throw new Error('playwright.config.ts sets no DATA_DIR for the service');
  await loadBigSite(dataDir, (line) => console.log(line));
  await loadSameDaySite(dataDir);

  // The demo publishes Northwind's older crawls and leaves its two newest pending (one for the approve test, the
  // newest for the staff pending views); Alpine stays pending. Approving here keeps the suite independent of that.
  const approve = async (websiteId: string, crawls: CrawlState[]): Promise<void> => {
    for (const crawl of crawls) {
      if (crawl.moduleState === 'APPROVED') continue;
      const answer = await admin.post('/api/technical-health-check/crawl/approve', {
        data: { moduleId: crawl.id, websiteId },
        headers: { 'x-csrf-token': csrfToken },
      });
      if (!answer.ok()) throw new Error(`approving ${crawl.id}: ${answer.status()} ${await answer.text()}`);
    }
  };
  await approve(websites.northwind.id, (await crawlStates(admin, csrfToken, websites.northwind.id)).slice(2));
  // The service picks new loads up from its store every few seconds.
  let big: CrawlState[] = [];
  for (let tries = 0; big.length === 0 && tries < 60; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    big = await crawlStates(admin, csrfToken, extra.big.id);
  }
  if (big.length === 0) throw new Error(`the service did not pick up the crawl of ${extra.big.id}`);
  await approve(extra.big.id, big);
  let sameDayCrawls: CrawlState[] = [];
  for (let tries = 0; sameDayCrawls.length < sameDay.crawls.length && tries < 60; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    sameDayCrawls = await crawlStates(admin, csrfToken, sameDay.id);
  }
  if (sameDayCrawls.length < sameDay.crawls.length)
    throw new Error(`the service did not pick up the crawls of ${sameDay.id}`);
  await approve(sameDay.id, sameDayCrawls);
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
