import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseAdminArgs } from '../admin/commands.ts';
import { runAdminCommand } from '../admin/run-command.ts';
import { AUTO_APPROVAL_JOB } from '../jobs/auto-approval.ts';
import { registerCrawls } from '../app-db/crawls.ts';
import { CatchingMailer, TestClock, openStack, tempDir, writeCrawl, type Stack } from './auth-fixture.ts';
import { readableMail, startSmtpCatcher } from './helpers/smtp-catcher.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function open(dataDir: string, options: Parameters<typeof openStack>[1]): Promise<Stack> {
  const stack = await openStack(dataDir, options);
  cleanups.push(() => stack.close());
  return stack;
}

async function admin(stack: Stack, argv: string): Promise<void> {
  await runAdminCommand({ appDb: stack.state.appDb, now: new Date() }, parseAdminArgs(argv.split(' ')));
}

/** shop has two CLIENT users and a STAFF; blog has its own CLIENT, who must never hear about shop. */
async function addPeople(stack: Stack): Promise<void> {
  await admin(stack, 'website add --id blog --name Blog --domain blog.example');
  await admin(stack, 'user add --email c1@shop.example --password password-1 --role CLIENT --website shop');
  await admin(
    stack,
    'user add --email c2@shop.example --password password-2 --role CLIENT --website shop --website blog',
  );
  await admin(stack, 'user add --email other@blog.example --password password-3 --role CLIENT --website blog');
  await admin(stack, 'user add --email staff@agency.example --password password-4 --role STAFF');
}

const approvalsOf = (stack: Stack) =>
  stack.state.appDb.all<{ crawl_id: number; kind: string; approved_by: string }>(
    'SELECT crawl_id, kind, approved_by FROM approval_log ORDER BY crawl_id',
  );

describe('auto-approval schedule', () => {
  it('follows Tuesday 11:00 in London through summer time', async () => {
    const stack = await open(tempDir(), { clock: () => new Date('2025-03-03T09:00:00Z') });
    const { autoApproval } = stack.state;
    expect(autoApproval.nextRun(new Date('2025-03-03T09:00:00Z'))).toEqual(new Date('2025-03-04T11:00:00Z'));
    expect(autoApproval.nextRun(new Date('2025-03-04T11:00:00Z'))).toEqual(new Date('2025-03-11T11:00:00Z'));
    expect(autoApproval.nextRun(new Date('2025-03-26T12:00:00Z'))).toEqual(new Date('2025-04-01T10:00:00Z'));
    expect(autoApproval.nextRun(new Date('2025-07-07T00:00:00Z'))).toEqual(new Date('2025-07-08T10:00:00Z'));
    expect(autoApproval.lastDue(new Date('2025-07-08T10:00:00Z'))).toEqual(new Date('2025-07-08T10:00:00Z'));
    expect(autoApproval.lastDue(new Date('2025-07-08T09:59:59Z'))).toEqual(new Date('2025-07-01T10:00:00Z'));
  });

  it('runs once per Tuesday across restarts, catches up after downtime, and mails the clients once', async () => {
    const dataDir = tempDir();
    await writeCrawl(dataDir, {
      websiteId: 'shop',
      crawlId: 1,
      crawledAt: '2025-03-02T09:00:00Z',
      loadedAt: '2025-03-03T08:00:00Z',
    });
    await writeCrawl(dataDir, {
      websiteId: 'shop',
      crawlId: 2,
      crawledAt: '2025-03-03T06:00:00Z',
      loadedAt: '2025-03-03T08:30:00Z',
    });
    const clock = new TestClock(new Date('2025-03-03T09:00:00Z'));
    const mailer = new CatchingMailer();
    let stack = await open(dataDir, { clock: clock.fn, mailer });
    await addPeople(stack);

    // A fresh install does not make up runs from before it existed.
    expect(await stack.state.autoApproval.runDue()).toBeUndefined();
    clock.set('2025-03-04T10:59:59Z');
    expect(await stack.state.autoApproval.runDue()).toBeUndefined();
    expect(stack.state.moduleStateOf('shop', 1)).toBe('PENDING');

    // Loaded after 11:00: waits for the next Tuesday.
    await writeCrawl(dataDir, {
      websiteId: 'shop',
      crawlId: 3,
      crawledAt: '2025-03-04T06:00:00Z',
      loadedAt: '2025-03-04T11:00:30Z',
    });
    await stack.registry.refresh();
    await stack.state.sync();

    // Registered once, since removed from the store: stays pending, nobody is told.
    await stack.state.appDb.transaction((tx) =>
      registerCrawls(
        tx,
        [
          {
            websiteId: 'shop',
            crawlId: 9,
            moduleState: 'PENDING',
            crawledAt: new Date('2025-03-01T06:00:00Z'),
            crawledFriendly: '1 Mar 2025',
            loadedAt: new Date('2025-03-01T08:00:00Z'),
          },
        ],
        clock.now,
      ),
    );

    clock.set('2025-03-04T11:01:00Z');
    const [first, second] = await Promise.all([stack.state.autoApproval.runDue(), stack.state.autoApproval.runDue()]);
    expect(first).toEqual({
      scheduledFor: new Date('2025-03-04T11:00:00Z'),
      approved: [
        { websiteId: 'shop', crawlId: 1 },
        { websiteId: 'shop', crawlId: 2 },
      ],
    });
    expect(second).toBeUndefined();
    expect(stack.state.moduleStateOf('shop', 2)).toBe('APPROVED');
    expect(stack.state.moduleStateOf('shop', 3)).toBe('PENDING');
    expect(
      await stack.state.appDb.all("SELECT module_state FROM crawl_registry WHERE website_id = 'shop' AND crawl_id = 9"),
    ).toEqual([{ module_state: 'PENDING' }]);
    expect(await approvalsOf(stack)).toEqual([
      { crawl_id: 1, kind: 'automatic', approved_by: 'auto-approval' },
      { crawl_id: 2, kind: 'automatic', approved_by: 'auto-approval' },
    ]);
    await stack.state.approvals.deliverQueued();
    expect(mailer.sent.map((m) => `${m.to} ${m.subject}`).sort()).toEqual([
      'c1@shop.example Site shop: your technical health check of 2 Mar 2025 (crawl 1) is ready',
      'c1@shop.example Site shop: your technical health check of 3 Mar 2025 (crawl 2) is ready',
      'c2@shop.example Site shop: your technical health check of 2 Mar 2025 (crawl 1) is ready',
      'c2@shop.example Site shop: your technical health check of 3 Mar 2025 (crawl 2) is ready',
    ]);

    // Restarted around 11:00: the run is not repeated and nobody is mailed again.
    await stack.close();
    cleanups.pop();
    clock.set('2025-03-04T11:02:00Z');
    stack = await open(dataDir, { clock: clock.fn, mailer });
    await stack.state.startJobs();
    await stack.state.approvals.deliverQueued();
    expect(await approvalsOf(stack)).toHaveLength(2);
    expect(mailer.sent).toHaveLength(4);

    // Down over the next Tuesday: the missed run is made up at start-up, for crawls loaded before it.
    await stack.close();
    cleanups.pop();
    await writeCrawl(dataDir, {
      websiteId: 'shop',
      crawlId: 4,
      crawledAt: '2025-03-11T06:00:00Z',
      loadedAt: '2025-03-12T07:00:00Z',
    });
    clock.set('2025-03-12T08:00:00Z');
    stack = await open(dataDir, { clock: clock.fn, mailer });
    await stack.state.startJobs();
    expect(stack.state.moduleStateOf('shop', 3)).toBe('APPROVED');
    expect(stack.state.moduleStateOf('shop', 4)).toBe('PENDING');
    expect(
      await stack.state.appDb.all('SELECT scheduled_for, approved_count FROM job_runs ORDER BY scheduled_for'),
    ).toEqual([
      { scheduled_for: new Date('2025-03-04T11:00:00Z'), approved_count: 2 },
      { scheduled_for: new Date('2025-03-11T11:00:00Z'), approved_count: 1 },
    ]);
    await stack.state.approvals.deliverQueued();
    expect(
      mailer.sent
        .filter((m) => m.subject.includes('4 Mar 2025'))
        .map((m) => m.to)
        .sort(),
    ).toEqual(['c1@shop.example', 'c2@shop.example']);
    expect(mailer.sent).toHaveLength(6);
  });

  it('fires from its own timer at the scheduled minute', async () => {
    vi.useFakeTimers({ now: new Date('2025-03-04T10:59:00Z'), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const dataDir = tempDir();
    await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 1, loadedAt: '2025-03-01T08:00:00Z' });
    // The fake timers drive Date too, so the service's clock is the real one as far as it knows.
    const stack = await open(dataDir, { clock: () => new Date() });
    await stack.state.autoApproval.start();
    expect(stack.state.moduleStateOf('shop', 1)).toBe('PENDING');
    await vi.advanceTimersByTimeAsync(61_000);
    await vi.waitFor(async () =>
      expect(await stack.state.appDb.all('SELECT job FROM job_runs')).toEqual([{ job: AUTO_APPROVAL_JOB }]),
    );
    expect(stack.state.moduleStateOf('shop', 1)).toBe('APPROVED');
  });
});

describe('approval mail', () => {
  it('reaches a real SMTP server once per CLIENT user and crawl, with the date and a link to the overview', async () => {
    const smtp = await startSmtpCatcher();
    cleanups.push(() => smtp.close());
    const { port, received } = smtp;

    const dataDir = tempDir();
    await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 7, crawledAt: '2025-04-15T09:00:00Z' });
    await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 8, crawledAt: '2025-04-22T09:00:00Z' });
    const env = {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      SMTP_FROM: 'THC <thc@agency.example>',
      PUBLIC_URL: 'https://thc.agency.example/',
    };
    const stack = await open(dataDir, { clock: () => new Date(), env, mailer: undefined });
    await addPeople(stack);

    const approval = await stack.state.approvals.approve('shop', 7, 'staff@agency.example');
    expect(approval.isNew).toBe(true);
    expect((await stack.state.approvals.approve('shop', 7, 'staff@agency.example')).isNew).toBe(false);
    await stack.state.approvals.deliverQueued();
    await stack.state.approvals.approve('shop', 7, 'staff@agency.example');
    await stack.state.approvals.deliverQueued();

    expect(received.map((m) => m.to)).toEqual([['c1@shop.example'], ['c2@shop.example']]);
    expect(received.every((m) => m.from === 'thc@agency.example')).toBe(true);
    // Unfolded: a subject longer than a header line is folded onto the next.
    const message = readableMail(received[0]!.data);
    expect(message).toContain('Subject: Site shop: your technical health check of 15 Apr 2025 (crawl 7) is ready');
    expect(message).toContain('https://thc.agency.example/technical-health-check?website=shop&crawl=7');
    expect(await approvalsOf(stack)).toEqual([{ crawl_id: 7, kind: 'manual', approved_by: 'staff@agency.example' }]);

    // The next crawl is a new message; a restart resends nothing.
    await stack.state.approvals.approve('shop', 8, 'staff@agency.example');
    await stack.state.approvals.deliverQueued();
    await stack.close();
    cleanups.splice(cleanups.indexOf(cleanups.at(-1)!), 1);
    const again = await open(dataDir, { clock: () => new Date(), env, mailer: undefined });
    await again.state.startJobs();
    await again.state.approvals.deliverQueued();
    expect(received.map((m) => m.to[0])).toEqual([
      'c1@shop.example',
      'c2@shop.example',
      'c1@shop.example',
      'c2@shop.example',
    ]);
    expect(readableMail(received[2]!.data)).toContain('22 Apr 2025');
  });

  it('retries a failed send until it goes through, still once', async () => {
    const dataDir = tempDir();
    await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 1 });
    const mailer = new CatchingMailer();
    const stack = await open(dataDir, { clock: () => new Date(), mailer });
    await addPeople(stack);
    mailer.failures = 1;
    await stack.state.approvals.approve('shop', 1, 'staff@agency.example');
    await stack.state.approvals.idle();
    expect(mailer.sent.map((m) => m.to)).toEqual(['c2@shop.example']);
    expect(
      await stack.state.appDb.all('SELECT email, attempts, last_error FROM mail_log WHERE sent_at IS NULL'),
    ).toEqual([{ email: 'c1@shop.example', attempts: 1, last_error: 'SMTP is down' }]);
    await stack.state.approvals.deliverQueued();
    await stack.state.approvals.deliverQueued();
    expect(mailer.sent.map((m) => m.to).sort()).toEqual(['c1@shop.example', 'c2@shop.example']);
  });

  it('writes .eml files to DATA_DIR/outbox when no SMTP server is configured', async () => {
    const dataDir = tempDir();
    await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 3, crawledAt: '2025-01-03T09:00:00Z' });
    const stack = await open(dataDir, { clock: () => new Date(), env: {}, mailer: undefined });
    await addPeople(stack);
    await stack.state.approvals.approve('shop', 3, 'staff@agency.example');
    await stack.state.approvals.deliverQueued();
    const outbox = path.join(dataDir, 'outbox');
    const files = fs.readdirSync(outbox).sort();
    expect(files).toHaveLength(2);
    expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
    const messages = files.map((f) => readableMail(fs.readFileSync(path.join(outbox, f), 'utf8')));
    expect(messages.map((m) => /^To: (.+)$/m.exec(m)?.[1]).sort()).toEqual(['c1@shop.example', 'c2@shop.example']);
    expect(messages[0]).toContain('3 Jan 2025');
    expect(messages[0]).toContain('http://localhost:8080/technical-health-check?website=shop&crawl=3');
  });
});
