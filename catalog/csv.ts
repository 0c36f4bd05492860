/** CSV of spec §9: comma separator, a BOM, file name lowercased with underscores plus a unix-seconds suffix. */
import { CSV_BOM, CSV_SEPARATOR } from './constants.ts';

const NEEDS_QUOTES = new RegExp(`["\r\n${CSV_SEPARATOR.replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&')}]`);
/** First characters that start a spreadsheet formula (OWASP CSV injection): = + - @, tab and carriage return. */
const FORMULA_STARTS = new Set([0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d]);

/**
 * One RFC 4180 field (the one CSV cell encoder of both the browser and the server export). Neutralises spreadsheet
 * formulas: a value starting with =, +, -, @, a tab or a carriage return is prefixed with a quote.
 */
export function csvCell(value: string): string {
  if (value === '') return value;
  const safe = FORMULA_STARTS.has(value.charCodeAt(0)) ? `'${value}` : value;
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
