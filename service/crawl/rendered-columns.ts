/**
 * The page row's keys a rendered crawl adds (crawl-records.ts spreads them into pageColumns): how the render went,
 * what the page did wrong in the browser, and the raw HTML's values of the fields the rendered DOM now fills.
 */
export const renderedPageColumns = {
  /** The page columns come from the rendered DOM. */
  rn: 'BOOLEAN',
  /** Render status (RenderStatus, or `skipped`), its reason, and the time it took in seconds. */
  rs: 'VARCHAR',
  rw: 'VARCHAR',
  rt: 'DOUBLE',
  /** Console errors, uncaught exceptions, failed subrequests, subrequests robots.txt disallows, `#/…` routes. */
  rce: 'VARCHAR[]',
  rpe: 'VARCHAR[]',
  rfq: 'VARCHAR[]',
  rrb: 'VARCHAR[]',
  rhr: 'VARCHAR[]',
  /** The raw HTML's title, description, canonical, meta noindex and nofollow, H1s, word count, link count. */
  xti: 'VARCHAR',
  xde: 'VARCHAR',
  xcn: 'VARCHAR',
  xmn: 'BOOLEAN',
  xmf: 'BOOLEAN',
  xh1: 'VARCHAR[]',
  xwc: 'INTEGER',
  xlc: 'INTEGER',
  /** The raw HTML's H2s and H3s, body text hash, hreflang alternates (counted as the links table counts them). */
  xh2: 'VARCHAR[]',
  xh3: 'VARCHAR[]',
  xbh: 'VARCHAR',
  xhl: 'INTEGER',
  /** The raw HTML's structured data: whether it has any, and the schema.org types it has items of. */
  xsd: 'BOOLEAN',
  xst: 'VARCHAR[]',
} as const;
