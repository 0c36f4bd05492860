/**
 * The first start of this build on a DATA_DIR an earlier build ran on: its app.duckdb is copied into the (empty)
 * app database whole, then kept aside as app.duckdb.imported.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_TABLES } from '../app-db/app-tables.ts';
import { checkedItemsAt } from '../app-db/checklist.ts';
import { listUsers } from '../app-db/users.ts';
import { listWebsites } from '../app-db/websites.ts';
import { TestClock, openStack, tempDir, writeCrawl } from './auth-fixture.ts';
import { writeDuckDbAppState } from './helpers/duckdb-app-state.ts';

describe('app.duckdb of an earlier build', () => {
  it('is imported at the first start, every table, and kept aside', async () => {
    const dataDir = tempDir();
    await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 1 });
    const earlierTables = await writeDuckDbAppState(dataDir);
    expect(APP_TABLES).toEqual(expect.arrayContaining(earlierTables));
    const clock = new TestClock(new Date('2025-03-03T09:00:00.000Z'));
    const stack = await openStack(dataDir, { clock: clock.fn });
    try {
      const db = stack.state.appDb;
      for (const table of APP_TABLES) {
        const [row] = await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table}`);
        // A table added after the builds that kept the app state in DuckDB has nothing to import.
        expect({ table, isEmpty: row!.n === 0 }).toEqual({ table, isEmpty: !earlierTables.includes(table) });
      }
      expect(await listUsers(db)).toEqual([
        { id: 1, email: 'admin@shop.example', role: 'ADMIN', websites: [], isDisabled: false },
        { id: 2, email: 'client@shop.example', role: 'CLIENT', websites: ['shop'], isDisabled: false },
      ]);
      const [shop] = await listWebsites(db);
      expect(shop!.segments.map((s) => [s.id, s.urlScope, s.isHreflang, s.goalType])).toEqual([
        ['all', null, false, null],
        ['blog', 'https://shop.example/blog/', true, 'conversion'],
      ]);
      expect(stack.state.states.get('shop', 1)).toEqual({
        moduleState: 'APPROVED',
        approvedAt: new Date('2025-01-07T11:00:00.000Z'),
        approvedBy: 'auto-approval',
      });
      const [item] = await checkedItemsAt(db, 'shop', 'links/internal-broken', 1);
      expect(item).toMatchObject({ url: 'https://shop.example/a', subKeys: ['https://shop.example/b'] });
      expect(await db.all('SELECT failures, last_failed_at FROM login_failures')).toEqual([
        { failures: 2, last_failed_at: new Date('2025-01-08T09:30:00.000Z') },
      ]);
      const [installed] = await db.all<{ applied_at: Date }>(
        'SELECT applied_at FROM schema_migrations WHERE version = 1',
      );
      expect(installed!.applied_at).toEqual(new Date('2025-01-06T10:00:00.000Z'));
      const [added] = await db.all<{ id: number }>(
        `INSERT INTO users (email, password_hash, role, created_at) VALUES ('new@shop.example', 'h', 'STAFF', ?) RETURNING id`,
        [clock.now],
      );
      expect(added!.id).toBe(3);
    } finally {
      await stack.close();
    }
    expect(fs.existsSync(path.join(dataDir, 'app.duckdb'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'app.duckdb.imported'))).toBe(true);
    const again = await openStack(dataDir, { clock: clock.fn });
    try {
      expect((await listUsers(again.state.appDb)).map((u) => u.email)).toContain('new@shop.example');
    } finally {
      await again.close();
    }
  });
});
