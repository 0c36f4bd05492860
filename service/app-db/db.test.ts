import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppDb, readTables, writtenTables } from './db.ts';

describe('AppDb.cached', () => {
  let db: AppDb;
  beforeEach(async () => {
    db = await AppDb.open(':memory:', { migrations: [] });
    await db.run('CREATE TABLE t (id INTEGER, v VARCHAR)');
    await db.run(`INSERT INTO t VALUES (1, 'a')`);
  });
  afterEach(() => db.close());

  const read = () => db.cached<{ v: string }>('SELECT v FROM t WHERE id = ?', [1]);

  it('answers a repeated read from memory', async () => {
    const first = read();
    expect(read()).toBe(first);
    expect(await first).toEqual([{ v: 'a' }]);
  });

  it('never answers with rows older than the last write, by run, all or transaction', async () => {
    await read();
    await db.run(`UPDATE t SET v = 'b'`);
    expect(await read()).toEqual([{ v: 'b' }]);
    await db.all(`UPDATE t SET v = 'c' RETURNING id`);
    expect(await read()).toEqual([{ v: 'c' }]);
    await db.transaction((tx) => tx.run(`UPDATE t SET v = 'd'`));
    expect(await read()).toEqual([{ v: 'd' }]);
  });

  it('keeps a cached answer across plain reads, which change nothing', async () => {
    const first = read();
    await db.all('SELECT count(*) AS n FROM t');
    await db.run('SELECT 1');
    expect(read()).toBe(first);
  });

  it('sees a write queued before it, and a rolled-back transaction leaves the rows as they were', async () => {
    const write = db.run(`UPDATE t SET v = 'e'`);
    expect(await read()).toEqual([{ v: 'e' }]);
    await write;
    await expect(
      db.transaction(async (tx) => {
        await tx.run(`UPDATE t SET v = 'f'`);
        expect(await tx.cached('SELECT v FROM t WHERE id = ?', [1])).toEqual([{ v: 'f' }]);
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    expect(await read()).toEqual([{ v: 'e' }]);
  });

  it('binds ? placeholders in order, leaving quoted text alone, and dates as UTC timestamps', async () => {
    expect(
      await db.all(`SELECT ?::INTEGER AS a, '?' AS "q?", ?::VARCHAR AS b, ?::TIMESTAMP AS at`, [
        7,
        'x',
        new Date('2025-03-04T11:00:00.000Z'),
      ]),
    ).toEqual([{ a: 7, 'q?': '?', b: 'x', at: new Date('2025-03-04T11:00:00.000Z') }]);
  });

  it('forgets a read that failed, so asking again runs it again', async () => {
    const bad = () => db.cached('SELECT missing_column FROM t WHERE id = ?', [1]);
    const first = bad();
    await expect(first).rejects.toThrow(/missing_column/);
    const again = bad();
    expect(again).not.toBe(first);
    await expect(again).rejects.toThrow(/missing_column/);
    expect(await read()).toEqual([{ v: 'a' }]);
  });

  it('keys on the parameters', async () => {
    await db.run(`INSERT INTO t VALUES (2, 'z')`);
    expect(await db.cached('SELECT v FROM t WHERE id = ?', [2])).toEqual([{ v: 'z' }]);
    expect(await read()).toEqual([{ v: 'a' }]);
  });
});

describe('the app tables a statement names', () => {
  it('finds the written tables, past DO UPDATE and FOR UPDATE, and knows none of a schema change or another table', () => {
    expect(
      writtenTables(`UPDATE crawl_runs SET status = 'running'
       WHERE id = (SELECT id FROM crawl_runs WHERE status = 'queued' LIMIT 1 FOR UPDATE SKIP LOCKED)`),
    ).toEqual(new Set(['crawl_runs']));
    expect(
      writtenTables('INSERT INTO login_failures VALUES (?, 1, ?) ON CONFLICT (key) DO UPDATE SET failures = 2'),
    ).toEqual(new Set(['login_failures']));
    expect(
      writtenTables('DELETE FROM sessions WHERE user_id = 1; DELETE FROM user_websites WHERE user_id = 1'),
    ).toEqual(new Set(['sessions', 'user_websites']));
    expect(writtenTables('CREATE INDEX i ON sessions (user_id)')).toBeUndefined();
    expect(writtenTables(`INSERT INTO t VALUES (1, 'a')`)).toBeUndefined();
    expect(readTables('SELECT * FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?')).toEqual(
      new Set(['sessions', 'users']),
    );
    expect(readTables('SELECT EXTRACT(EPOCH FROM queued_at) AS at FROM crawl_runs')).toBeUndefined();
    expect(readTables('SELECT 1 FROM sessions s, users u WHERE u.id = s.user_id')).toBeUndefined();
    expect(readTables('SELECT 1 FROM sessions, users')).toBeUndefined();
  });
});

describe('AppDb.cached over the app tables', () => {
  let db: AppDb;
  beforeEach(async () => {
    db = await AppDb.open(':memory:');
    await db.run(`INSERT INTO websites VALUES ('shop', 'Shop', 'shop.example', ?)`, [new Date()]);
  });
  afterEach(() => db.close());

  const website = () => db.cached<{ name: string }>('SELECT name FROM websites WHERE id = ?', ['shop']);
  const runCount = () => db.cached<{ n: number }>('SELECT count(*)::INTEGER AS n FROM crawl_runs');

  it('keeps the answers about other tables across a write, and drops those about the written one', async () => {
    const first = website();
    const runs = runCount();
    expect(await runs).toEqual([{ n: 0 }]);
    await db.run(`UPDATE crawl_runs SET pages_done = 1`);
    await db.transaction((tx) => tx.run(`DELETE FROM crawl_runs WHERE id = 0`));
    expect(website()).toBe(first);
    expect(runCount()).not.toBe(runs);
    await db.run(`UPDATE websites SET name = 'Renamed'`);
    expect(await website()).toEqual([{ name: 'Renamed' }]);
    await db.run('CREATE TABLE scratch (id INTEGER)');
    expect(website()).not.toBe(first);
  });
});
