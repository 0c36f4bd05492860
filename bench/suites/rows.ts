/**
 * The rows section (`--only rows`): what the columnar path costs. A 100-row page and a 1000-row chunk of the largest
 * URL report as Arrow and as JSON, fresh, at a new offset and from the result cache, over the raw DuckDB floor.
 */
import { performance } from 'node:perf_hooks';
import type { ReportDefinition } from '../../catalog/schema.ts';
import { openDatabase, withConnection } from '../../service/db/duckdb.ts';
import { freePort } from '../../scripts/support/free-port.ts';
import {
  ARROW_STREAM_TYPE,
  CRAWLS,
  CSV_CHUNK_1000,
  dataDir,
  readResults,
  ROWS_PAGE_100,
  RUNS,
  SITE,
  URLS,
  writeResults,
} from '../support/config.ts';
import { startService } from '../support/service.ts';
import { openSession, type Session } from '../support/session.ts';
import { stats, type Stats } from '../support/stats.ts';
import { prepareSection } from '../support/store.ts';
import { measure } from '../support/timing.ts';

interface ColumnarCase {
  name: string;
  accept: string;
  isCached: boolean;
  /** Each run asks for a page at an offset not asked for before (a page turn), not the same page again. */
  isNewPage: boolean;
  bytes: number;
  /** As the client waits it, the body read. */
  client: Stats;
  /** Inside the service, to the first byte (Server-Timing). */
  server: Stats;
}

const SIZES = [
  [ROWS_PAGE_100, 100],
  [CSV_CHUNK_1000, 1000],
] as const;

/**
 * A 100-row page and a 1000-row chunk as Arrow (what the dashboard asks for) and as JSON (API users), each with a
 * fresh query (skipCache) of the same page, a fresh query at a new offset each run (a page turn: DuckDB parses and plans
 * its text anew, where the same page runs a kept statement) and from the engine's result cache, where only encoding
 * the answer remains.
 */
export async function columnarRows(session: Session): Promise<{
  urls: number;
  crawls: number;
  runs: number;
  at: string;
  cases: ColumnarCase[];
  raw: RawPageQuery[];
}> {
  const { client, urlReport, rowsOf } = session;
  const out: ColumnarCase[] = [];
  for (const [name, limit] of SIZES)
    for (const accept of [ARROW_STREAM_TYPE, 'application/json'])
      for (const [isCached, isNewPage] of [
        [false, false],
        [false, true],
        [true, false],
      ] as const) {
        const body = rowsOf(urlReport, { limit, skipCache: !isCached });
        const samples: { client: number[]; server: number[] } = { client: [], server: [] };
        let bytes = 0;
        const { total } = await client.post('/api/technical-health-check/report/get-rows', body, accept);
        const offsets = newPageOffsets(total, limit);
        for (let i = 0; i < RUNS; i++) {
          const asked = isNewPage ? { ...body, offset: offsets[i]! } : body;
          const answer = await client.post('/api/technical-health-check/report/get-rows', asked, accept);
          samples.client.push(answer.ms);
          samples.server.push(answer.serverMs);
          bytes = answer.bytes;
        }
        const result = {
          name,
          accept,
          isCached,
          isNewPage,
          bytes,
          client: stats(samples.client),
          server: stats(samples.server),
        };
        out.push(result);
        console.log(
          `${name} as ${accept}${isCached ? ', cached' : isNewPage ? ', new page' : ''}: client p50 ${result.client.p50} ms, service p50 ${result.server.p50} ms, ${bytes} B`,
        );
      }
  const raw = await rawPageQueries(session.urlReport);
  // The store's scale travels with the figures: this section may run on a smaller store than the rest.
  return { urls: URLS, crawls: CRAWLS, runs: RUNS, at: new Date().toISOString(), cases: out, raw };
}

/**
 * The offsets of the new-page runs, for the service and the raw baseline alike: spread over the whole tab, none of
 * them 0 (asked for first) or asked for twice.
 */
function newPageOffsets(total: number, limit: number): number[] {
  const stride = Math.max(1, Math.floor((total - limit) / (RUNS + 1)));
  return Array.from({ length: RUNS }, (_, i) => (i + 1) * stride);
}

interface RawPageQuery {
  name: string;
  /** The first page's text run again, parsed and planned each time. */
  query: Stats;
  /** The first page's execution alone, from a statement prepared once. */
  execute: Stats;
  /** Each run a page at a new offset, as the new-page case asks for them. */
  newPage: Stats;
}

/**
 * The floor under the fresh cases: the same page queries run by DuckDB in this process on the store (attached
 * read-only beside the service), parsed and planned each time as the service does, and the first page's execution
 * alone from a statement prepared once.
 */
async function rawPageQueries(report: ReportDefinition): Promise<RawPageQuery[]> {
  const { openCrawlRegistry } = await import('../../service/source-data/mid-refresh.ts');
  const { ReportEngine, tabRequest } = await import('../../service/engine/engine.ts');
  const { compileRows } = await import('../../service/engine/compile.ts');
  const db = await openDatabase();
  const registry = await openCrawlRegistry(dataDir, db);
  const engine = new ReportEngine(db, registry);
  try {
    const [current, previous] = registry.crawls(SITE);
    if (!current) throw new Error('no crawl to query');
    const target = await engine.target(current);
    const comparison = previous ? await engine.target(previous) : undefined;
    const out: RawPageQuery[] = [];
    for (const [name, limit] of SIZES) {
      const pageAt = (offset: number) => {
        const compiled = compileRows({ ...tabRequest(report, target, comparison, 'all'), limit, offset });
        const page = compiled.page(compiled.knownTotal ?? Number.MAX_SAFE_INTEGER);
        if (!page || page.params.length > 0) throw new Error(`the ${name} query is not a plain range read`);
        return { page, total: compiled.knownTotal ?? 0 };
      };
      const { page, total } = pageAt(0);
      const newPages = newPageOffsets(total, limit).map((offset) => pageAt(offset).page.sql);
      const result = await withConnection(db, async (conn) => {
        const prepared = await conn.prepare(page.sql);
        const timed = (run: () => Promise<unknown>) =>
          measure(RUNS, async () => {
            const started = performance.now();
            await run();
            return performance.now() - started;
          });
        try {
          const query = await timed(() => conn.run(page.sql));
          const execute = await timed(() => prepared.run());
          let next = 0;
          const newPage = await timed(() => conn.run(newPages[next++ % newPages.length]!));
          return { name, query, execute, newPage };
        } finally {
          prepared.destroySync();
        }
      });
      console.log(
        `${name}, raw DuckDB: query p50 ${result.query.p50} ms, execution alone p50 ${result.execute.p50} ms, new page p50 ${result.newPage.p50} ms`,
      );
      out.push(result);
    }
    return out;
  } finally {
    engine.dispose();
    db.closeSync();
  }
}

/** `npm run bench -- --only rows`: the columnar section alone, its figures replacing that part of the results. */
export async function rowsOnly(): Promise<void> {
  prepareSection();
  const results = readResults();
  const port = await freePort();
  const service = await startService(port);
  try {
    results.columnar = await columnarRows(await openSession(port));
  } finally {
    service.kill('SIGTERM');
  }
  writeResults(results);
}
