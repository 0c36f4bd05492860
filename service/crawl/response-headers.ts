/** What the crawler reads from a response's headers: content type, charset, redirect target, robots and Link. */
import { headerValue, type FetchResponse } from './fetcher.ts';
import { normalizeUrl } from './normalize-url.ts';

export function isHtml(headers: FetchResponse['headers']): boolean {
  const type = headerValue(headers, 'content-type');
  if (type === undefined) return true;
  return /^\s*(text\/html|application\/xhtml\+xml)/i.test(type);
}

export function charsetOf(contentType: string | null): string | null {
  const match = contentType === null ? null : /charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return match?.[1] ?? null;
}

export function redirectTarget(response: FetchResponse, url: string): string | null {
  if (response.status === null || response.status < 300 || response.status > 399) return null;
  const location = headerValue(response.headers, 'location');
  return location === undefined ? null : normalizeUrl(location, url);
}

export interface RobotsHeader {
  hn: boolean;
  hf: boolean;
  ha: boolean;
  hs: boolean;
  hi: boolean;
  ht: boolean;
}

/** X-Robots-Tag directives; a value scoped to a named user agent (`otherbot: noindex`) applies all the same. */
export function parseRobotsHeader(value: string | undefined): RobotsHeader {
  const directives = new Set(
    (value ?? '')
      .toLowerCase()
      .split(/[,;]/)
      .map((part) => part.replace(/^\s*[\w-]+\s*:\s*(?=[a-z])/, '').trim()),
  );
  const isNone = directives.has('none');
  return {
    hn: isNone || directives.has('noindex'),
    hf: isNone || directives.has('nofollow'),
    ha: directives.has('noarchive'),
    hs: directives.has('nosnippet'),
    hi: directives.has('noimageindex'),
    ht: directives.has('notranslate'),
  };
}

export interface LinkHeader {
  canonical: string | null;
  hreflang: { hreflang: string; url: string }[];
}

/** `Link: <url>; rel="canonical", <url>; rel="alternate"; hreflang="de"`, targets resolved against the page. */
export function parseLinkHeader(value: string | undefined, pageUrl: string): LinkHeader {
  const result: LinkHeader = { canonical: null, hreflang: [] };
  if (!value) return result;
  for (const match of value.matchAll(/<([^>]*)>([^<]*)/g)) {
    const target = normalizeUrl(match[1] ?? '', pageUrl);
    const params = match[2] ?? '';
    if (target === null) continue;
    const rel = /\brel\s*=\s*"?([^";,]+)"?/i.exec(params)?.[1]?.toLowerCase().split(/\s+/) ?? [];
    const hreflang = /\bhreflang\s*=\s*"?([^";,]+)"?/i.exec(params)?.[1];
    if (rel.includes('canonical')) result.canonical ??= target;
    else if (rel.includes('alternate') && hreflang) result.hreflang.push({ hreflang, url: target });
  }
  return result;
}
