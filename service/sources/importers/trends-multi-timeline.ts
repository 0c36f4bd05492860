/**
 * Google Trends' "Interest over time" download, multiTimeline.csv, as Trends writes it: `Category: All
 * categories`, a blank line, then `Week,alpine travel: (Germany),…` (or `Day`, or `Month` for spans over five years)
 * and one row per period with each term's interest from 0 to 100, where `<1` means above 0 but under 1 (kept as
 * 0.5). Hourly files (`Time`) are refused: the contract's trends are weekly at most.
 *
 * Each value is placed on its period's first day (the week's Sunday, the month's 1st), which the trends table calls
 * the week start. The values of one file are relative to the comparison's peak, so the comparison is the topic:
 * the terms joined with " vs " (the term itself for a single term); the region is named in the summary.
 */
import { cellError, ImportError } from '../import-error.ts';
import { dateText } from '../cells.ts';
import { isBlank, parseCsv, type CsvRecord } from '../csv-text.ts';
import { headLines, readText, stageRows, type Importer, type Row, type SourceFile } from '../importer.ts';

const CATEGORY = /^\s*"?Category: /;
const TERM = /^(.+): \((.+)\)$/;
const PERIODS: Record<string, 'day' | 'week' | 'month'> = { day: 'day', week: 'week', month: 'month' };

interface Timeline {
  granularity: 'day' | 'week' | 'month';
  terms: { column: number; query: string; region: string }[];
  rows: CsvRecord[];
}

function timelineOf(file: SourceFile): Timeline {
  const records = parseCsv(file.name, readText(file)).filter((r) => !isBlank(r));
  const [, header, ...rows] = records;
  const period = header?.cells[0]?.trim().toLowerCase() ?? '';
  if (period === 'time')
    throw new ImportError(`${file.name}: hourly interest (a "Time" column); download a week or more`);
  const granularity = PERIODS[period];
  if (!header || !granularity)
    throw new ImportError(`${file.name}:3: no "Week", "Day" or "Month" header below the category line`);
  const terms = header.cells.slice(1).map((cell, i) => {
    const match = TERM.exec(cell.trim());
    if (!match) throw cellError(file.name, header.line, i + 2, `"${cell}" is not a "term: (Region)" column`);
    return { column: i + 1, query: match[1]!.trim(), region: match[2]!.trim() };
  });
  return { granularity, terms, rows };
}

function dateOf(file: string, record: CsvRecord, granularity: Timeline['granularity']): string {
  const text = (record.cells[0] ?? '').trim();
  const day = dateText(granularity === 'month' ? `${text}-01` : text);
  if (!day || (granularity !== 'month' && !/^\d{4}-\d{2}-\d{2}$/.test(text)))
    throw cellError(
      file,
      record.line,
      1,
      `"${text}" is not a ${granularity === 'month' ? 'month (YYYY-MM)' : 'day (YYYY-MM-DD)'}`,
    );
  return day;
}

function valueOf(file: string, record: CsvRecord, column: number): number {
  const text = (record.cells[column] ?? '').trim();
  if (text === '<1') return 0.5;
  if (!/^\d{1,3}$/.test(text) || Number(text) > 100)
    throw cellError(file, record.line, column + 1, `interest "${text}" is not a whole number from 0 to 100 (or <1)`);
  return Number(text);
}

export const trendsMultiTimeline: Importer = {
  source: 'trends',
  format: 'Google Trends multiTimeline.csv',
  detect(file) {
    const [category, blank, header] = headLines(file);
    return CATEGORY.test(category ?? '') && (blank ?? '').trim() === '' && /^(Week|Day|Month|Time),/.test(header ?? '');
  },
  async stage(files, ctx) {
    const rows: Row[] = [];
    const days: string[] = [];
    const regions = new Set<string>();
    const granularities = new Set<Timeline['granularity']>();
    for (const file of files) {
      const timeline = timelineOf(file);
      granularities.add(timeline.granularity);
      const topic = timeline.terms.map((t) => t.query).join(' vs ');
      for (const term of timeline.terms) regions.add(term.region);
      for (const record of timeline.rows) {
        const date = dateOf(file.name, record, timeline.granularity);
        days.push(date);
        for (const term of timeline.terms)
          rows.push({ date, topic, query: term.query, value: valueOf(file.name, record, term.column) });
      }
    }
    if (granularities.size > 1)
      throw new ImportError(`${files.map((f) => f.name).join(', ')}: mixes ${[...granularities].join(' and ')} files`);
    days.sort();
    if (rows.length === 0 || !days[0]) throw new ImportError(`${files.map((f) => f.name).join(', ')}: no rows`);
    return {
      tables: new Map([['trends', await stageRows(ctx, 'trends', rows)]]),
      coverage: { start: days[0], end: days.at(-1)!, granularity: [...granularities][0]! },
      notes: [`interest in ${[...regions].join(', ')}`],
    };
  },
};
