/**
 * The benchmark's settings: the store's scale and place (BENCH_URLS, BENCH_CRAWLS, BENCH_RUNS, BENCH_DIR,
 * BENCH_BASELINE_RUNS), the benchmark site and its admin, and where the results go.
 */
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const BENCH_DIR = path.resolve(process.env.BENCH_DIR ?? path.join(ROOT, 'bench/out'));
export const URLS = Number(process.env.BENCH_URLS ?? 1_000_000);
export const CRAWLS = Number(process.env.BENCH_CRAWLS ?? 5);
export const RUNS = Number(process.env.BENCH_RUNS ?? 30);
export const BASELINE_RUNS = Number(process.env.BENCH_BASELINE_RUNS ?? 5);
/** An analyst's pause between clicks in the concurrency case, ms (uniform). */
export const THINK_MS = [500, 1500] as const;
export const SITE = 'northwind-outfitters';
export const SEED = 7;
export const ADMIN = { email: 'bench@thc.example', password: 'bench-password-1' };

/** The table's largest page and the dashboard's CSV chunk: what the columnar path is measured on. */
export const ROWS_PAGE_100 = 'rows: 100-row page, default sort';
export const CSV_CHUNK_1000 = 'CSV chunk: 1000 rows';

export const exportsDir = path.join(BENCH_DIR, `exports-${URLS}-${CRAWLS}`);
export const dataDir = path.join(BENCH_DIR, `data-${URLS}-${CRAWLS}`);

export const RESULTS_JSON = path.join(ROOT, 'bench/results.json');
export const RESULTS_MD = path.join(ROOT, 'bench/results.md');

/** The results of the last run, for a section run alone to replace its own part of them. */
export function readResults(): Record<string, unknown> {
  return (fs.existsSync(RESULTS_JSON) ? JSON.parse(fs.readFileSync(RESULTS_JSON, 'utf8')) : {}) as Record<
    string,
    unknown
  >;
}

export function writeResults(results: Record<string, unknown>): void {
  fs.writeFileSync(RESULTS_JSON, JSON.stringify(results, null, 2) + '\n');
}

export const ARROW_STREAM_TYPE = 'application/vnd.apache.arrow.stream';

/** Rows travel as Arrow, as the dashboard asks for them; the other calls answer JSON. */
export const acceptOf = (url: string): string | undefined => (url.endsWith('rows') ? ARROW_STREAM_TYPE : undefined);

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
