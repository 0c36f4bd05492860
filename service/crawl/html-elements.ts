/** What the HTML parser knows of elements: which hide text, which do not separate words, which belong in the head. */

export const whitespace = /\s+/g;

/** Elements whose text is never shown (title is shown in the tab, not the page). */
const hiddenTextElements = ['script', 'style', 'noscript', 'template', 'title', 'iframe', 'noembed', 'noframes'];

/** Phrasing elements that do not separate words. */
const inlineElements = [
  'a',
  'abbr',
  'acronym',
  'b',
  'bdi',
  'bdo',
  'big',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'ins',
  'kbd',
  'label',
  'mark',
  'nobr',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
  'wbr',
];

/** Start tags a browser keeps in the head ("in head" insertion mode); any other element ends the head. */
const headElements = [
  'html',
  'head',
  'base',
  'basefont',
  'bgsound',
  'link',
  'meta',
  'title',
  'noscript',
  'noframes',
  'style',
  'script',
  'template',
];

/** What the parser needs to know of a tag, as bits: one look-up per tag event. */
export const INLINE = 1;
export const HIDDEN_TEXT = 2;
export const HEAD = 4;
export const tagKinds = new Map<string, number>();
for (const [names, bit] of [
  [inlineElements, INLINE],
  [hiddenTextElements, HIDDEN_TEXT],
  [headElements, HEAD],
] as const) {
  for (const name of names) tagKinds.set(name, (tagKinds.get(name) ?? 0) | bit);
}

export const javascriptTypes = new Set([
  '',
  'module',
  'text/javascript',
  'application/javascript',
  'text/ecmascript',
  'application/ecmascript',
  'application/x-javascript',
  'text/jscript',
]);

export function hasToken(list: string | undefined, token: string): boolean {
  if (list === undefined) return false;
  const lower = list.toLowerCase();
  if (!lower.includes(token)) return false;
  return lower.split(whitespace).includes(token);
}

/** preconnect and dns-prefetch name an origin to warm up, not a file the page loads. */
export function isResourceHint(rel: string | undefined): boolean {
  return hasToken(rel, 'preconnect') || hasToken(rel, 'dns-prefetch');
}

export function isHeadOnlyTag(name: string, attribs: Record<string, string>): boolean {
  switch (name) {
    case 'title':
    case 'base':
      return true;
    case 'meta':
      return attribs.itemprop === undefined;
    case 'link':
      return hasToken(attribs.rel, 'canonical') || hasToken(attribs.rel, 'alternate');
    default:
      return false;
  }
}
