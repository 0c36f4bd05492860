/**
 * The import section's input: 16 months of Search Console's bulk export table `searchdata_url_impression` for the
 * benchmark site, with Google's columns (every search appearance flag, as BigQuery exports them), written once as
 * Parquet and as CSV under BENCH_DIR and kept. 30 rows per URL of the site (30M at 1M URLs): each row one day, one
 * crawled URL, a query (one in five anonymized, without text), a country, a device.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, quoteLiteral } from '../../service/db/duckdb.ts';
import { listLiveCrawls } from '../../service/store/layout.ts';
import { BENCH_DIR, CRAWLS, dataDir, SITE, URLS } from './config.ts';

export const ROWS_PER_URL = 30;
export const MONTHS = 16;

const APPEARANCES = [
  'is_amp_top_stories',
  'is_amp_blue_link',
  'is_job_listing',
  'is_job_details',
  'is_tpf_qa',
  'is_tpf_faq',
  'is_tpf_howto',
  'is_weblite',
  'is_action',
  'is_events_listing',
  'is_events_details',
  'is_search_appearance_android_app',
  'is_amp_story',
  'is_amp_image_result',
  'is_video',
  'is_organic_shopping',
  'is_review_snippet',
  'is_special_announcement',
  'is_recipe_feature',
  'is_recipe_rich_snippet',
  'is_subscribed_content',
  'is_page_experience',
  'is_practice_problems',
  'is_math_solvers',
  'is_translated_result',
  'is_edu_q_and_a',
];

export interface BulkExport {
  parquet: string;
  csv: string;
  rows: number;
  /** The days covered, the newest crawl's data window at the end. */
  start: string;
  end: string;
  parquetMb: number;
  csvMb: number;
}

const mbOf = (file: string): number => Math.round(fs.statSync(file).size / 1024 / 1024);

/** Writes the two files unless a finished pair is there (described by its bulk.json, written last). */
export async function bulkExport(): Promise<BulkExport> {
  const dir = path.join(BENCH_DIR, `import-${URLS}-${CRAWLS}`);
  const described = path.join(dir, 'bulk.json');
  if (fs.existsSync(described)) return JSON.parse(fs.readFileSync(described, 'utf8')) as BulkExport;
  const newest = listLiveCrawls(dataDir)
    .filter((c) => c.websiteId === SITE)
    .sort((a, b) => b.crawlId - a.crawlId)[0];
  if (!newest) throw new Error(`no crawl of ${SITE} in ${dataDir}`);
  const { dataEnd, startUrl } = newest.meta.manifest;
  return writeBulkExport(dir, `ATTACH ${quoteLiteral(newest.dbFile)} AS crawl (READ_ONLY)`, 'crawl.main.urls', {
    end: dataEnd,
    origin: new URL(startUrl).origin,
  });
}

/**
 * The two files into `dir` from the crawled pages of `urls` (a table `attach` makes readable): the store's newest
 * crawl, or its export's urls.parquet while the store is still loading.
 */
export async function writeBulkExport(
  dir: string,
  attach: string | undefined,
  urls: string,
  { end, origin }: { end: string; origin: string },
): Promise<BulkExport> {
  const described = path.join(dir, 'bulk.json');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const rows = ROWS_PER_URL * URLS;
  const db = await openDatabase(':memory:', { memoryLimit: '1GB' });
  const conn = await db.connect();
  try {
    await conn.run(`SET temp_directory = ${quoteLiteral(path.join(dir, 'tmp'))}`);
    if (attach) await conn.run(attach);
    await conn.run(`CREATE TABLE pages AS SELECT row_number() OVER (ORDER BY url) - 1 AS i, url
      FROM ${urls} WHERE COALESCE(found_in_web_crawl, FALSE)`);
    if (attach) await conn.run('DETACH crawl');
    // A literal count: a join on a count from another subquery would be planned as a nested loop.
    const pages = Number((await conn.runAndReadAll('SELECT count(*) FROM pages')).getRowsJS()[0]![0]);
    if (pages === 0) throw new Error(`${urls}: no crawled page`);
    const start = (
      await conn.runAndReadAll(
        `SELECT (${quoteLiteral(end)}::DATE - INTERVAL ${MONTHS} MONTH + INTERVAL 1 DAY)::DATE::VARCHAR`,
      )
    ).getRowsJS()[0]![0] as string;
    const days = `(${quoteLiteral(end)}::DATE - ${quoteLiteral(start)}::DATE + 1)`;
    const flags = APPEARANCES.map((c, i) => `(r % ${97 + i} = 0) AS ${c}`).join(', ');
    const select = `SELECT (${quoteLiteral(start)}::DATE + (r % ${days})::INTEGER) AS data_date,
        ${quoteLiteral(`${origin}/`)} AS site_url, p.url,
        CASE WHEN r % 5 = 0 THEN NULL ELSE 'northwind ' || (hash(r // 7) % ${Math.max(1, Math.floor(pages / 4))})::VARCHAR END AS query,
        r % 5 = 0 AS is_anonymized_query, FALSE AS is_anonymized_discover,
        ['usa', 'gbr', 'deu', 'fra', 'can', 'aus'][1 + r % 6] AS country, 'WEB' AS search_type,
        ['DESKTOP', 'MOBILE', 'TABLET'][1 + (r // 6) % 3] AS device, ${flags},
        (1 + hash(r) % 40)::BIGINT AS impressions, (hash(r) % 3)::BIGINT AS clicks,
        ((1 + hash(r) % 40) * (hash(r // 3) % 30))::DOUBLE AS sum_position
      FROM range(${rows}) t(r) JOIN pages p ON p.i = hash(r * 31) % ${pages}`;
    const parquet = path.join(dir, 'searchdata_url_impression.parquet');
    const csv = path.join(dir, 'searchdata_url_impression.csv');
    console.log(`Generating ${rows.toLocaleString('en-GB')} rows of searchdata_url_impression into ${dir} …`);
    await conn.run(`COPY (${select}) TO ${quoteLiteral(parquet)} (FORMAT parquet, COMPRESSION zstd)`);
    await conn.run(`COPY (SELECT * FROM read_parquet(${quoteLiteral(parquet)})) TO ${quoteLiteral(csv)} (HEADER)`);
    const result: BulkExport = { parquet, csv, rows, start, end, parquetMb: mbOf(parquet), csvMb: mbOf(csv) };
    fs.writeFileSync(described, JSON.stringify(result, null, 2));
    return result;
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}
