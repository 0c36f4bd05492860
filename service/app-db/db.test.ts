import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppDb } from './db.ts';

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

  it('keys on the parameters', async () => {
    await db.run(`INSERT INTO t VALUES (2, 'z')`);
    expect(await db.cached('SELECT v FROM t WHERE id = ?', [2])).toEqual([{ v: 'z' }]);
    expect(await read()).toEqual([{ v: 'a' }]);
  });
});
