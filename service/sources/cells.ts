/** Reading the vendors' cells: plain counts, decimals, "12.34%", and dates as 2024-01-31 or 20240131. */
import type { CsvRecord } from './csv-text.ts';
import { cellError } from './import-error.ts';

export interface CellReader {
  file: string;
  record: CsvRecord;
}

const INTEGER = /^-?\d+$/;
const DECIMAL = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

const textAt = (at: CellReader, column: number): string => (at.record.cells[column] ?? '').trim();

export function integerCell(at: CellReader, column: number, name: string): number {
  const text = textAt(at, column);
  if (!INTEGER.test(text) || !Number.isSafeInteger(Number(text)))
    throw cellError(at.file, at.record.line, column + 1, `${name} "${text}" is not a whole number`);
  return Number(text);
}

/** A decimal, or null for an empty cell (Search Console leaves position empty on days without impressions). */
export function decimalCell(at: CellReader, column: number, name: string): number | null {
  const text = textAt(at, column);
  if (text === '') return null;
  if (!DECIMAL.test(text)) throw cellError(at.file, at.record.line, column + 1, `${name} "${text}" is not a number`);
  return Number(text);
}

/** "12.34%" (or an empty cell); checked, though the loader recomputes CTR from clicks and impressions. */
export function percentCell(at: CellReader, column: number, name: string): number | null {
  const text = textAt(at, column);
  if (text === '') return null;
  const match = /^(-?\d+(?:\.\d+)?)\s?%$/.exec(text);
  if (!match) throw cellError(at.file, at.record.line, column + 1, `${name} "${text}" is not a percentage`);
  return Number(match[1]) / 100;
}

/** An ISO date from 2024-01-31 or 20240131, refusing impossible days. */
export function dateText(text: string): string | undefined {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text.trim());
  if (!match) return undefined;
  const iso = `${match[1]}-${match[2]}-${match[3]}`;
  const parsed = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(iso) ? iso : undefined;
}

export function dateCell(at: CellReader, column: number, name: string): string {
  const text = textAt(at, column);
  const iso = dateText(text);
  if (!iso) throw cellError(at.file, at.record.line, column + 1, `${name} "${text}" is not a date (YYYY-MM-DD)`);
  return iso;
}

export const textCell = (at: CellReader, column: number): string => textAt(at, column);

const GROUPED = /^-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/;
const NONE = new Set(['', '--', '-']);

/**
 * A number as the ads dashboards write it: thousands separators ("1,204", "1,600.80"), and "--" (or an empty
 * cell) where there is none, read as null. Localised decimals ("1 234,56") are refused, not guessed.
 */
export function amountCell(at: CellReader, column: number, name: string): number | null {
  const text = textAt(at, column);
  if (NONE.has(text)) return null;
  if (!GROUPED.test(text))
    throw cellError(at.file, at.record.line, column + 1, `${name} "${text}" is not a number (such as 1,234.56)`);
  return Number(text.replaceAll(',', ''));
}

/** A count in the same notation; a whole decimal ("100.0", as Keyword Planner writes volumes) is a count too. */
export function countCell(at: CellReader, column: number, name: string): number | null {
  const value = amountCell(at, column, name);
  if (value !== null && !Number.isSafeInteger(value))
    throw cellError(at.file, at.record.line, column + 1, `${name} "${textAt(at, column)}" is not a whole number`);
  return value;
}
