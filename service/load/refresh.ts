/**
 * Which live crawls need their reports precomputed again, and why: precomputed by another engine version, from
 * report definitions that changed since, or diffed against data that is no longer their next older crawl (an
 * older crawl loaded later, or a --replace). The engine serves such crawls with live queries until refreshed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { catalog } from '../../catalog/index.ts';
import { openDatabase, quoteIdent, quoteLiteral, withConnection } from '../db/duckdb.ts';
import { PRECOMPUTE_INFO_TABLE, PRECOMPUTE_VERSION, REPORT_COUNTS_TABLE } from '../engine/precompute.ts';
import { shapeOf } from '../engine/report-shape.ts';
import { textOf } from '../engine/result.ts';
import { crawlMetaSchema, dataIdOf } from '../store/crawl-meta.ts';
import { CRAWL_META_FILE, listLiveCrawls, type LiveCrawl } from '../store/layout.ts';
import { refreshCrawl, type LoadResult, type RefreshOptions } from './load-crawl.ts';

export interface StaleCrawl {
  websiteId: string;
  crawlId: number;
  reason: string;
}

const readMeta = (crawl: LiveCrawl) =>
  crawlMetaSchema.parse(JSON.parse(fs.readFileSync(path.join(crawl.dir, CRAWL_META_FILE), 'utf8')));

/** Live crawls whose precomputed reports are out of date, oldest first within each website. */
export async function findStaleCrawls(dataDir: string, websiteId?: string): Promise<StaleCrawl[]> {
  const live = listLiveCrawls(dataDir).filter((c) => websiteId === undefined || c.websiteId === websiteId);
  const fingerprints = new Map(catalog.reports.map((r) => [r.id, shapeOf(r).fingerprint]));
  const stale: StaleCrawl[] = [];
  const db = await openDatabase();
  try {
    await withConnection(db, async (conn) => {
      for (const [i, crawl] of live.entries()) {
        const previous = live[i + 1]?.websiteId === crawl.websiteId ? live[i + 1] : undefined;
        const alias = 'crawl';
        await conn.run(`ATTACH ${quoteLiteral(crawl.dbFile)} AS ${alias} (READ_ONLY)`);
        try {
          const tables = new Set(
            (
              await conn.runAndReadAll(
                `SELECT table_name FROM duckdb_tables() WHERE database_name = '${alias}' AND schema_name = 'main'`,
              )
            )
              .getRowsJS()
              .map((r) => textOf(r[0])),
          );
          const version = tables.has(PRECOMPUTE_INFO_TABLE)
            ? Number(
                (
                  await conn.runAndReadAll(`SELECT max(version) FROM ${alias}.${PRECOMPUTE_INFO_TABLE}`)
                ).getRowsJS()[0]?.[0],
              )
            : 0;
          const reason = await (async (): Promise<string | undefined> => {
            if (version !== PRECOMPUTE_VERSION)
              return `precomputed by engine version ${version || 'before 2'}, this build uses ${PRECOMPUTE_VERSION}`;
            const rows = (
              await conn.runAndReadAll(
                `SELECT report_id, fingerprint, previous_crawl_id, previous_data_id FROM ${alias}.${quoteIdent(REPORT_COUNTS_TABLE)}`,
              )
            ).getRowsJS();
            const stored = new Map(rows.map((r) => [textOf(r[0]), textOf(r[1])]));
            const changed = [...fingerprints].filter(([id, fingerprint]) => stored.get(id) !== fingerprint);
            if (changed.length > 0)
              return `${changed.length} report definition${changed.length === 1 ? '' : 's'} changed (${changed
                .slice(0, 3)
                .map(([id]) => id)
                .join(', ')}${changed.length > 3 ? ', …' : ''})`;
            const [previousCrawlId, previousDataId] = rows[0] ? [rows[0][2], rows[0][3]] : [null, null];
            const expected = previous ? dataIdOf(readMeta(previous)) : null;
            const storedPrevious = previousCrawlId === null ? null : Number(previousCrawlId);
            if (storedPrevious !== (previous?.crawlId ?? null) || (previousDataId ?? null) !== expected)
              return previous
                ? `Added/Removed were diffed against ${storedPrevious === null ? 'no crawl' : `other data of crawl ${storedPrevious}`}, the previous crawl is now crawl ${previous.crawlId}`
                : `Added/Removed were diffed against crawl ${storedPrevious}, which is no longer loaded`;
            return undefined;
          })();
          if (reason) stale.push({ websiteId: crawl.websiteId, crawlId: crawl.crawlId, reason });
        } finally {
          await conn.run(`DETACH ${alias}`);
        }
      }
    });
  } finally {
    db.closeSync();
  }
  return stale.sort((a, b) => a.websiteId.localeCompare(b.websiteId) || a.crawlId - b.crawlId);
}

/** Refreshes every stale crawl, oldest first so that each diff reads its previous crawl's fresh rows. */
export async function refreshStaleCrawls(
  options: Omit<RefreshOptions, 'websiteId' | 'crawlId'> & {
    websiteId?: string;
    onCrawl?: (crawl: StaleCrawl) => void;
  },
): Promise<LoadResult[]> {
  const results: LoadResult[] = [];
  for (const crawl of await findStaleCrawls(options.dataDir, options.websiteId)) {
    options.onCrawl?.(crawl);
    results.push(await refreshCrawl({ ...options, websiteId: crawl.websiteId, crawlId: crawl.crawlId }));
  }
  return results;
}
