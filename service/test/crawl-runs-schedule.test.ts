/**
 * Weekly crawl schedules with an injected clock: the next run in Europe/London across summer time, a due time that
 * queues one run however many schedulers look (two replicas over one PostgreSQL server in the `postgres` project),
 * no firing of a time already past when the schedule is saved, catching up only the latest time missed during
 * downtime, and a scheduled run crawled and loaded by the runner.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  defaultCrawlSettings,
  type CrawlRun,
  type CrawlRunsAnswer,
  type CrawlSettings,
  type CrawlSettingsAnswer,
} from '../../catalog/crawl-runs.ts';
import { listRuns, queueRun } from '../crawl-runs/runs.ts';
import { nextDue, queueDueRuns } from '../crawl-runs/schedule.ts';
import { startChainSite, type ChainSite } from './helpers/chain-site.ts';
import { loadTestCrawl, openSignedInApp, openStack, post, tempDir, type SignedInApp } from './auth-fixture.ts';

let signedIn: SignedInApp<'staff'>;
let site: ChainSite;

beforeAll(async () => {
  const dataDir = tempDir('thc-crawl-schedule-');
  await loadTestCrawl(dataDir, 'shop', 1, '2026-03-01T09:00:00Z');
  signedIn = await openSignedInApp(dataDir, '2026-03-23T09:00:00Z', ['staff']);
  site = await startChainSite({ pages: 10, delayMs: 0 });
});
afterAll(async () => {
  await signedIn?.close();
  await site?.stop();
});

const settingsWith = (schedule: CrawlSettings['schedule']): CrawlSettings => ({
  ...defaultCrawlSettings('shop.example'),
  startUrl: site.url,
  schedule,
});

async function save(websiteId: 'shop', schedule: CrawlSettings['schedule']): Promise<CrawlSettingsAnswer> {
  const response = await post(signedIn.app, '/api/crawl-runs/save-settings', signedIn.sessions.staff, {
    websiteId,
    settings: settingsWith(schedule),
  });
  expect(response.statusCode).toBe(200);
  return response.json<CrawlSettingsAnswer>();
}

/** When the website's scheduled runs were queued, newest first. */
const scheduledOf = async (websiteId: string): Promise<string[]> =>
  (await listRuns(signedIn.stack.state.appDb, websiteId))
    .filter((r) => r.trigger === 'schedule')
    .map((r) => r.queuedAt);

describe('the next scheduled run', () => {
  it('is in Europe/London, across the changes to and from summer time', () => {
    const monday = { day: 'monday', time: '06:00' } as const;
    // BST starts on Sunday 29 March 2026 and ends on Sunday 25 October 2026.
    expect(nextDue(monday, new Date('2026-03-25T12:00:00Z'))?.toISOString()).toBe('2026-03-30T05:00:00.000Z');
    expect(nextDue(monday, new Date('2026-03-20T12:00:00Z'))?.toISOString()).toBe('2026-03-23T06:00:00.000Z');
    expect(nextDue(monday, new Date('2026-10-21T12:00:00Z'))?.toISOString()).toBe('2026-10-26T06:00:00.000Z');
    expect(nextDue(monday, new Date('2026-10-19T04:59:00Z'))?.toISOString()).toBe('2026-10-19T05:00:00.000Z');
    const sunday = { day: 'sunday', time: '23:30' } as const;
    expect(nextDue(sunday, new Date('2026-03-25T12:00:00Z'))?.toISOString()).toBe('2026-03-29T22:30:00.000Z');
    expect(nextDue(null, new Date('2026-03-25T12:00:00Z'))).toBeNull();
  });

  it('is what get-settings and list answer once the schedule is saved', async () => {
    signedIn.clock.set('2026-03-23T09:00:00Z');
    expect((await save('shop', { day: 'tuesday', time: '09:15' })).nextRunAt).toBe('2026-03-24T09:15:00.000Z');
    const list = await post(signedIn.app, '/api/crawl-runs/list', signedIn.sessions.staff, { websiteId: 'shop' });
    expect(list.json<CrawlRunsAnswer>().nextRunAt).toBe('2026-03-24T09:15:00.000Z');
    expect(list.json<CrawlRunsAnswer>().now).toBe('2026-03-23T09:00:00.000Z');
    expect((await save('shop', null)).nextRunAt).toBeNull();
  });
});

describe('a due time', () => {
  it('is not fired by saving a schedule whose time has just passed; the next one fires once', async () => {
    const { appDb } = signedIn.stack.state;
    signedIn.clock.set('2026-03-23T09:00:00Z'); // Monday, 09:00 GMT
    await save('shop', { day: 'monday', time: '06:00' });
    expect(await queueDueRuns(appDb, signedIn.clock.now)).toEqual([]);
    signedIn.clock.set('2026-03-30T04:59:59Z');
    expect(await queueDueRuns(appDb, signedIn.clock.now)).toEqual([]);
    signedIn.clock.set('2026-03-30T05:00:00Z'); // 06:00 BST
    const fired = await queueDueRuns(appDb, signedIn.clock.now);
    expect(fired.map((r) => [r.website_id, r.trigger, r.started_by, r.scheduled_for?.toISOString()])).toEqual([
      ['shop', 'schedule', null, '2026-03-30T05:00:00.000Z'],
    ]);
    // Later looks at the same time queue nothing, even after the run has ended.
    signedIn.clock.set('2026-03-30T05:00:02Z');
    expect(await queueDueRuns(appDb, signedIn.clock.now)).toEqual([]);
    await appDb.run(`UPDATE crawl_runs SET status = 'cancelled' WHERE id = $1`, [fired[0]!.id]);
    expect(await queueDueRuns(appDb, signedIn.clock.now)).toEqual([]);
    expect(await scheduledOf('shop')).toEqual(['2026-03-30T05:00:00.000Z']);
  });

  it('queues one run whatever the number of schedulers looking at once', async () => {
    const serverUrl = inject('postgresUrl');
    signedIn.clock.set('2026-04-06T05:00:01Z');
    // Over PostgreSQL a second replica has its own connection to the same database; embedded, one database serves.
    const replica = serverUrl ? await openStack(signedIn.stack.dataDir, { clock: signedIn.clock.fn }) : undefined;
    try {
      const dbs = [signedIn.stack.state.appDb, replica?.state.appDb ?? signedIn.stack.state.appDb];
      const fired = await Promise.all([...dbs, ...dbs].map((db) => queueDueRuns(db, signedIn.clock.now)));
      expect(fired.flat().map((r) => r.scheduled_for?.toISOString())).toEqual(['2026-04-06T05:00:00.000Z']);
    } finally {
      await replica?.close();
    }
    expect(await scheduledOf('shop')).toEqual(['2026-04-06T05:00:01.000Z', '2026-03-30T05:00:00.000Z']);
    await signedIn.stack.state.appDb.run(`UPDATE crawl_runs SET status = 'cancelled' WHERE status = 'queued'`);
  });

  it('missed during downtime, only the latest is made up', async () => {
    const { appDb } = signedIn.stack.state;
    // Down from before 13 April 06:00 until Wednesday 22 April: 13 and 20 April were missed.
    signedIn.clock.set('2026-04-22T10:00:00Z');
    const fired = await queueDueRuns(appDb, signedIn.clock.now);
    expect(fired.map((r) => r.scheduled_for?.toISOString())).toEqual(['2026-04-20T05:00:00.000Z']);
    expect(await queueDueRuns(appDb, signedIn.clock.now)).toEqual([]);
    await appDb.run(`UPDATE crawl_runs SET status = 'cancelled' WHERE status = 'queued'`);
  });

  it('waits while a crawl of the website is queued or running, then queues its run', async () => {
    const { appDb } = signedIn.stack.state;
    signedIn.clock.set('2026-04-27T04:00:00Z');
    const manual = await queueRun(appDb, {
      websiteId: 'shop',
      trigger: 'manual',
      startedBy: 'staff@agency.example',
      scheduledFor: null,
      settings: settingsWith(null),
      now: signedIn.clock.now,
    });
    signedIn.clock.set('2026-04-27T05:00:00Z');
    expect(await queueDueRuns(appDb, signedIn.clock.now)).toEqual([]);
    await appDb.run(`UPDATE crawl_runs SET status = 'cancelled' WHERE id = $1`, [manual!.id]);
    signedIn.clock.set('2026-04-27T05:00:02Z');
    const fired = await queueDueRuns(appDb, signedIn.clock.now);
    expect(fired.map((r) => r.scheduled_for?.toISOString())).toEqual(['2026-04-27T05:00:00.000Z']);
    await appDb.run(`UPDATE crawl_runs SET status = 'cancelled' WHERE status = 'queued'`);
  });
});

describe('the runner', () => {
  it('queues a scheduled run when its time comes, crawls it and loads it', async () => {
    const { state } = signedIn.stack;
    signedIn.clock.set('2026-05-04T04:59:58Z');
    await state.startJobs();
    expect(await scheduledOf('shop')).toHaveLength(4);
    signedIn.clock.set('2026-05-04T05:00:00Z');
    state.crawlRunner.kick();
    const deadline = Date.now() + 60_000;
    let run: CrawlRun | undefined;
    while (Date.now() < deadline) {
      run = (await listRuns(state.appDb, 'shop'))[0];
      if (run?.status === 'loaded' || run?.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(run).toMatchObject({ trigger: 'schedule', startedBy: null, status: 'loaded', crawlId: 2 });
    expect(signedIn.stack.registry.crawls('shop').map((c) => c.crawlId)).toEqual([2, 1]);
  });
});
