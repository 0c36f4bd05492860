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

  const read = () => db.cached<{ v: string }>('websites', 'SELECT v FROM t WHERE id = $1', [1]);

  it('answers a repeated read from memory', async () => {
    const first = read();
    expect(read()).toBe(first);
    expect(await first).toEqual([{ v: 'a' }]);
  });

  it('never answers with rows older than a change of its topic, said outside or inside a transaction', async () => {
    await read();
    await db.run(`UPDATE t SET v = 'b'`);
    await db.changed('websites');
    expect(await read()).toEqual([{ v: 'b' }]);
    await db.transaction(async (tx) => {
      await tx.run(`UPDATE t SET v = 'c'`);
      await tx.changed('websites');
    });
    expect(await read()).toEqual([{ v: 'c' }]);
  });

  it('keeps its answer across writes that change no topic of it, and a change of another topic', async () => {
    const first = read();
    expect(await first).toEqual([{ v: 'a' }]);
    await db.run(`UPDATE t SET v = 'z'`);
    await db.changed('sessions', 'checklist');
    expect(read()).toBe(first);
  });

  it('does not keep an answer asked while its topic changed', async () => {
    const write = db.run(`UPDATE t SET v = 'y'`);
    const during = read();
    const change = db.changed('websites');
    expect(await during).toEqual([{ v: 'y' }]);
    await Promise.all([write, change]);
    expect(read()).not.toBe(during);
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
        expect(await tx.cached('websites', 'SELECT v FROM t WHERE id = $1', [1])).toEqual([{ v: 'f' }]);
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    expect(await read()).toEqual([{ v: 'e' }]);
  });

  it('binds $n placeholders, leaving a quoted ? alone, and dates as UTC timestamps', async () => {
    expect(
      await db.all(`SELECT $1::INTEGER AS a, '?' AS "q?", $2::VARCHAR AS b, $3::TIMESTAMP AS at`, [
        7,
        'x',
        new Date('2025-03-04T11:00:00.000Z'),
      ]),
    ).toEqual([{ a: 7, 'q?': '?', b: 'x', at: new Date('2025-03-04T11:00:00.000Z') }]);
  });

  it('forgets a read that failed, so asking again runs it again', async () => {
    const bad = () => db.cached('websites', 'SELECT missing_column FROM t WHERE id = $1', [1]);
    const first = bad();
    await expect(first).rejects.toThrow(/missing_column/);
    const again = bad();
    expect(again).not.toBe(first);
    await expect(again).rejects.toThrow(/missing_column/);
    expect(await read()).toEqual([{ v: 'a' }]);
  });

  it('keys on the parameters', async () => {
    await db.run(`INSERT INTO t VALUES (2, 'z')`);
    expect(await db.cached('websites', 'SELECT v FROM t WHERE id = $1', [2])).toEqual([{ v: 'z' }]);
    expect(await read()).toEqual([{ v: 'a' }]);
  });

  it('keeps at most 10,000 answers per topic, dropping the least recently used; other topics keep theirs', async () => {
    const byId = (id: number) => db.cached('websites', 'SELECT v FROM t WHERE id = $1', [id]);
    const sessions = db.cached('sessions', 'SELECT v FROM t WHERE id = $1', [1]);
    const first = read();
    for (let id = 2; id < 10_000; id++) void byId(id);
    const last = byId(10_000);
    expect(read()).toBe(first);
    // `first` was just used, so the next read beyond 10,000 drops id 2, the least recently used.
    void byId(10_001);
    expect(read()).toBe(first);
    expect(byId(10_000)).toBe(last);
    const two = byId(2);
    expect(await two).toEqual([]);
    expect(byId(2)).toBe(two);
    expect(db.cached('sessions', 'SELECT v FROM t WHERE id = $1', [1])).toBe(sessions);
  });
});
