/**
 * Reading the vendors' cells: plain counts, decimals, "12.34%", and dates as 2024-01-31 or 20240131; in a German or
 * French export (locale.ts), as that language writes them.
 */
import type { CsvRecord } from './csv-text.ts';
import { cellError } from './import-error.ts';
import { localHint, notations, plainDate, plainNumber, type Notation } from './locale.ts';

export interface CellReader {
  file: string;
  record: CsvRecord;
}

const textAt = (at: CellReader, column: number): string => (at.record.cells[column] ?? '').trim();

/** A whole number (German "1.234" and French "1 234" in files of those languages). */
export function integerCell(at: CellReader, column: number, name: string, notation = notations.en): number {
  const text = textAt(at, column);
  const plain = plainNumber(text, notation, 'integer');
  if (plain === undefined || !Number.isSafeInteger(Number(plain)))
    throw cellError(at.file, at.record.line, column + 1, `${name} "${text}" is not a whole number${hintOf(notation)}`);
  return Number(plain);
}

const hintOf = (notation: Notation): string => (notation.language === 'en' ? '' : ` (${localHint(notation)})`);

/** A decimal, or null for an empty cell (Search Console leaves position empty on days without impressions). */
export function decimalCell(at: CellReader, column: number, name: string, notation = notations.en): number | null {
  const text = textAt(at, column);
  if (text === '') return null;
  const plain = plainNumber(text, notation, 'decimal');
  if (plain === undefined)
    throw cellError(at.file, at.record.line, column + 1, `${name} "${text}" is not a number${hintOf(notation)}`);
  return Number(plain);
}

/** "12.34%" (German and French "12,34 %"), or an empty cell; checked, though the loader recomputes CTR. */
export function percentCell(at: CellReader, column: number, name: string, notation = notations.en): number | null {
  const text = textAt(at, column);
  if (text === '') return null;
  const match = /^(.+?)[\u0020\u00a0\u202f]?%$/.exec(text);
  const plain = match ? plainNumber(match[1]!, notation, 'decimal') : undefined;
  if (plain === undefined)
    throw cellError(at.file, at.record.line, column + 1, `${name} "${text}" is not a percentage${hintOf(notation)}`);
  return Number(plain) / 100;
}

/** An ISO date from 2024-01-31 or 20240131 (or as `notation` writes days: 31.01.2024, 31/01/2024), checked. */
export function dateText(text: string, notation = notations.en): string | undefined {
  const iso = plainDate(text.trim(), notation);
  if (!iso) return undefined;
  const parsed = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(iso) ? iso : undefined;
}

export function dateCell(at: CellReader, column: number, name: string, notation = notations.en): string {
  const text = textAt(at, column);
  const iso = dateText(text, notation);
  const expected = notation.language === 'de' ? '31.12.2026' : notation.language === 'fr' ? '31/12/2026' : undefined;
  if (!iso)
    throw cellError(
      at.file,
      at.record.line,
      column + 1,
      `${name} "${text}" is not a date (YYYY-MM-DD${expected ? ` or ${expected}` : ''})`,
    );
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
    throw cellError(
      at.file,
      at.record.line,
      column + 1,
      `${name} "${text}" is not a number (such as 1,234.56; a localised "1.234,56" is ambiguous here: download the report with the account's language set to English)`,
    );
  return Number(text.replaceAll(',', ''));
}

/** A count in the same notation; a whole decimal ("100.0", as Keyword Planner writes volumes) is a count too. */
export function countCell(at: CellReader, column: number, name: string): number | null {
  const value = amountCell(at, column, name);
  if (value !== null && !Number.isSafeInteger(value))
    throw cellError(at.file, at.record.line, column + 1, `${name} "${textAt(at, column)}" is not a whole number`);
  return value;
}
