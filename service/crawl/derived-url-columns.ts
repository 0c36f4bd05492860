/**
 * The urls columns that need the whole crawl, defined once for the crawler (export-crawl.ts) and the demo
 * generator (scripts/fixtures/crawl-sql.ts), so that a real crawl and a demo crawl mean the same. Both name their
 * relations alike: g (the page: id, st, canon), cu/chd/cht (canonical, header and HTML canonical URLs), cin
 * (canonical in-counts), dup with pt/pd/pp/pb (duplicate sets and their primaries), lc (link counts), rch with fin
 * (redirect chain and its final URL), dr (DeepRank) and r (breadth-first reach). `named` says where the URL (and,
 * for fin, the status code) of a referenced page is read; by default from the relation of that alias.
 */
export type NamedRef = (
  alias: 'cu' | 'chd' | 'cht' | 'pt' | 'pd' | 'pp' | 'pb' | 'fin',
  column: 'url' | 'st',
) => string;

export function derivedUrlColumns(
  internal: string,
  named: NamedRef = (alias, column) => `${alias}.${column}`,
): Record<string, string> {
  const family = (what: string, column: string, primary: 'pt' | 'pd' | 'pp' | 'pb'): Record<string, string> => ({
    [`duplicate_${what}`]: `CASE WHEN ${internal} THEN dup.${column} IS NOT NULL END`,
    [`duplicate_${what}_count`]: `dup.${column}`,
    [`duplicate_${what}_primary_url`]: named(primary, 'url'),
  });
  return {
    canonical_url: named('cu', 'url'),
    canonical_header_url: named('chd', 'url'),
    canonical_html_url: named('cht', 'url'),
    canonical_links_in_count: `CASE WHEN ${internal} THEN coalesce(cin.n, 0) END`,
    is_self_canonical: `CASE WHEN ${internal} THEN coalesce(g.canon = g.id, false) END`,
    canonicalized_page: `CASE WHEN ${internal} THEN coalesce(g.canon <> g.id, false) END`,
    ...family('title', 't_n', 'pt'),
    ...family('description', 'd_n', 'pd'),
    ...family('page', 'p_n', 'pp'),
    ...family('body', 'b_n', 'pb'),
    primary_page: `CASE WHEN ${internal} THEN NOT coalesce(dup.p_n IS NOT NULL AND dup.p_p <> g.id, false) END`,
    hreflang_links_in_count: `CASE WHEN ${internal} THEN coalesce(lc.hl_in, 0) END`,
    hreflang_links_out_count: `CASE WHEN ${internal} THEN coalesce(lc.hl_out, 0) END`,
    links_in_count: 'coalesce(lc.links_in, 0)',
    links_out_count: `CASE WHEN ${internal} THEN coalesce(lc.links_out, 0) END`,
    redirect_count: `CASE WHEN ${internal} AND g.st IS NOT NULL THEN coalesce(rch.hops, 0) END`,
    redirect_chain: 'rch.chain',
    redirected_to_url: named('fin', 'url'),
    redirected_to_status_code: named('fin', 'st'),
    is_redirect: `CASE WHEN ${internal} THEN rch.id IS NOT NULL ELSE g.st BETWEEN 300 AND 399 END`,
    is_redirect_loop: `CASE WHEN ${internal} THEN coalesce(rch.loop, false) END`,
    deeprank: `CASE WHEN ${internal} THEN coalesce(dr.deeprank, 0) END`,
    level: `CASE WHEN ${internal} THEN r.lvl END`,
  };
}
