/** Display formats of catalogue columns (spec §3) as text, for cells, tooltips and CSV. */
import { STATUS_COLOURS, type BandColour } from './constants.ts';
import type { DisplayFormat } from './schema.ts';
import {
  capitalise,
  formatCompactNumber,
  formatCurrency,
  formatDate,
  formatNumber,
  formatPercent,
  asText,
  toNumber,
} from './format.ts';

/** Spec §9: green at 200, orange 3xx, red 4xx, grey below 200, at 500 and above, or without a status. */
export function statusColour(code: unknown): BandColour {
  const value = toNumber(code);
  if (value === null) return STATUS_COLOURS.fallback;
  return STATUS_COLOURS.rules.find((r) => value >= r.min && value <= r.max)?.colour ?? STATUS_COLOURS.fallback;
}

export interface RedirectHop {
  url: string | null;
  status_code: number | null;
  redirects_to: string | null;
  is_js_redirect: boolean | null;
  is_meta_redirect: boolean | null;
}

export function redirectHops(value: unknown): RedirectHop[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((hop): hop is Record<string, unknown> => hop !== null && typeof hop === 'object')
    .map((hop) => ({
      url: typeof hop.url === 'string' ? hop.url : null,
      status_code: toNumber(hop.status_code),
      redirects_to: typeof hop.redirects_to === 'string' ? hop.redirects_to : null,
      is_js_redirect: typeof hop.is_js_redirect === 'boolean' ? hop.is_js_redirect : null,
      is_meta_redirect: typeof hop.is_meta_redirect === 'boolean' ? hop.is_meta_redirect : null,
    }));
}

export function hopKind(hop: RedirectHop): string {
  if (hop.is_js_redirect) return 'JavaScript';
  if (hop.is_meta_redirect) return 'Meta refresh';
  return hop.status_code === null ? 'No response' : String(hop.status_code);
}

/** Image lists hold URLs or {imgSrc, imgSize} objects (custom extraction 1). */
/** A list cell's items as text; `showUrl` shortens the URLs among them (an image's source, a URL item). */
export function listItems(value: unknown, showUrl: (url: string) => string = (url) => url): string[] {
  if (value === null || value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list
    .map((item) => {
      if (item === null || item === undefined) return '';
      if (typeof item === 'object') {
        const record = item as Record<string, unknown>;
        const src = record.imgSrc ?? record.url ?? record.src;
        const size = toNumber(record.imgSize);
        if (typeof src === 'string') return size === null ? showUrl(src) : `${showUrl(src)} (${formatNumber(size)} kB)`;
        return JSON.stringify(item);
      }
      const text = String(item as string | number | boolean);
      return /^https?:\/\//i.test(text) ? showUrl(text) : text;
    })
    .filter((s) => s !== '');
}

/** The text a cell shows (and CSV writes). Empty for missing values. */
export function cellText(value: unknown, format: DisplayFormat): string {
  if (value === null || value === undefined || value === '') return '';
  switch (format) {
    case 'boolean':
      return value === true ? 'Yes' : value === false ? 'No' : asText(value);
    case 'currency': {
      const n = toNumber(value);
      return n === null ? asText(value) : formatCurrency(n);
    }
    case 'date':
      return formatDate(value);
    case 'compact-number':
    case 'compact-number-2dp': {
      const n = toNumber(value);
      return n === null ? asText(value) : formatCompactNumber(n, format === 'compact-number' ? 0 : 2);
    }
    case 'long-number':
    case 'long-number-2dp': {
      const n = toNumber(value);
      return n === null ? asText(value) : formatNumber(n, format === 'long-number' ? 0 : 2);
    }
    case 'percent': {
      const n = toNumber(value);
      return n === null ? asText(value) : formatPercent(n);
    }
    case 'rank-bar':
    case 'status-code': {
      const n = toNumber(value);
      return n === null ? asText(value) : String(n);
    }
    case 'capitalised':
      return capitalise(asText(value));
    case 'redirect-chain':
      return redirectHops(value)
        .map((hop) => `${hop.url ?? ''} (${hopKind(hop)})`)
        .join(' → ');
    case 'image-list':
    case 'heading-list':
      return listItems(value).join(' | ');
    case 'url':
    case 'text':
    case 'ai-suggestion':
    default:
      if (Array.isArray(value)) return listItems(value).join(' | ');
      return typeof value === 'object' ? JSON.stringify(value) : asText(value);
  }
}

/** Number-like formats align right. */
export function isNumericFormat(format: DisplayFormat): boolean {
  return [
    'currency',
    'compact-number',
    'compact-number-2dp',
    'long-number',
    'long-number-2dp',
    'percent',
    'rank-bar',
  ].includes(format);
}
