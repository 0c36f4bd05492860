/** Resolves hrefs as a browser does, keeping http(s) targets without their fragment; repeats are looked up. */
export class UrlResolver {
  /** A string: the URL constructor would turn a URL object base back into one on every call. */
  private readonly base: string | null;
  private readonly cache = new Map<string, string | null>();

  constructor(pageUrl: string, baseHref: string | null) {
    const page = parseUrl(pageUrl)?.href;
    this.base = (baseHref === null || page === undefined ? null : parseUrl(baseHref, page)?.href) ?? page ?? null;
  }

  resolve(href: string): string | null {
    let url = this.cache.get(href);
    if (url === undefined) {
      url = this.compute(href);
      this.cache.set(href, url);
    }
    return url;
  }

  private compute(href: string): string | null {
    if (this.base === null) return null;
    const url = parseUrl(href, this.base);
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
    const full = url.href;
    const hashAt = full.indexOf('#');
    return hashAt === -1 ? full : full.slice(0, hashAt);
  }
}

function parseUrl(href: string, base?: string): URL | null {
  try {
    return new URL(href, base);
  } catch {
    return null;
  }
}
