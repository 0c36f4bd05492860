import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CrawlMeta } from '../store/crawl-meta.ts';
import { CURRENT_FILE, type LiveCrawl } from '../store/layout.ts';
import { isMidRefresh, markRefreshing } from './mid-refresh.ts';
import { SOURCE_META_FILE, sourceDir, sourcesDir, type SourceMeta } from './source-store.ts';

const WEBSITE = 'site';
let dataDir: string;

/** Publishes `versionId` as the live version of the website's search console, with one import (connected). */
function publish(versionId: string): void {
  const dir = sourceDir(dataDir, WEBSITE, 'search-console');
  fs.mkdirSync(path.join(dir, versionId), { recursive: true });
  const meta: SourceMeta = {
    layout: 1,
    source: 'search-console',
    versionId,
    importedAt: '2026-11-27T05:00:00Z',
    tables: {},
    imports: [
      {
        id: versionId,
        at: '2026-11-27T05:00:00Z',
        files: [],
        format: 'search-console-bulk',
        rows: 1,
        coverage: { start: '2026-11-01', end: '2026-11-02', granularity: 'day' },
        isReplace: false,
      },
    ],
  };
  fs.writeFileSync(path.join(dir, versionId, SOURCE_META_FILE), JSON.stringify(meta));
  fs.writeFileSync(path.join(dir, CURRENT_FILE), versionId);
}

/** A live crawl that joined these versions of the sources. */
const crawl = (crawlId: number, sources: Record<string, string>): LiveCrawl => ({
  websiteId: WEBSITE,
  crawlId,
  loadId: 'l',
  dir: '',
  dbFile: '',
  meta: { sources } as unknown as CrawlMeta,
});

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-mid-refresh-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('isMidRefresh', () => {
  it('holds crawls at different points only while a refresh runs', () => {
    publish('v2');
    const crawls = [crawl(2, { 'search-console': 'v2' }), crawl(1, { 'search-console': 'v1' })];
    expect(isMidRefresh(dataDir, WEBSITE, crawls)).toBe(false);
    const marked = markRefreshing(dataDir, WEBSITE);
    try {
      expect(isMidRefresh(dataDir, WEBSITE, crawls)).toBe(true);
      expect(isMidRefresh(dataDir, WEBSITE, [crawls[0]!, crawl(1, { 'search-console': 'v2' })])).toBe(false);
    } finally {
      marked.stop();
    }
    expect(isMidRefresh(dataDir, WEBSITE, crawls)).toBe(false);
  });

  it('holds two crawls on two older versions when a newer one was published part way', () => {
    publish('v3');
    const marked = markRefreshing(dataDir, WEBSITE);
    try {
      const split = [crawl(2, { 'search-console': 'v2' }), crawl(1, { 'search-console': 'v1' })];
      expect(isMidRefresh(dataDir, WEBSITE, split)).toBe(true);
      const together = [crawl(2, { 'search-console': 'v1' }), crawl(1, { 'search-console': 'v1' })];
      expect(isMidRefresh(dataDir, WEBSITE, together)).toBe(false);
      const neverJoined = [crawl(2, { 'search-console': 'v3' }), crawl(1, {})];
      expect(isMidRefresh(dataDir, WEBSITE, neverJoined)).toBe(true);
    } finally {
      marked.stop();
    }
  });

  it('stops holding a website whose refresh was killed, once its marker is a minute old', () => {
    publish('v2');
    const crawls = [crawl(2, { 'search-console': 'v2' }), crawl(1, { 'search-console': 'v1' })];
    const killed = markRefreshing(dataDir, WEBSITE);
    const [marker] = markers();
    expect(isMidRefresh(dataDir, WEBSITE, crawls)).toBe(true);
    age(marker!, 61_000);
    expect(isMidRefresh(dataDir, WEBSITE, crawls)).toBe(false);
    killed.stop();
  });

  it('keeps holding while another refresh of the website still runs', () => {
    publish('v2');
    const crawls = [crawl(2, { 'search-console': 'v2' }), crawl(1, { 'search-console': 'v1' })];
    const first = markRefreshing(dataDir, WEBSITE);
    const second = markRefreshing(dataDir, WEBSITE);
    second.stop();
    expect(isMidRefresh(dataDir, WEBSITE, crawls)).toBe(true);
    first.stop();
    expect(isMidRefresh(dataDir, WEBSITE, crawls)).toBe(false);
    expect(markers()).toEqual([]);
  });

  it("removes a killed refresh's marker once it is an hour old, and only that one", () => {
    const killed = markRefreshing(dataDir, WEBSITE);
    const [old] = markers();
    age(old!, 3_601_000);
    const running = markRefreshing(dataDir, WEBSITE);
    try {
      expect(markers()).toHaveLength(1);
      expect(markers()).not.toContain(old);
    } finally {
      running.stop();
      killed.stop();
    }
  });
});

/** The website's refresh markers, by path. */
function markers(): string[] {
  const dir = sourcesDir(dataDir, WEBSITE);
  return fs
    .readdirSync(dir)
    .filter((name) => name.startsWith('.refreshing-'))
    .map((name) => path.join(dir, name));
}

/** Sets a file's times `ms` into the past. */
function age(file: string, ms: number): void {
  const then = new Date(Date.now() - ms);
  fs.utimesSync(file, then, then);
}
