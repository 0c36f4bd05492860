/** British display formats used across the dashboard: numbers en-GB, money in pounds, dates 'd MMM yyyy'. */
import { format as formatDateFns, isValid, parseISO } from 'date-fns';
import { CURRENCY, DATE_FORMAT, NUMBER_LOCALE } from './constants.ts';

export { DATE_FORMAT };

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  let found = numberFormats.get(key);
  if (!found) {
    found = new Intl.NumberFormat(NUMBER_LOCALE, options);
    numberFormats.set(key, found);
  }
  return found;
}

export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

/** 12,345 or 12,345.68 */
export function formatNumber(value: number, decimals = 0): string {
  return numberFormat(`long-${decimals}`, {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(value);
}

/** 12K, 1.2M (0 decimals) or 12.35K (2 decimals). */
export function formatCompactNumber(value: number, decimals = 0): string {
  return numberFormat(`compact-${decimals}`, {
    notation: 'compact',
    compactDisplay: 'short',
    maximumFractionDigits: decimals,
  }).format(value);
}

/** Largest count shown exactly where space is short; above it, one decimal ('12.3k') keeps 1,830 from reading '2k'. */
export const EXACT_COUNT_MAX = 9_999;

/** A count for a narrow place (the sidebar): 1,830 exactly up to 9,999, then 12.3k, 1.2m. */
export function formatShortCount(value: number): string {
  return Math.abs(value) <= EXACT_COUNT_MAX ? formatNumber(value) : formatCompactNumber(value, 1);
}

/** £1,234.56 */
export function formatCurrency(value: number): string {
  return numberFormat('gbp', { style: 'currency', currency: CURRENCY }).format(value);
}

/** A ratio (0.125) shown as 12.5%. */
export function formatPercent(ratio: number, decimals = 1): string {
  return numberFormat(`percent-${decimals}`, {
    style: 'percent',
    minimumFractionDigits: 0,
    maximumFractionDigits: decimals,
  }).format(ratio);
}

/** +1,234 / -56 / 0, for changes against a comparison crawl. */
export function formatChange(value: number): string {
  return numberFormat('change', { signDisplay: 'exceptZero', maximumFractionDigits: 0 }).format(value);
}

export function toDate(value: unknown): Date | null {
  if (value instanceof Date) return isValid(value) ? value : null;
  if (typeof value === 'number') return new Date(value);
  if (typeof value === 'bigint') return new Date(Number(value));
  if (typeof value === 'string' && value !== '') {
    const parsed = parseISO(value);
    return isValid(parsed) ? parsed : null;
  }
  return null;
}

/** 'd MMM yyyy', e.g. 4 Mar 2025; an unparseable value gives an empty string. */
export function formatDate(value: unknown): string {
  const date = toDate(value);
  return date ? formatDateFns(date, DATE_FORMAT) : '';
}

/** 'yyyy-MM-dd' as the API's date range expects. */
export function toIsoDay(value: Date): string {
  return formatDateFns(value, 'yyyy-MM-dd');
}

/** First letter upper case, underscores and dashes as spaces: 'robots_disallowed' → 'Robots disallowed'. */
export function capitalise(value: string): string {
  const spaced = value.replace(/[_-]+/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** 'row' / 'rows' with a British-formatted count. */
export function pluralise(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatNumber(count)} ${count === 1 ? singular : plural}`;
}

/** A wait in words, rounded up: '1 second', '45 seconds', '1 minute', '15 minutes'. */
export function formatWait(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  return whole < 60 ? pluralise(whole, 'second') : pluralise(Math.ceil(whole / 60), 'minute');
}

/** Any value as display text; objects as JSON. */
export function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}
