/**
 * How the dashboard shows a URL: the website's own pages (its domain, with or without www.) as their path, since the
 * page header already names the website, marked when they use plain http; any other URL (another site, a subdomain,
 * another port) in full. The shown text is cut only at its end; the full URL is the tooltip, the link and what a
 * copy puts on the clipboard.
 */

export interface UrlDisplay {
  /** What the cell shows: the path (with query and fragment) or the whole URL. */
  text: string;
  /** The URL as given: tooltip, link target and copy text. */
  full: string;
  isOwnPage: boolean;
  /** An own page over plain http: the path alone would hide what the audit is about. */
  isInsecure: boolean;
}

function bareHost(host: string): string {
  return host.toLowerCase().replace(/^www\./, '');
}

/** The domain as the website records it ('northwind-outfitters.co.uk', or with a scheme or path by mistake). */
function domainHost(domain: string): string {
  const trimmed = domain.trim();
  if (trimmed === '') return '';
  try {
    return bareHost(new URL(/^[a-z][a-z\d+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`).host);
  } catch {
    return '';
  }
}

export function displayUrl(url: string, websiteDomain: string | undefined): UrlDisplay {
  const own = websiteDomain ? domainHost(websiteDomain) : '';
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  const isWeb = parsed?.protocol === 'https:' || parsed?.protocol === 'http:';
  if (!parsed || !isWeb || own === '' || bareHost(parsed.host) !== own) {
    return { text: url, full: url, isOwnPage: false, isInsecure: false };
  }
  // The path as written in the URL (not re-encoded), from where the host ends.
  const authorityStart = url.indexOf('//') + 2;
  const end = url.slice(authorityStart).search(/[/?#]/);
  const rest = end < 0 ? '' : url.slice(authorityStart + end);
  const text = rest.startsWith('/') ? rest : `/${rest}`;
  return { text, full: url, isOwnPage: true, isInsecure: parsed.protocol === 'http:' };
}
