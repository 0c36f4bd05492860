/**
 * The urls columns that need the whole crawl, defined once for the crawler (crawl-tables.ts, contract-tables.ts) and the demo
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

export function derivedUrlColumns(internal: string, named: NamedRef = (alias, column) => `${alias}.${column}`) {
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

/**
 * The duplicate sets, one row per page in any (dup: id, then t_n/t_p, d_n/d_p, b_n/b_p, p_n/p_p: the size and primary
 * of its title, description, body and page set), over `candidates` (id, title, description, body, dr): the indexable
 * pages. The primary is the page with the highest DeepRank, then the lowest id. Keys are hashed (64-bit) so grouping
 * does not compare long strings. A page set is pages alike in body, title and description, a missing title or
 * description matching a missing one: byte-identical copies are duplicates whether or not they have a description.
 */
export function duplicateSetsSql(candidates: string): string {
  const family = (name: string, keyExpr: string, where: string): string => `
    ${name}k AS (SELECT id, hash(${keyExpr}) AS key, dr FROM cand WHERE ${where}),
    ${name}g AS (SELECT key, count(*) AS n, arg_min(id, (-dr, id)) AS prim FROM ${name}k GROUP BY key HAVING count(*) > 1),
    ${name} AS (SELECT ${name}k.id, ${name}g.n, ${name}g.prim FROM ${name}k JOIN ${name}g USING (key))`;
  return `WITH cand AS (${candidates}),
    ${family('dt', 'title', 'title IS NOT NULL')},
    ${family('dd', 'description', 'description IS NOT NULL')},
    ${family('db', 'body', 'body IS NOT NULL')},
    ${family('dp', 'title, description, body', 'body IS NOT NULL')}
    SELECT c.id, dt.n::INTEGER AS t_n, dt.prim AS t_p, dd.n::INTEGER AS d_n, dd.prim AS d_p,
      db.n::INTEGER AS b_n, db.prim AS b_p, dp.n::INTEGER AS p_n, dp.prim AS p_p
    FROM cand c LEFT JOIN dt ON dt.id = c.id LEFT JOIN dd ON dd.id = c.id
      LEFT JOIN db ON db.id = c.id LEFT JOIN dp ON dp.id = c.id
    WHERE dt.id IS NOT NULL OR dd.id IS NOT NULL OR db.id IS NOT NULL OR dp.id IS NOT NULL`;
}

/** Where a redirect walk reads: `pages` (alias h) with id, url, st and `next`; `starts` a SELECT of the first ids. */
export interface RedirectWalk {
  pages: string;
  next: string;
  starts: string;
  isJs: string;
  isMeta: string;
}

/** Redirect chains (rch): walk `next` until a non-redirect, a repeat (a loop) or the 4-hop limit. */
export function redirectChainsSql({ pages, next, starts, isJs, isMeta }: RedirectWalk): string {
  return `WITH RECURSIVE w(start, step, cur, seen) AS (
      SELECT id, 0, id, [id] FROM (${starts})
      UNION ALL
      SELECT w.start, w.step + 1, h.${next}, list_append(w.seen, h.${next})
      FROM w JOIN ${pages} h ON h.id = w.cur
      WHERE h.${next} IS NOT NULL AND h.st IS NOT NULL AND w.step < 4
        AND NOT list_contains(w.seen[1:len(w.seen) - 1], w.cur)
    ),
    hops AS (
      SELECT w.start, w.step, w.cur, list_contains(w.seen[1:len(w.seen) - 1], w.cur) AS closes,
        h.url, h.st, ${isJs} AS is_js, ${isMeta} AS is_meta, nx.url AS next_url,
        max(w.step) OVER (PARTITION BY w.start) AS last
      FROM w JOIN ${pages} h ON h.id = w.cur LEFT JOIN ${pages} nx ON nx.id = h.${next}
    )
    SELECT start AS id,
      list({'url': url, 'status_code': st, 'redirects_to': next_url, 'is_js_redirect': is_js,
            'is_meta_redirect': is_meta} ORDER BY step) FILTER (WHERE step < last) AS chain,
      count(*) FILTER (WHERE step < last)::INTEGER AS hops,
      arg_max(cur, step) AS final_id,
      bool_or(closes) AS loop
    FROM hops GROUP BY start`;
}
