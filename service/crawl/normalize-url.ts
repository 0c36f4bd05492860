/**
 * URL normalisation for the crawler's known-URL set. WHATWG URL parsing already resolves relative references as
 * browsers do (dot segments clamped at the root), lowercases scheme and host and drops default ports; on top of
 * that the fragment goes, percent-escapes are upper-cased and escaped unreserved characters decoded (RFC 3986
 * §6.2.2). Paths are otherwise kept as written, so `/dir/` and `/dir/index.html` stay two URLs, as the server
 * treats them.
 */

const UNRESERVED = /[A-Za-z0-9\-._~]/;

function normalizeEscapes(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/** The normalised absolute http(s) URL, or null when `raw` is not one. */
export function normalizeUrl(raw: string, base?: string | URL): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.hostname === '') return null;
  url.hash = '';
  url.username = '';
  url.password = '';
  const text = url.href;
  return text.includes('%') ? normalizeEscapes(text) : text;
}

const PLAIN_SERIALIZED = /^https?:\/\/[^/@%#]+\/[^%#]*$/;

/**
 * normalizeUrl for a URL already serialized by WHATWG URL (the parser's links): one without credentials,
 * escapes or fragment is normal as it stands, which spares most links a second parse.
 */
export function normalizeResolvedUrl(url: string): string | null {
  return PLAIN_SERIALIZED.test(url) ? url : normalizeUrl(url);
}
