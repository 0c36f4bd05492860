/** CSV of spec §9: comma separator, a BOM, file name lowercased with underscores plus a unix-seconds suffix. */
import { CSV_BOM, CSV_SEPARATOR } from './constants.ts';

const NEEDS_QUOTES = new RegExp(`["\r\n${CSV_SEPARATOR.replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&')}]`);
/** First characters that start a spreadsheet formula (OWASP CSV injection): = + - @, tab, carriage return, line feed. */
const FORMULA_STARTS = new Set([0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d, 0x0a]);
/**
 * Spreadsheets skip leading blanks and a quote, and read full-width (and small) = + - @ as their ASCII forms, so
 * these lead to a formula too.
 */
const FORMULA_AFTER_LEAD = /^[\s'"]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\uFE62\uFE63\uFE66\uFE6B]/;
const isMaybeLead = (code: number): boolean => code <= 0x20 || code === 0x22 || code === 0x27 || code >= 0x80;

/**
 * One RFC 4180 field (the one CSV cell encoder of both the browser and the server export). Neutralises spreadsheet
 * formulas: a value starting with =, +, -, @ (or their full-width forms, possibly after blanks or a quote), a tab,
 * a carriage return or a line feed is prefixed with a quote.
 */
export function csvCell(value: string): string {
  if (value === '') return value;
  const first = value.charCodeAt(0);
  const isFormula = FORMULA_STARTS.has(first) || (isMaybeLead(first) && FORMULA_AFTER_LEAD.test(value));
  const safe = isFormula ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(values: readonly string[]): string {
  return values.map(csvCell).join(CSV_SEPARATOR);
}

export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return `${CSV_BOM}${[csvLine(header), ...rows.map(csvLine)].join('\r\n')}\r\n`;
}

export function csvFileName(title: string, now: Date = new Date()): string {
  return `${title.toLowerCase().replace(/\s+/g, '_')}_${Math.floor(now.getTime() / 1000)}.csv`;
}
