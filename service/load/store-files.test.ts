import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CRAWL_DB_FILE, CRAWL_META_FILE, CURRENT_FILE, websiteDir } from '../store/layout.ts';
import type { CrawlMeta } from '../store/crawl-meta.ts';
import { friendlyDate } from './load-crawl.ts';
import { cleanupLeftovers, findPreviousCrawl, newLoadId, websiteFromStartUrl } from './store-files.ts';

let dataDir: string;
let site: string;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-files-'));
  site = websiteDir(dataDir, 'acme');
  fs.mkdirSync(site, { recursive: true });
});

afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** A complete live load of crawl `crawlId`, as the loader leaves it. */
function liveLoad(crawlId: number, loadId: string): string {
  const loadDir = path.join(site, String(crawlId), loadId);
  fs.mkdirSync(loadDir, { recursive: true });
  fs.writeFileSync(path.join(loadDir, CRAWL_DB_FILE), 'db');
  const manifest = {
    websiteId: 'acme',
    crawlId,
    crawledAt: '2024-05-06T09:30:00Z',
    dataStart: '2024-04-06',
    dataEnd: '2024-05-05',
    startUrl: 'https://acme.example/',
    crawler: { name: 'test', version: '1' },
  };
  const meta: CrawlMeta = {
    manifest,
    loadId,
    loadedAt: manifest.crawledAt,
    crawledFriendly: '6 May 2024',
    moduleState: 'PENDING',
    tables: {},
    previousCrawlId: null,
  };
  fs.writeFileSync(path.join(loadDir, CRAWL_META_FILE), JSON.stringify(meta));
  fs.writeFileSync(path.join(site, String(crawlId), CURRENT_FILE), loadId);
  return loadDir;
}

describe('newLoadId', () => {
  it('uses [a-z0-9-] only and sorts by time', () => {
    const earlier = newLoadId(Date.UTC(2024, 0, 1));
    const later = newLoadId(Date.UTC(2024, 0, 1) + 1);
    expect(earlier).toMatch(/^[a-z0-9-]+$/);
    expect(earlier < later).toBe(true);
    expect(newLoadId()).not.toBe(newLoadId());
  });
});

describe('cleanupLeftovers', () => {
  it('removes partial loads, unpublished load dirs, temp files and empty crawl dirs, keeping live loads', () => {
    const live = liveLoad(1, 'aaa-1');
    fs.mkdirSync(path.join(site, '1', 'bbb-2.partial'));
    fs.mkdirSync(path.join(site, '1', 'ccc-3'));
    fs.writeFileSync(path.join(site, '1', `${CURRENT_FILE}.123.tmp`), 'x');
    fs.mkdirSync(path.join(site, '2', 'ddd-4.partial'), { recursive: true });
    fs.writeFileSync(path.join(site, 'website.json.77.tmp'), '{}');
    fs.writeFileSync(path.join(site, 'website.json'), '{}');

    const removed = cleanupLeftovers(site).map((p) => path.relative(site, p));

    expect(removed.sort()).toEqual(
      ['1/bbb-2.partial', '1/ccc-3', `1/${CURRENT_FILE}.123.tmp`, '2', '2/ddd-4.partial', 'website.json.77.tmp'].sort(),
    );
    expect(fs.existsSync(path.join(live, CRAWL_DB_FILE))).toBe(true);
    expect(fs.readdirSync(path.join(site, '1')).sort()).toEqual([CURRENT_FILE, 'aaa-1']);
    expect(fs.existsSync(path.join(site, 'website.json'))).toBe(true);
  });
});

describe('findPreviousCrawl', () => {
  it('picks the highest live crawl below the given one', () => {
    liveLoad(1, 'a');
    liveLoad(3, 'c');
    liveLoad(7, 'g');
    fs.mkdirSync(path.join(site, '5', 'x.partial'), { recursive: true });
    expect(findPreviousCrawl(dataDir, site, 'acme', 6)?.crawlId).toBe(3);
    expect(findPreviousCrawl(dataDir, site, 'acme', 3)?.crawlId).toBe(1);
    expect(findPreviousCrawl(dataDir, site, 'acme', 1)).toBeUndefined();
    expect(findPreviousCrawl(dataDir, site, 'acme', 8)?.dbFile).toBe(path.join(site, '7', 'g', CRAWL_DB_FILE));
  });
});

describe('websiteFromStartUrl', () => {
  it('names the website after its domain without www.', () => {
    expect(websiteFromStartUrl('acme', 'https://www.acme-shoes.co.uk/start')).toEqual({
      id: 'acme',
      name: 'Acme Shoes',
      domain: 'acme-shoes.co.uk',
    });
    expect(websiteFromStartUrl('b', 'http://shop.example.com/').domain).toBe('shop.example.com');
  });

  it('names a website on an IP address after the whole address, not its first number', () => {
    expect(websiteFromStartUrl('local', 'http://127.0.0.1:8080/').name).toBe('127.0.0.1');
    expect(websiteFromStartUrl('v6', 'http://[::1]:8080/').name).toBe('[::1]');
  });
});

describe('friendlyDate', () => {
  it("formats the crawl's UTC date as d MMM yyyy", () => {
    expect(friendlyDate('2024-05-06T09:30:00Z')).toBe('6 May 2024');
    expect(friendlyDate('2024-05-06T23:30:00-02:00')).toBe('7 May 2024');
    expect(friendlyDate('2024-12-31T00:30:00+01:00')).toBe('30 Dec 2024');
  });
});
