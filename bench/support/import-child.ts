/**
 * One timed import, run by the import section as a child process under GNU time (for its peak RSS): the real
 * importData on a store, its crawls' refresh left to the next child, the seconds until each step, then one JSON line
 * on stdout. With `refresh`, that refresh alone (refreshJoins, as importData runs it), so each has its own peak RSS.
 * With `baseline`, DuckDB alone on the same file instead, with the importer's reader and settings: a bare read of
 * the six columns the import keeps, and a bare copy of them into a Parquet file, the import's figures' yardstick.
 *   node --import tsx bench/support/import-child.ts DATA_DIR WEBSITE FILE [baseline|refresh]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase, quoteLiteral } from '../../service/db/duckdb.ts';
import { openSourceFile } from '../../service/sources/detect-format.ts';
import { IMPORT_MEMORY, importData, refreshJoins } from '../../service/sources/import-data.ts';
import { readerOf, shapeOf } from '../../service/sources/importers/search-console-bulk.ts';
import { RAW_PARQUET } from '../../service/source-data/raw-rows.ts';

const [dataDir, websiteId, file, mode] = process.argv.slice(2);
if (!dataDir || !websiteId || !file) throw new Error('usage: import-child.ts DATA_DIR WEBSITE FILE [baseline|refresh]');
const started = performance.now();
const at = (): number => Math.round(performance.now() - started) / 1000;

async function baseline(): Promise<Record<string, number>> {
  const source = openSourceFile(file!, file!);
  const reader = readerOf(source, shapeOf(source)!);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'import-baseline-'));
  const db = await openDatabase(':memory:');
  const conn = await db.connect();
  const timedRun = async (sql: string): Promise<number> => {
    const start = performance.now();
    await conn.run(sql);
    return Math.round(performance.now() - start) / 1000;
  };
  try {
    await conn.run(`SET temp_directory = ${quoteLiteral(work)}`);
    await conn.run(`SET memory_limit = '${IMPORT_MEMORY}'`);
    await conn.run('SET preserve_insertion_order = false');
    const columns = 'data_date, url, query, clicks, impressions, sum_position';
    return {
      readSeconds: await timedRun(`SELECT ${columns.replace(/(\w+)/g, 'max($1)')} FROM ${reader}`),
      copySeconds: await timedRun(
        `COPY (SELECT ${columns} FROM ${reader}) TO ${quoteLiteral(path.join(work, 'copy.parquet'))} (${RAW_PARQUET})`,
      ),
    };
  } finally {
    conn.closeSync();
    db.closeSync();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (mode === 'baseline') process.stdout.write(`${JSON.stringify(await baseline())}\n`);
else if (mode === 'refresh') {
  const result = await refreshJoins(dataDir, { websiteId });
  process.stdout.write(
    `${JSON.stringify({ seconds: at(), refreshed: result.refreshedCrawlIds, refreshFailure: result.refreshFailure })}\n`,
  );
} else {
  const steps: Record<string, number> = {};
  const result = await importData({
    dataDir,
    websiteId,
    source: 'search-console',
    files: [file],
    by: 'bench',
    isRefreshDeferred: true,
    onProgress: (step) => {
      const name = step.phase === 'refreshing' ? `refreshing ${step.done + 1}/${step.total}` : step.phase;
      steps[name] ??= at();
      // Watched while the section waits for the child (its output comes at its end).
      if (process.env.BENCH_IMPORT_LOG) fs.appendFileSync(process.env.BENCH_IMPORT_LOG, `${file} ${name} ${at()} s\n`);
    },
  });
  process.stdout.write(
    `${JSON.stringify({ importSeconds: at(), steps, rows: result.rows, tables: result.tables, urls: result.urls })}\n`,
  );
}
