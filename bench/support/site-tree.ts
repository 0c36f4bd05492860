/** The link tree of the crawl bench's generated sites (generated-site.ts, rendered-site.ts and its React app). */

export const pageHref = (n: number): string => (n === 0 ? '/' : `/page/${n}.html`);

/** Page i links to the home page, its parent, one far page and its ten children 10i+1…10i+10 (depth ~log10 pages). */
export function treeLinks(i: number, pages: number): number[] {
  const links = [0, Math.floor((i - 1) / 10), (i * 7919 + 13) % pages];
  for (let c = 10 * i + 1; c <= 10 * i + 10 && c < pages; c++) links.push(c);
  return links;
}
