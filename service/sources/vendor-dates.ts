/**
 * The dates vendors print in their report headers, in the English notations their exports use: ISO
 * (2026-09-01), Google's "September 1, 2026", "Sep 1, 2026" and "1 September 2026", and Microsoft's US
 * "9/1/2026". A range is the first two dates of the text, whatever stands between them (" - ", " to ", ",").
 */
import { dateText } from './cells.ts';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const NAME = '([A-Za-z]{3,9})\\.?';
const DATE = new RegExp(
  [
    '(\\d{4})-(\\d{1,2})-(\\d{1,2})',
    '(\\d{1,2})/(\\d{1,2})/(\\d{4})',
    `${NAME} (\\d{1,2}),? (\\d{4})`,
    `(\\d{1,2}) ${NAME},? (\\d{4})`,
  ].join('|'),
  'g',
);

/** The month number (1-12) of an English month name or its abbreviation. */
export function monthOf(name: string): number | undefined {
  const lower = name.toLowerCase();
  const index = MONTHS.indexOf(lower.slice(0, 3));
  const full = new Date(Date.UTC(2000, index, 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' });
  return index >= 0 && full.toLowerCase().startsWith(lower) ? index + 1 : undefined;
}

const iso = (year: string, month: number | undefined, day: string): string | undefined =>
  month === undefined ? undefined : dateText(`${year}-${String(month).padStart(2, '0')}-${day.padStart(2, '0')}`);

function fromMatch(m: RegExpMatchArray): string | undefined {
  if (m[1]) return iso(m[1], Number(m[2]), m[3]!);
  if (m[4]) return iso(m[6]!, Number(m[4]), m[5]!);
  if (m[7]) return iso(m[9]!, monthOf(m[7]), m[8]!);
  return iso(m[12]!, monthOf(m[11]!), m[10]!);
}

/** Every date of the text, in order; undefined when one of them is no real day. */
export function datesIn(text: string): string[] | undefined {
  const dates = [...text.matchAll(DATE)].map(fromMatch);
  return dates.every((d) => d !== undefined) ? dates : undefined;
}

/** The range a report header states: two dates, or one for a single day. */
export function dateRangeIn(text: string): { start: string; end: string } | undefined {
  const dates = datesIn(text);
  const [start, end = start] = dates ?? [];
  if (!start || !end || dates!.length > 2) return undefined;
  return start <= end ? { start, end } : undefined;
}
