/** Text as the parser measures it: collapsed whitespace, word counts, a meta refresh's target. */

/** Whitespace runs other than a lone space: on real text most separators are single spaces, left alone. */
const collapsibleWhitespace = /[^\S ]\s*| \s+/g;
export const jsRedirectPattern =
  /(?:\b(?:window|document|self|top)\s*\.\s*)?\blocation\s*(?:\.\s*href\s*)?(?:=(?!=)|\.\s*(?:replace|assign)\s*\()\s*(["'`])((?:(?!\1)[^\\\r\n]|\\.)*)\1/;
export const jsEscape = /\\(.)/g;

export function collapse(text: string): string {
  return text.replace(collapsibleWhitespace, ' ').trim();
}

/** The URL of a refresh's content (`5; url='...'`), parsed as the HTML standard does; null when it only reloads. */
export function refreshTarget(content: string): string | null {
  const match = /^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?/i.exec(content);
  let rest = content.slice(match?.[0].length ?? 0);
  if (rest === '') return null;
  const quote = rest[0];
  if (quote === '"' || quote === "'") {
    const end = rest.indexOf(quote, 1);
    rest = rest.slice(1, end === -1 ? undefined : end);
  }
  rest = rest.trim();
  return rest === '' ? null : rest;
}

export function countWords(collapsed: string): number {
  if (collapsed === '') return 0;
  let words = 1;
  for (let i = collapsed.indexOf(' '); i !== -1; i = collapsed.indexOf(' ', i + 1)) words++;
  return words;
}
