/**
 * The import is atomic under kill -9: the real CLI, killed at moments from reading to publishing and refreshing,
 * leaves the source's previous version or its new one (never a mix), and the next import cleans up and finishes the
 * crawl's refresh.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_FILE, readCrawlMeta, readCurrentLoad } from '../store/layout.ts';
import { readSourceVersion, sourceDir } from '../source-data/source-store.ts';
import { loadTestCrawl, tempDir } from './auth-fixture.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
const SITE = 'acme-shoes';
const HEADER =
  'data_date,site_url,url,query,is_anonymized_query,country,search_type,device,impressions,clicks,sum_position';
let dataDir: string;
let small: string;
let big: string;

const cli = (file: string): string[] => [
  '--import',
  'tsx',
  'scripts/import-data.ts',
  '--website',
  SITE,
  '--source',
  'search-console',
  '--data-dir',
  dataDir,
  file,
];

/** Rows on 20 days of `month` from `firstDay`. */
function bulkCsv(file: string, rows: number, month: string, firstDay: number): void {
  const lines = [HEADER];
  for (let i = 0; i < rows; i++) {
    const day = `${month}-${String(firstDay + (i % 20)).padStart(2, '0')}`;
    lines.push(
      `${day},sc-domain:example.com,https://www.example.com/p${i % 4000},q${i % 250},false,gbr,WEB,${i % 2 ? 'MOBILE' : 'DESKTOP'},${1 + (i % 9)},${i % 3},${i % 40}`,
    );
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

beforeAll(async () => {
  dataDir = tempDir('thc-import-kill-');
  await loadTestCrawl(dataDir, SITE, 1, '2024-05-06T09:30:00Z');
  const work = tempDir('thc-import-kill-files-');
  small = path.join(work, 'small.csv');
  big = path.join(work, 'big.csv');
  // On other days: a day holds one file's raw rows (merge-raw.ts).
  bulkCsv(small, 50, '2024-03', 1);
  bulkCsv(big, 300_000, '2024-04', 6);
  const first = spawnSync(process.execPath, cli(small), { cwd: REPO, encoding: 'utf8' });
  expect(first.stderr).toBe('');
  expect(first.status).toBe(0);
}, 240_000);

afterAll(() => undefined);

describe('kill -9 during an import', () => {
  it('leaves the previous version or the new one, and the next import finishes the job', async () => {
    const dir = sourceDir(dataDir, SITE, 'search-console');
    const previous = readSourceVersion(dataDir, SITE, 'search-console')!;
    const seen = new Set<string>();
    // The whole import takes about 3 s here; a child that finished before its kill is a moment too.
    for (const delay of [300, 700, 1100, 1600, 2200, 3000]) {
      const child = spawn(process.execPath, cli(big), { cwd: REPO, stdio: 'ignore' });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill('SIGKILL');
      await exited;
      const live = readSourceVersion(dataDir, SITE, 'search-console')!;
      seen.add(live.meta.versionId);
      // Whichever version is live is whole: its files hold the rows its source.json counts.
      if (live.meta.versionId === previous.meta.versionId) expect(live.meta).toEqual(previous.meta);
      else expect(live.meta.imports).toHaveLength(2);
      for (const table of Object.keys(live.meta.tables)) expect(fs.existsSync(live.fileOf(table)!)).toBe(true);
      expect(readCurrentLoad(dataDir, SITE, 1)).toBeDefined();
    }
    const done = spawnSync(process.execPath, cli(big), { cwd: REPO, encoding: 'utf8' });
    expect(done.stderr).toBe('');
    expect(done.status).toBe(0);
    const live = readSourceVersion(dataDir, SITE, 'search-console')!;
    expect(live.meta.imports).toHaveLength(2);
    expect(fs.readdirSync(dir).sort()).toEqual([CURRENT_FILE, live.meta.versionId].sort());
    expect(readCrawlMeta(readCurrentLoad(dataDir, SITE, 1)!.dir).sources?.['search-console']).toBe(live.meta.versionId);
    // Killed at six moments, the store was seen in at most its two states.
    expect(seen.size).toBeLessThanOrEqual(2);
    expect(seen.has(previous.meta.versionId)).toBe(true);
  }, 180_000);
});
