/**
 * The merge's day-by-day rules for raw rows (raw-rows.ts), which are not one per key: a day's raw rows are compared
 * as a whole (their count and the sum of their rows' hashes), never summed, so importing the same file again reads it
 * once more and changes nothing.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { dataSource, type DataSourceId } from '../../catalog/data-sources.ts';
import { quoteIdent, quoteLiteral, textOf } from '../db/duckdb.ts';
import { ImportError, REPLACE_HINT } from './import-error.ts';
import type { Coverage, StagedTableId } from './importer.ts';
import { columnsOf, isRawTableId, rawTablesOf } from '../source-data/raw-rows.ts';
import { IMPORT_COLUMN, type SourceVersion } from '../source-data/source-store.ts';

const rowsOf = async (conn: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> =>
  (await conn.runAndReadAll(sql)).getRowObjectsJS();
const countOf = async (conn: DuckDBConnection, sql: string): Promise<number> =>
  Number((await conn.runAndReadAll(sql)).getRowsJS()[0]?.[0] ?? 0);

/**
 * Without --replace, raw rows may not come onto days where the source holds keyed rows of the tables they feed, nor
 * keyed rows onto days where it holds raw rows that feed their table, nor rows by date onto a period's days in one
 * table (refuseDatesInPeriods): the join would count both. Daily rows are compared by their days; a period import's
 * totals (placed on its last day) stand for every day of its period, so a period on either side is compared by its
 * whole span.
 */
export async function refuseMixedDays(
  conn: DuckDBConnection,
  source: DataSourceId,
  live: SourceVersion | undefined,
  fresh: ReadonlyMap<StagedTableId, string>,
  coverage: Coverage,
  fileNames: string,
): Promise<void> {
  if (!live) return;
  const date = quoteIdent(dataSource(source).dateColumn);
  const inRange = `${date} BETWEEN ${quoteLiteral(coverage.start)}::DATE AND ${quoteLiteral(coverage.end)}::DATE`;
  for (const raw of rawTablesOf(source)) {
    const rawNew = fresh.get(raw.id);
    const pairs = rawNew
      ? raw.feeds.map((f) => ({ neu: rawNew, held: f.table })).filter((p) => !fresh.has(p.held))
      : raw.feeds.flatMap((f) =>
          fresh.has(f.table) ? [{ neu: fresh.get(f.table)!, held: raw.id, keyed: f.table }] : [],
        );
    for (const pair of pairs) {
      const { neu, held } = pair;
      const rows = live.rowsOf(held);
      if (!rows) continue;
      const what = rawNew ? `rows of another format (${held})` : `the bulk export's rows (${raw.id})`;
      const text = { what, fileNames };
      if (rawNew) await refuseHeldPeriods(conn, live, { held, rows, raw: live.rowsOf(raw.id), neu, date }, text);
      else if (coverage.granularity === 'period' && 'keyed' in pair)
        await refuseNewPeriod(
          conn,
          { rows, neu, held: live.rowsOf(pair.keyed), keyed: pair.keyed, date },
          coverage,
          text,
        );
      const days = await rowsOf(conn, `SELECT DISTINCT ${date}::VARCHAR AS day FROM ${rows} WHERE ${inRange}`);
      if (days.length === 0) continue;
      const list = days.map((d) => `${quoteLiteral(textOf(d.day))}::DATE`).join(', ');
      const [first] = await rowsOf(conn, `SELECT min(${date})::VARCHAR AS day FROM ${neu} WHERE ${date} IN (${list})`);
      if (first?.day === null || first?.day === undefined) continue;
      throw new ImportError(
        `${fileNames}: ${textOf(first.day)} holds ${what} imported before; ${REPLACE_HINT.cli}`,
        'conflict',
      );
    }
  }
  await refuseDatesInPeriods(conn, { date, live, fresh, coverage, fileNames });
}

interface MixedDays {
  date: string;
  live: SourceVersion;
  fresh: ReadonlyMap<StagedTableId, string>;
  coverage: Coverage;
  fileNames: string;
}

/**
 * Without --replace, a keyed table may not hold both a period's totals and rows by date on the days of that period
 * (e.g. the Search Analytics API's daily page rows beside a Performance export's totals): the join would count those
 * days twice. New dated rows are compared with the spans of the periods the table holds; a new period with the days
 * of the dated rows it holds. The same period file again brings only its own rows, which are no conflict.
 */
async function refuseDatesInPeriods(
  conn: DuckDBConnection,
  { date, live, fresh, coverage, fileNames }: MixedDays,
): Promise<void> {
  const imports = live.meta.imports.filter((i) => i.id !== undefined);
  const isPeriod = (i: (typeof imports)[number]): boolean => i.coverage.granularity === 'period';
  const spanIn = (start: string, end: string): string =>
    `${date} BETWEEN ${quoteLiteral(start)}::DATE AND ${quoteLiteral(end)}::DATE`;
  const ofImports = (ids: string[]): string =>
    `${quoteIdent(IMPORT_COLUMN)} IN (${ids.map((id) => quoteLiteral(id)).join(', ')})`;
  for (const [tableId, neu] of fresh) {
    const rows = live.rowsOf(tableId);
    if (isRawTableId(tableId) || !rows || !(await hasImportColumn(conn, rows))) continue;
    if (coverage.granularity === 'period') {
      const dated = imports.filter((i) => !isPeriod(i)).map((i) => i.id!);
      const span = dated.length
        ? await spanOf(conn, rows, date, `${spanIn(coverage.start, coverage.end)} AND ${ofImports(dated)}`)
        : undefined;
      if (span)
        throw new ImportError(
          `${fileNames}: its totals for ${coverage.start} to ${coverage.end} (one period) overlap the ${tableId} rows by date imported before on ${span.start} to ${span.end}; ${REPLACE_HINT.cli}`,
          'conflict',
        );
      continue;
    }
    for (const period of imports.filter(isPeriod)) {
      const { start, end } = period.coverage;
      if (!(await spanOf(conn, rows, date, ofImports([period.id!])))) continue;
      const span = await spanOf(conn, neu, date, spanIn(start, end));
      if (span)
        throw new ImportError(
          `${fileNames}: its rows on ${span.start} to ${span.end} overlap the totals for ${start} to ${end} (one period, ${tableId}) imported before; ${REPLACE_HINT.cli}`,
          'conflict',
        );
    }
  }
}

const hasImportColumn = async (conn: DuckDBConnection, rows: string): Promise<boolean> =>
  (await rowsOf(conn, `DESCRIBE SELECT * FROM ${rows}`)).some((r) => r.column_name === IMPORT_COLUMN);

const spanOf = async (conn: DuckDBConnection, rows: string, date: string, where: string) => {
  const [span] = await rowsOf(
    conn,
    `SELECT min(${date})::VARCHAR AS s, max(${date})::VARCHAR AS e FROM ${rows} WHERE ${where}`,
  );
  return span?.s === null || span?.s === undefined ? undefined : { start: textOf(span.s), end: textOf(span.e) };
};

/**
 * A new period import's totals may not cover days that hold raw rows, unless it brings no row the version lacks (the
 * same file again changes nothing).
 */
async function refuseNewPeriod(
  conn: DuckDBConnection,
  tables: { rows: string; neu: string; held: string | undefined; keyed: string; date: string },
  coverage: Coverage,
  text: { what: string; fileNames: string },
): Promise<void> {
  const { date } = tables;
  const inSpan = `${date} BETWEEN ${quoteLiteral(coverage.start)}::DATE AND ${quoteLiteral(coverage.end)}::DATE`;
  const span = await spanOf(conn, tables.rows, date, inSpan);
  if (!span) return;
  if (tables.held) {
    const columns = columnsOf(tables.keyed)
      .map((c) => quoteIdent(c.name))
      .join(', ');
    const added = await rowsOf(
      conn,
      `SELECT 1 FROM (SELECT ${columns} FROM ${tables.neu} EXCEPT SELECT ${columns} FROM ${tables.held}) LIMIT 1`,
    );
    if (added.length === 0) return;
  }
  throw new ImportError(
    `${text.fileNames}: its totals for ${coverage.start} to ${coverage.end} (one period) overlap ${text.what} imported before on ${span.start} to ${span.end}; ${REPLACE_HINT.cli}`,
    'conflict',
  );
}

/**
 * New raw rows may not come onto a day in the span of a period import whose totals the version holds; days that
 * already hold raw rows are left to rawRowsAdded (the same rows change nothing, other rows are refused).
 */
async function refuseHeldPeriods(
  conn: DuckDBConnection,
  live: SourceVersion,
  tables: { held: string; rows: string; raw: string | undefined; neu: string; date: string },
  text: { what: string; fileNames: string },
): Promise<void> {
  const { rows, date } = tables;
  const periods = live.meta.imports.filter((i) => i.id !== undefined && i.coverage.granularity === 'period');
  if (periods.length === 0) return;
  if (!(await hasImportColumn(conn, rows))) return;
  const ids = periods.map((p) => quoteLiteral(p.id!)).join(', ');
  const holding = await rowsOf(
    conn,
    `SELECT DISTINCT ${quoteIdent(IMPORT_COLUMN)} AS id FROM ${rows} WHERE ${quoteIdent(IMPORT_COLUMN)} IN (${ids}) ORDER BY id`,
  );
  const heldRaw = tables.raw ? ` AND ${date} NOT IN (SELECT DISTINCT ${date} FROM ${tables.raw})` : '';
  for (const { id } of holding) {
    const { start, end } = periods.find((p) => p.id === textOf(id))!.coverage;
    const inSpan = `${date} BETWEEN ${quoteLiteral(start)}::DATE AND ${quoteLiteral(end)}::DATE`;
    const span = await spanOf(conn, tables.neu, date, inSpan + heldRaw);
    if (!span) continue;
    throw new ImportError(
      `${text.fileNames}: its rows on ${span.start} to ${span.end} overlap the totals for ${start} to ${end} (one period, ${tables.held}) imported before; ${REPLACE_HINT.cli}`,
      'conflict',
    );
  }
}

/** Per day: the rows' count and the sum of their hashes, over the columns of the table (not the import id). */
function daysOf(tableId: StagedTableId, rows: string, inRange: string, dateColumn: string): string {
  const date = quoteIdent(dateColumn);
  const values = columnsOf(tableId)
    .filter((c) => c.name !== dateColumn)
    .map((c) => quoteIdent(c.name))
    .join(', ');
  return `SELECT ${date} AS day, count(*) AS n, sum(hash(${values}))::HUGEINT AS h FROM ${rows} WHERE ${inRange} GROUP BY ${date}`;
}

/**
 * The new raw rows on days the version holds none of; a day it holds other raw rows on is refused. `old` and
 * `tagged` are relations with the table's columns and the import id.
 */
export async function rawRowsAdded(
  conn: DuckDBConnection,
  tableId: StagedTableId,
  old: string,
  tagged: string,
  inRange: string,
  dateColumn: string,
  fileNames: string,
): Promise<string> {
  await conn.run(`CREATE OR REPLACE TEMP TABLE raw_new_days AS ${daysOf(tableId, tagged, inRange, dateColumn)}`);
  await conn.run(`CREATE OR REPLACE TEMP TABLE raw_old_days AS ${daysOf(tableId, old, inRange, dateColumn)}`);
  const [differing] = await rowsOf(
    conn,
    `SELECT n.day::VARCHAR AS day, count(*) OVER () AS days FROM raw_new_days n JOIN raw_old_days o USING (day)
     WHERE n.n <> o.n OR n.h <> o.h ORDER BY n.day LIMIT 1`,
  );
  if (differing)
    throw new ImportError(
      `${fileNames}: other ${tableId} rows than imported before on ${Number(differing.days)} of its days (first: ${textOf(differing.day)}); ${REPLACE_HINT.cli}`,
      'conflict',
    );
  return `(SELECT t.* FROM ${tagged} t ANTI JOIN raw_old_days o ON t.${quoteIdent(dateColumn)} = o.day)`;
}

/** With --replace: the rows the new ones change on their dates (raw rows: every row of a day that differs). */
export async function changedRowsOf(
  conn: DuckDBConnection,
  tableId: StagedTableId,
  dropped: string | undefined,
  neu: string | undefined,
  columns: string,
  dateColumn: string,
): Promise<number> {
  if (!neu) return dropped ? countOf(conn, `SELECT count(*) FROM ${dropped}`) : 0;
  if (!dropped) return countOf(conn, `SELECT count(*) FROM ${neu}`);
  if (!isRawTableId(tableId))
    return countOf(
      conn,
      `SELECT (SELECT count(*) FROM (SELECT ${columns} FROM ${neu} EXCEPT ALL SELECT * FROM ${dropped})) + (SELECT count(*) FROM (SELECT * FROM ${dropped} EXCEPT ALL SELECT ${columns} FROM ${neu}))`,
    );
  const days = (rows: string) => daysOf(tableId, rows, 'TRUE', dateColumn);
  return countOf(
    conn,
    `SELECT COALESCE(sum(COALESCE(n.n, 0) + COALESCE(o.n, 0)), 0) FROM (${days(neu)}) n FULL JOIN (${days(dropped)}) o
     USING (day) WHERE n.n IS DISTINCT FROM o.n OR n.h IS DISTINCT FROM o.h`,
  );
}
