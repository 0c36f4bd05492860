/**
 * One timed import, run by the import section as a child process under GNU time (for its peak RSS): the real
 * importData on a store, the seconds until each step, then one JSON line on stdout.
 *   node --import tsx bench/support/import-child.ts DATA_DIR WEBSITE FILE
 */
import { performance } from 'node:perf_hooks';
import { importData } from '../../service/sources/import-data.ts';

const [dataDir, websiteId, file] = process.argv.slice(2);
if (!dataDir || !websiteId || !file) throw new Error('usage: import-child.ts DATA_DIR WEBSITE FILE');
const started = performance.now();
const at = (): number => Math.round(performance.now() - started) / 1000;
const steps: Record<string, number> = {};
const result = await importData({
  dataDir,
  websiteId,
  source: 'search-console',
  files: [file],
  by: 'bench',
  onProgress: (step) => {
    const name = step.phase === 'refreshing' ? `refreshing ${step.done + 1}/${step.total}` : step.phase;
    steps[name] ??= at();
  },
});
// The version is published before the first crawl is refreshed (import-data.ts).
const imported = Object.entries(steps).find(([name]) => name.startsWith('refreshing'))?.[1] ?? at();
process.stdout.write(
  `${JSON.stringify({ seconds: at(), importSeconds: imported, steps, rows: result.rows, tables: result.tables, urls: result.urls, refreshed: result.refreshedCrawlIds, refreshFailure: result.refreshFailure })}\n`,
);
