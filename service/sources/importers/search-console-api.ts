/**
 * The Search Console Search Analytics API's query response (searchanalytics.query), saved as JSON: `{"rows":
 * [{"keys": ["2026-11-02", "https://…/de/", "alpine travel"], "clicks": 23, "impressions": 200, "ctr": 0.115,
 * "position": 1.84}], "responseAggregationType": "byPage"}`. The response does not name its dimensions, so each key
 * position is told by its values: dates (YYYY-MM-DD), pages (http(s) URLs), devices (DESKTOP, MOBILE, TABLET),
 * search appearances (UPPER_CASE), countries (three lower-case letters, ISO 3166-1 alpha-3), the rest the query.
 * Several files (the pages of one request, startRow 0, 25000, …) are read together.
 *
 * The page dimension is required. With a date dimension the rows are daily, else totals over --start/--end placed
 * on its last day. Rows with a query fill search_console_queries only: the API leaves anonymized queries out of them,
 * so their sum per page is lower than the page's total; import a response without the query dimension for
 * search_console (the pages' totals).
 */
import { dateText } from '../cells.ts';
import { ImportError } from '../import-error.ts';
import { headLines, readText, stageRows, type Importer, type Row, type SourceFile } from '../importer.ts';

type Role = 'date' | 'page' | 'device' | 'appearance' | 'country' | 'query';

interface ApiRow {
  keys?: unknown;
  clicks?: unknown;
  impressions?: unknown;
  position?: unknown;
}

const ROLE_TESTS: [Role, (value: string) => boolean][] = [
  ['date', (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && dateText(v) !== undefined],
  ['page', (v) => /^https?:\/\//i.test(v)],
  ['device', (v) => ['DESKTOP', 'MOBILE', 'TABLET'].includes(v)],
  ['appearance', (v) => /^[A-Z][A-Z0-9_]+$/.test(v)],
  ['country', (v) => /^[a-z]{3}$/.test(v)],
];

function rowsOf(file: SourceFile): ApiRow[] {
  let body: unknown;
  try {
    body = JSON.parse(readText(file));
  } catch (error) {
    throw new ImportError(`${file.name}: not readable JSON (${(error as Error).message})`);
  }
  const rows = (body as { rows?: unknown }).rows ?? [];
  if (!Array.isArray(rows)) throw new ImportError(`${file.name}: "rows" is not a list`);
  return rows as ApiRow[];
}

/** Each key position's role, told from every row's value there. */
function rolesOf(name: string, rows: { file: string; row: ApiRow }[]): Role[] {
  const width = rows.reduce((w, { row }) => Math.max(w, Array.isArray(row.keys) ? row.keys.length : 0), 0);
  const roles = Array.from({ length: width }, (_, k): Role => {
    const values = rows.map(({ row }) => (row.keys as unknown[] | undefined)?.[k]);
    return ROLE_TESTS.find(([, test]) => values.every((v) => typeof v === 'string' && test(v)))?.[0] ?? 'query';
  });
  if (!roles.includes('page'))
    throw new ImportError(`${name}: no page among the keys; request the "page" dimension (with "date" for days)`);
  if (roles.filter((r) => r === 'query').length > 1)
    throw new ImportError(`${name}: two keys read as queries; request page, query and date only`);
  return roles;
}

function numberAt(file: string, i: number, row: ApiRow, field: 'clicks' | 'impressions' | 'position'): number {
  const value = row[field];
  const isCount = field !== 'position';
  if (typeof value !== 'number' || !Number.isFinite(value) || (isCount && !Number.isSafeInteger(value)))
    throw new ImportError(
      `${file}: rows[${i}].${field} ${JSON.stringify(value) ?? 'missing'} is not ${isCount ? 'a whole number' : 'a number'}`,
    );
  return value;
}

export const searchConsoleApi: Importer = {
  source: 'search-console',
  format: 'Search Console Search Analytics API response (JSON)',
  detect(file) {
    const text = headLines(file).join('\n');
    return (
      text.trimStart().startsWith('{') &&
      (text.includes('"responseAggregationType"') || (text.includes('"keys"') && text.includes('"impressions"')))
    );
  },
  async stage(files, ctx) {
    const all = files.flatMap((file) => rowsOf(file).map((row, i) => ({ file: file.name, i, row })));
    const named = files.map((f) => f.name).join(', ');
    if (all.length === 0) throw new ImportError(`${named}: no rows`);
    const roles = rolesOf(named, all);
    const hasDate = roles.includes('date');
    if (!hasDate && !ctx.range)
      throw new ImportError(`${named}: rows without a date key: give the dates of the request with --start and --end`);
    const pages: Row[] = [];
    const queries: Row[] = [];
    for (const { file, i, row } of all) {
      const keys: unknown[] = Array.isArray(row.keys) ? (row.keys as unknown[]) : [];
      if (keys.length !== roles.length || !keys.every((k): k is string => typeof k === 'string'))
        throw new ImportError(`${file}: rows[${i}].keys is not a list of ${roles.length} texts like the other rows'`);
      const key = (role: Role): string => keys[roles.indexOf(role)] ?? '';
      const values = {
        date: hasDate ? key('date') : ctx.range!.end,
        url: key('page'),
        clicks: numberAt(file, i, row, 'clicks'),
        impressions: numberAt(file, i, row, 'impressions'),
        position: numberAt(file, i, row, 'position'),
      };
      if (roles.includes('query')) queries.push({ ...values, query: key('query') });
      else pages.push(values);
    }
    const days = hasDate ? all.map(({ row }) => (row.keys as string[])[roles.indexOf('date')]!).sort() : [];
    const range = hasDate ? { start: days[0]!, end: days.at(-1)! } : ctx.range!;
    const table = roles.includes('query') ? 'search_console_queries' : 'search_console';
    return {
      tables: new Map([[table, await stageRows(ctx, table, table === 'search_console' ? pages : queries)]]),
      coverage: { ...range, granularity: hasDate ? 'day' : 'period' },
      notes:
        table === 'search_console_queries'
          ? ['query rows fill the queries only (the API leaves anonymized queries out of them)']
          : [],
    };
  },
};
