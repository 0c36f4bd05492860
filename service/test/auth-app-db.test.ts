import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppDb } from '../app-db/db.ts';
import { migrations } from '../app-db/migrations.ts';
import { listWebsites } from '../app-db/websites.ts';
import { UsageError, parseAdminArgs } from '../admin/commands.ts';
import { runAdminCommand } from '../admin/run-command.ts';
import { AppDataError } from '../app-db/errors.ts';
import { findUserByEmail } from '../app-db/users.ts';
import { verifyPassword } from '../auth/password.ts';
import {
  CatchingMailer,
  TestClock,
  openStack,
  tempDir,
  testAppDbLocation,
  writeCrawl,
  type Stack,
} from './auth-fixture.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openDb(file: string, options?: Parameters<typeof AppDb.open>[1]): Promise<AppDb> {
  const db = await AppDb.open(file, options);
  cleanups.push(() => db.close());
  return db;
}

describe('migrations', () => {
  it('upgrades a database written by an older version and keeps its data', async () => {
    const file = await testAppDbLocation(tempDir());
    const old = await AppDb.open(file, { migrations: migrations.slice(0, 1) });
    await old.run(
      `INSERT INTO users (email, password_hash, role, created_at) VALUES ('a@x.example', 'h', 'STAFF', ?)`,
      [new Date()],
    );
    await old.run(`INSERT INTO websites VALUES ('site', 'Site', 'site.example', ?)`, [new Date()]);
    await expect(old.all('SELECT * FROM crawl_registry')).rejects.toThrow(/crawl_registry/);
    await old.close();

    const db = await openDb(file);
    const versions = await db.all<{ version: number; name: string }>(
      'SELECT version, name FROM schema_migrations ORDER BY version',
    );
    expect(versions).toEqual(migrations.map((m) => ({ version: m.version, name: m.name })));
    expect(await db.all('SELECT email, role FROM users')).toEqual([{ email: 'a@x.example', role: 'STAFF' }]);
    expect(await db.all('SELECT id FROM websites')).toEqual([{ id: 'site' }]);
    expect(await db.all('SELECT count(*)::INTEGER AS n FROM checklist_items')).toEqual([{ n: 0 }]);
  });

  it('applies nothing twice and refuses an edited or unknown migration', async () => {
    const file = await testAppDbLocation(tempDir());
    await (await AppDb.open(file)).close();
    await (await AppDb.open(file)).close();
    const edited = migrations.map((m, i) => (i === 0 ? { ...m, sql: `${m.sql}\n-- edited` } : m));
    await expect(AppDb.open(file, { migrations: edited })).rejects.toThrow(/was changed after it was applied/);
    await expect(AppDb.open(file, { migrations: migrations.slice(0, 2) })).rejects.toThrow(/newer than this build/);
    const db = await openDb(file);
    expect(await db.all('SELECT count(*)::INTEGER AS n FROM schema_migrations')).toEqual([{ n: migrations.length }]);
  });

  it('applies a migration numbered below one already applied (branches reserve their numbers) and refuses disorder', async () => {
    const file = await testAppDbLocation(tempDir());
    const first = migrations[0]!;
    const later = { version: 7, name: 'later', sql: 'CREATE TABLE later_t (i INT)' };
    const between = { version: 3, name: 'between', sql: 'CREATE TABLE between_t (i INT)' };
    await (await AppDb.open(file, { migrations: [first, later] })).close();
    const db = await openDb(file, { migrations: [first, between, later] });
    expect(await db.all('SELECT version, name FROM schema_migrations ORDER BY version')).toEqual([
      { version: 1, name: first.name },
      { version: 3, name: 'between' },
      { version: 7, name: 'later' },
    ]);
    expect(await db.all('SELECT count(*)::INTEGER AS n FROM between_t')).toEqual([{ n: 0 }]);
    await expect(
      AppDb.open(await testAppDbLocation(tempDir()), { migrations: [first, later, between] }),
    ).rejects.toThrow(/between has version 3, expected more than 7/);
  });

  it('rolls back a failing migration as a whole', async () => {
    const file = await testAppDbLocation(tempDir());
    const broken = [
      ...migrations,
      { version: (migrations.at(-1)?.version ?? 0) + 1, name: 'broken', sql: 'CREATE TABLE t (i INT); SELECT nope' },
    ];
    await expect(AppDb.open(file, { migrations: broken })).rejects.toThrow();
    const db = await openDb(file, { migrations: migrations.slice(0, 1) });
    expect(await db.all('SELECT version FROM schema_migrations')).toEqual([{ version: 1 }]);
  });
});

describe('crawl registry sync', () => {
  it('registers new websites with defaults and new crawls in their loader state, keeping later decisions', async () => {
    const dataDir = tempDir();
    await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 1, moduleState: 'APPROVED' });
    await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 2 });
    const clock = new TestClock(new Date('2025-02-01T10:00:00Z'));
    const stack: Stack = await openStack(dataDir, { clock: clock.fn });
    cleanups.push(() => stack.close());
    const { state } = stack;

    const [shop] = await listWebsites(state.appDb);
    expect(shop).toMatchObject({
      id: 'shop',
      name: 'Site shop',
      domain: 'shop.example',
      segments: [{ id: 'all', isDefault: true, urlScope: null, isHreflang: false, isAi: false, goalType: null }],
    });
    expect(shop!.modules.find((m) => m.module === 'technical-health-check')).toEqual({
      module: 'technical-health-check',
      isActive: true,
    });
    expect(state.moduleStateOf('shop', 1)).toBe('APPROVED');
    expect(state.moduleStateOf('shop', 2)).toBe('PENDING');
    expect(state.moduleStateOf('shop', 99)).toBe('PENDING');

    await state.approvals.approve('shop', 2, 'staff@x.example');
    await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 3 });
    await writeCrawl(dataDir, { websiteId: 'blog', crawlId: 1 });
    await stack.registry.refresh();
    await vi.waitFor(() => expect(state.states.get('blog', 1)).toBeDefined());
    expect(state.moduleStateOf('shop', 3)).toBe('PENDING');
    expect(state.moduleStateOf('shop', 2)).toBe('APPROVED');
    expect((await listWebsites(state.appDb)).map((w) => w.id)).toEqual(['blog', 'shop']);

    // A restart keeps the app database's decision over crawl.json's initial state.
    await stack.close();
    cleanups.pop();
    const again = await openStack(dataDir, { clock: clock.fn });
    cleanups.push(() => again.close());
    expect(again.state.moduleStateOf('shop', 2)).toBe('APPROVED');
    expect(again.state.states.get('shop', 2)?.approvedBy).toBe('staff@x.example');
  });
});

describe('admin commands', () => {
  const run = async (db: AppDb, argv: string | string[]) =>
    runAdminCommand({ appDb: db, now: new Date() }, parseAdminArgs(Array.isArray(argv) ? argv : argv.split(' ')));

  it('parses every command and refuses bad usage with one line', () => {
    expect(
      parseAdminArgs([
        'user',
        'add',
        '--email',
        'A@X.example',
        '--password',
        'secret-pw',
        '--role',
        'CLIENT',
        '--website',
        'a',
        '--website',
        'b',
      ]),
    ).toEqual({
      command: 'user add',
      email: 'a@x.example',
      password: 'secret-pw',
      role: 'CLIENT',
      websites: ['a', 'b'],
    });
    expect(
      parseAdminArgs(
        'segment add --website a --id de --name German --url-scope https://a.example/de/ --hreflang --goal conversion'.split(
          ' ',
        ),
      ),
    ).toEqual({
      command: 'segment add',
      website: 'a',
      id: 'de',
      name: 'German',
      urlScope: 'https://a.example/de/',
      isHreflang: true,
      isAi: false,
      goal: 'conversion',
    });
    expect(parseAdminArgs('module set --website a --module carbon-footprint --flag'.split(' '))).toMatchObject({
      flag: true,
      setupId: null,
    });
    const usage = (argv: string) => {
      try {
        parseAdminArgs(argv.split(' ').filter(Boolean));
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error(`"${argv}" parsed`);
    };
    expect(usage('')).toMatch(/no command/);
    expect(usage('user frobnicate')).toMatch(/unknown command "user frobnicate"/);
    expect(usage('user add --email a@x.example --password secret-pw')).toBe('user add: --role is required');
    expect(usage('user add --email a@x.example --password short --role STAFF')).toMatch(/--password: at least 8/);
    expect(usage('user add --email nope --password secret-pw --role STAFF')).toMatch(/--email/);
    expect(usage('user add --email a@x.example --password secret-pw --role BOSS')).toMatch(/--role/);
    expect(usage('user list --verbose')).toMatch(/user list: Unknown option '--verbose'/);
    expect(usage('module set --website a --module uptime-report --flag')).toMatch(
      /--flag applies to carbon-footprint only/,
    );
    expect(usage('module set --website a --module carbon-footprint --setup-id x')).toMatch(/--setup-id applies/);
    expect(usage('segment add --website a --id x --name X --goal revenue')).toMatch(/--goal/);
    expect(usage('segment set --website a --id x')).toMatch(/^segment set: nothing to change/);
    expect(usage('segment set --website a --id x --goal revenue')).toMatch(/--goal/);
    expect(parseAdminArgs('segment set --website a --id x --no-ai --goal none'.split(' '))).toEqual({
      command: 'segment set',
      website: 'a',
      id: 'x',
      isAi: false,
      goal: null,
    });
    for (const argv of ['', 'user add --email a@x.example --password secret-pw', 'user list --verbose'])
      expect(usage(argv)).not.toContain('\n');
  });

  it('manages users, websites, segments and modules', async () => {
    const db = await openDb(await testAppDbLocation(tempDir()));
    expect(await run(db, 'website add --id shop --name Shop --domain shop.example')).toMatch(/Added website shop/);
    await expect(run(db, 'website add --id shop --name Shop --domain shop.example')).rejects.toThrow(
      new AppDataError('Website shop already exists', 409),
    );
    await expect(run(db, 'user add --email c@x.example --password secret-pw --role CLIENT')).rejects.toThrow(
      /at least one website/,
    );
    await expect(
      run(db, 'user add --email c@x.example --password secret-pw --role CLIENT --website nope'),
    ).rejects.toThrow('Website nope does not exist');
    await expect(
      run(db, 'user add --email a@x.example --password secret-pw --role ADMIN --website shop'),
    ).rejects.toThrow(/ADMIN users see every website; only CLIENT and STAFF users are bound/);
    await run(db, 'user add --email C@X.example --password secret-pw --role CLIENT --website shop');
    await run(db, 'user add --email s@x.example --password secret-pw --role STAFF --website shop');
    await run(db, 'user add --email new@x.example --password secret-pw --role STAFF');
    await run(db, 'user add --email a@x.example --password secret-pw --role ADMIN');
    await expect(run(db, 'user add --email c@x.example --password other-pw1 --role STAFF')).rejects.toThrow(
      /already exists/,
    );
    await expect(run(db, 'user bind --email a@x.example --website shop')).rejects.toThrow(
      /ADMIN users see every website/,
    );
    expect(await run(db, 'user list')).toBe(
      'a@x.example\tADMIN\t-\nc@x.example\tCLIENT\tshop\nnew@x.example\tSTAFF\t-\ns@x.example\tSTAFF\tshop',
    );

    await run(db, 'user password --email c@x.example --password new-secret');
    const client = await findUserByEmail(db, 'c@x.example');
    expect(await verifyPassword('new-secret', client!.password_hash)).toBe(true);
    expect(client!.password_hash).not.toContain('new-secret');

    await run(
      db,
      'segment add --website shop --id blog --name Blog --url-scope https://shop.example/blog/ --ai --goal ecommerce',
    );
    await expect(run(db, 'segment add --website shop --id blog --name Blog')).rejects.toThrow(
      new AppDataError(
        'Website shop already has a segment blog; change it with `segment set --website shop --id blog` and the options to change',
        409,
      ),
    );
    expect(await run(db, [...'segment set --website shop --id blog --name'.split(' '), 'Blog posts'])).toBe(
      'Changed segment blog of shop: Blog posts; scope https://shop.example/blog/; hreflang off; AI on; goal ecommerce',
    );
    expect(await run(db, 'segment set --website shop --id blog --no-ai --goal none --hreflang')).toBe(
      'Changed segment blog of shop: Blog posts; scope https://shop.example/blog/; hreflang on; AI off; goal none',
    );
    await expect(run(db, 'segment set --website shop --id all --url-scope https://shop.example/x/')).rejects.toThrow(
      /default segment covers the whole site/,
    );
    await expect(run(db, 'segment set --website shop --id nope --ai')).rejects.toThrow(
      new AppDataError('Website shop has no segment nope', 404),
    );
    await expect(run(db, 'segment remove --website shop --id all')).rejects.toThrow(
      /default segment cannot be removed/,
    );
    await run(db, 'module set --website shop --module uptime-report');
    await run(db, 'module set --website shop --module additional-health-check --setup-id lw-1');
    await run(db, 'module set --website shop --module carbon-footprint --flag');
    const [shop] = await listWebsites(db);
    expect(shop!.segments.map((s) => [s.id, s.name, s.isAi])).toEqual([
      ['all', 'All pages', false],
      ['blog', 'Blog posts', false],
    ]);
    expect(shop!.modules).toEqual([
      { module: 'technical-health-check', isActive: true },
      { module: 'additional-health-check', isActive: true },
      { module: 'uptime-report', isActive: false, reason: 'missing-setup-id' },
      { module: 'carbon-footprint', isActive: true },
    ]);
    await run(db, 'module remove --website shop --module carbon-footprint');
    await run(db, 'segment remove --website shop --id blog');
    expect(await run(db, 'website list')).toContain('module carbon-footprint: inactive (missing-module)');
    await expect(run(db, 'module remove --website shop --module carbon-footprint')).rejects.toThrow(
      /has no carbon-footprint/,
    );

    await run(db, 'website add --id blog --name Blog --domain blog.example');
    await run(db, 'user bind --email c@x.example --website blog');
    await run(db, 'user bind --email new@x.example --website blog');
    await run(db, 'user unbind --email s@x.example --website shop');
    expect(await run(db, 'user list')).toContain('new@x.example\tSTAFF\tblog\ns@x.example\tSTAFF\t-');
    await run(db, 'user unbind --email c@x.example --website shop');
    await expect(run(db, 'user unbind --email c@x.example --website blog')).rejects.toThrow(/at least one website/);
    await run(db, 'user remove --email c@x.example');
    await run(db, 'user remove --email new@x.example');
    await expect(run(db, 'user remove --email c@x.example')).rejects.toThrow('No user has the email c@x.example');
    expect(await db.all('SELECT * FROM user_websites')).toEqual([]);
  });
});

describe('demo accounts', () => {
  it('seeds the demo websites and logins once, and reports those still on their demo password', async () => {
    const dataDir = tempDir();
    for (const crawlId of [1, 2, 3, 4]) await writeCrawl(dataDir, { websiteId: 'northwind-outfitters', crawlId });
    const clock = new TestClock(new Date('2025-02-01T10:00:00Z'));
    const empty = await openStack(tempDir(), { clock: clock.fn, isDemo: false });
    expect(await empty.state.appDb.all('SELECT * FROM users')).toEqual([]);
    await empty.close();

    const mailer = new CatchingMailer();
    const stack = await openStack(dataDir, { clock: clock.fn, isDemo: true, mailer });
    cleanups.push(() => stack.close());
    const { state } = stack;
    // Northwind's history is approved for its client, its two newest crawls wait, and seeding mails nobody.
    expect(
      await state.appDb.all('SELECT crawl_id, module_state FROM crawl_registry ORDER BY website_id, crawl_id'),
    ).toEqual([
      { crawl_id: 1, module_state: 'APPROVED' },
      { crawl_id: 2, module_state: 'APPROVED' },
      { crawl_id: 3, module_state: 'PENDING' },
      { crawl_id: 4, module_state: 'PENDING' },
    ]);
    expect(await state.appDb.all('SELECT crawl_id, approved_by FROM approval_log ORDER BY crawl_id')).toEqual([
      { crawl_id: 1, approved_by: 'demo setup' },
      { crawl_id: 2, approved_by: 'demo setup' },
    ]);
    await state.approvals.deliverQueued();
    expect(await state.appDb.all('SELECT * FROM mail_log')).toEqual([]);
    expect(mailer.sent).toEqual([]);
    // A later approval of the demo still mails the client, once.
    await state.approvals.approve('northwind-outfitters', 3, 'staff@northwind-outfitters.example');
    await state.approvals.deliverQueued();
    expect(mailer.sent.map((m) => m.to)).toEqual(['client@northwind-outfitters.example']);
    const logins = await state.accounts.demoLoginsInUse();
    expect(logins.map((l) => [l.role, l.email, l.websites])).toEqual([
      ['ADMIN', 'admin@thc.example', []],
      ['STAFF', 'staff@northwind-outfitters.example', ['northwind-outfitters']],
      ['CLIENT', 'client@northwind-outfitters.example', ['northwind-outfitters']],
      ['STAFF', 'staff@alpine-travel.example', ['alpine-travel']],
      ['CLIENT', 'client@alpine-travel.example', ['alpine-travel']],
    ]);
    expect(
      await state.appDb.all(
        `SELECT u.email, w.website_id FROM user_websites w JOIN users u ON u.id = w.user_id
         ORDER BY u.email, w.website_id`,
      ),
    ).toEqual([
      { email: 'client@alpine-travel.example', website_id: 'alpine-travel' },
      { email: 'client@northwind-outfitters.example', website_id: 'northwind-outfitters' },
      { email: 'staff@alpine-travel.example', website_id: 'alpine-travel' },
      { email: 'staff@northwind-outfitters.example', website_id: 'northwind-outfitters' },
    ]);
    const stored = await state.appDb.all<{ password_hash: string }>('SELECT password_hash FROM users');
    for (const { password_hash } of stored) for (const l of logins) expect(password_hash).not.toContain(l.password);

    const websites = await listWebsites(state.appDb);
    const [alpine, northwind] = websites;
    // The store's domain stays for a website the loader registered first; the demo names it.
    expect([alpine!.id, alpine!.name, northwind!.id, northwind!.name]).toEqual([
      'alpine-travel',
      'Alpine Travel',
      'northwind-outfitters',
      'Northwind Outfitters',
    ]);
    expect([alpine!.domain, northwind!.domain]).toEqual(['alpine-travel.eu', 'northwind-outfitters.example']);
    expect(northwind!.segments[0]).toMatchObject({
      isDefault: true,
      isAi: true,
      isHreflang: false,
      goalType: 'ecommerce',
    });
    expect(alpine!.segments[0]).toMatchObject({
      isDefault: true,
      isAi: false,
      isHreflang: true,
      goalType: 'conversion',
    });
    expect(northwind!.modules.filter((m) => m.isActive).map((m) => m.module)).toEqual([
      'technical-health-check',
      'carbon-footprint',
    ]);
    expect(alpine!.modules.find((m) => m.module === 'uptime-report')).toEqual({
      module: 'uptime-report',
      isActive: false,
      reason: 'missing-setup-id',
    });

    await runAdminCommand(
      { appDb: state.appDb, now: clock.now },
      parseAdminArgs('user password --email admin@thc.example --password a-new-secret'.split(' ')),
    );
    expect((await state.accounts.demoLoginsInUse()).map((l) => l.email)).not.toContain('admin@thc.example');
    await stack.close();
    cleanups.pop();
    const again = await openStack(dataDir, { clock: clock.fn, isDemo: true });
    cleanups.push(() => again.close());
    expect(await again.state.appDb.all('SELECT count(*)::INTEGER AS n FROM users')).toEqual([{ n: 5 }]);
  });
});
