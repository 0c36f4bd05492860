/**
 * The first start in demo mode (service/main.ts): the demo is generated and loaded with progress per website, crawl
 * and step, its marketing data imported from vendor files as staff import theirs; the loader registers the websites
 * in the app database; the service then seeds the demo's approved history without writing a single approval email
 * to the outbox.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppDb, appDbLocation } from '../app-db/db.ts';
import { listWebsites } from '../app-db/websites.ts';
import { dataSourceIds } from '../../catalog/data-sources.ts';
import { DEMO_IMPORTER, seedDemo, type DemoProgress } from '../demo.ts';
import { readConnectedSources } from '../source-data/source-store.ts';
import { listLiveCrawls } from '../store/layout.ts';
import { TestClock, openStack, tempDir, type Stack } from './auth-fixture.ts';

const CRAWLS = 3;
/** search-console (pages, then queries), analytics, google-ads, microsoft-ads, keyword-planner, trends. */
const IMPORTS = 7;
const SITES = ['northwind-outfitters', 'alpine-travel'];

let stack: Stack | undefined;
afterAll(async () => {
  await stack?.close();
});

describe('first start with the demo', () => {
  const dataDir = tempDir();
  const events: DemoProgress[] = [];

  // Generating and loading six crawls takes one to three minutes on two busy cores.
  it('reports each website, crawl and step while generating and loading', { timeout: 600_000 }, async () => {
    expect(await seedDemo(dataDir, { crawls: CRAWLS, onProgress: (p) => events.push(p) })).toBe(SITES.length * CRAWLS);
    const total = 2 * SITES.length * CRAWLS;
    expect(events.every((e) => e.total === total)).toBe(true);
    expect(events.map((e) => e.completed)).toEqual([...events.map((e) => e.completed)].sort((a, b) => a - b));
    expect(events.at(-1)!.completed).toBe(total);
    for (const websiteId of SITES)
      for (let crawlId = 1; crawlId <= CRAWLS; crawlId++) {
        const steps = events.filter((e) => e.websiteId === websiteId && e.crawlId === crawlId).map((e) => e.step);
        const loadSteps = ['generated', 'validate', 'load', 'precompute', 'loaded'];
        // The vendor files are imported once the oldest crawl is loaded: Search Console's two, then one per source.
        expect(steps).toEqual(crawlId === 1 ? [...loadSteps, ...Array<string>(IMPORTS).fill('imported')] : loadSteps);
        const generated = events.find((e) => e.websiteId === websiteId && e.crawlId === crawlId)!;
        expect(generated.detail).toMatch(/^[\d,]+ URLs$/);
      }
    expect(fs.existsSync(path.join(dataDir, 'demo-exports'))).toBe(false);
  });

  it('imports every source from vendor files, not from the crawl exports, and every crawl joins them', () => {
    for (const websiteId of SITES) {
      const versions = readConnectedSources(dataDir, websiteId);
      expect(versions.map((v) => v.source)).toEqual([...dataSourceIds]);
      for (const version of versions) {
        expect(version.meta.imports.every((i) => i.by === DEMO_IMPORTER)).toBe(true);
        expect(version.meta.imports.flatMap((i) => i.files).length).toBeGreaterThan(0);
      }
      const crawls = listLiveCrawls(dataDir).filter((c) => c.websiteId === websiteId);
      expect(crawls).toHaveLength(CRAWLS);
      for (const crawl of crawls)
        expect(crawl.meta.sources, `${websiteId} crawl ${crawl.crawlId}`).toEqual(
          Object.fromEntries(versions.map((v) => [v.source, v.meta.versionId])),
        );
    }
  });

  it('has registered both websites in the app database before the service starts', async () => {
    const appDb = await AppDb.open(appDbLocation(dataDir));
    try {
      expect((await listWebsites(appDb)).map((w) => w.id)).toEqual([...SITES].sort());
    } finally {
      await appDb.close();
    }
  });

  it("approves Northwind's history without writing approval emails to the outbox", async () => {
    const clock = new TestClock(new Date('2026-11-17T10:00:00Z'));
    // No test mailer: the service's own, which writes .eml files to DATA_DIR/outbox without SMTP_HOST.
    stack = await openStack(dataDir, { clock: clock.fn, isDemo: true, mailer: undefined });
    await stack.state.startJobs();
    await stack.state.approvals.deliverQueued();
    expect(
      await stack.state.appDb.all(
        `SELECT website_id, crawl_id, module_state FROM crawl_registry WHERE module_state = 'APPROVED'
         ORDER BY website_id, crawl_id`,
      ),
    ).toEqual([{ website_id: 'northwind-outfitters', crawl_id: 1, module_state: 'APPROVED' }]);
    const outbox = path.join(dataDir, 'outbox');
    expect(fs.existsSync(outbox) ? fs.readdirSync(outbox) : []).toEqual([]);
    expect(await stack.state.appDb.all('SELECT * FROM mail_log')).toEqual([]);
  });
});
