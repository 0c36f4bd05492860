/**
 * The offline provider: no network, text built from what the platform knows of the page. The topic is the page's
 * real demand first (its top search console query by clicks, then impressions), then its H1, its title and its
 * URL slug; H2s and further queries fill a description. It offers several candidates so the checker can skip
 * one that another page already uses.
 */
import { charLength, lengthLimits, lengthProblem, toPlainSuggestion } from './check.ts';
import type { AiProvider, PageFacts, SuggestionType } from './provider.ts';

const SMALL_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'with']);
const SEPARATORS = /\s+[|–—-]\s+|\s*\|\s*/;

const clean = (text: string | null | undefined): string => (text ? (toPlainSuggestion(text) ?? '') : '');

const titleCase = (text: string): string =>
  text
    .split(' ')
    .map((word, i) =>
      i > 0 && SMALL_WORDS.has(word.toLowerCase())
        ? word.toLowerCase()
        : word === word.toLowerCase()
          ? word.charAt(0).toUpperCase() + word.slice(1)
          : word,
    )
    .join(' ');

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The last path segment as words: /mens/waterproof-boots.html → "waterproof boots". */
export function slugWords(url: string): string {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    pathname = url;
  }
  const segment = pathname.split('/').filter(Boolean).at(-1) ?? '';
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A malformed escape keeps the raw segment.
  }
  return decoded
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    .replace(/[-_+]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The title's own part, without the brand and other separated segments. */
function titleCore(pageTitle: string, brand: string): string {
  const parts = clean(pageTitle)
    .split(SEPARATORS)
    .map((p) => p.trim())
    .filter((p) => p && p.toLowerCase() !== brand.toLowerCase());
  return parts[0] ?? '';
}

const uniqueBy = (items: string[]): string[] => {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.toLowerCase();
    if (!item || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/** Cuts at a word boundary so that the text has at most `max` characters. */
function cutToWords(text: string, max: number): string {
  if (charLength(text) <= max) return text;
  const words = text.split(' ');
  let out = '';
  for (const word of words) {
    const next = out ? `${out} ${word}` : word;
    if (charLength(next) > max) break;
    out = next;
  }
  return out.replace(/[\s,;:|–—-]+$/, '');
}

const joinList = (items: string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

function topicsOf(facts: PageFacts): string[] {
  return uniqueBy(
    [
      ...facts.topQueries.slice(0, 2).map((q) => titleCase(clean(q.query))),
      clean(facts.h1[0]),
      titleCore(facts.pageTitle ?? '', facts.brand),
      titleCase(slugWords(facts.url)),
    ].filter((t) => charLength(t) >= 3),
  );
}

function titleCandidates(facts: PageFacts): string[] {
  const { max } = lengthLimits['page-title'];
  const brand = clean(facts.brand);
  const topics = topicsOf(facts);
  const extras = uniqueBy([
    ...facts.topQueries.slice(1, 3).map((q) => titleCase(clean(q.query))),
    clean(facts.h1[0]),
    titleCase(slugWords(facts.url)),
    ...facts.h2.slice(0, 2).map(clean),
  ]);
  const withBrand = (text: string): string =>
    brand && !text.toLowerCase().includes(brand.toLowerCase()) && charLength(text) + charLength(brand) + 3 <= max
      ? `${text} | ${brand}`
      : text;
  const out: string[] = [];
  for (const topic of topics) {
    const core = cutToWords(topic, max);
    out.push(withBrand(core));
    for (const extra of extras) {
      if (extra.toLowerCase().includes(core.toLowerCase()) || core.toLowerCase().includes(extra.toLowerCase()))
        continue;
      out.push(withBrand(cutToWords(`${core} – ${extra}`, max)));
    }
    out.push(core);
  }
  if (brand) {
    out.push(...topics.map((t) => cutToWords(`${t} from ${brand}`, max)));
    // Sparse pages: a short topic still gets a title within the minimum length.
    out.push(...topics.map((t) => cutToWords(`${t} | ${brand} Official Site`, max)));
  }
  return uniqueBy(out);
}

function descriptionCandidates(facts: PageFacts): string[] {
  const { max } = lengthLimits['meta-description'];
  const brand = clean(facts.brand) || 'us';
  const queries = uniqueBy(facts.topQueries.map((q) => clean(q.query)));
  const h1 = clean(facts.h1[0]);
  const subjects = uniqueBy([
    queries[0] ?? '',
    h1,
    titleCore(facts.pageTitle ?? '', facts.brand),
    slugWords(facts.url),
  ]);
  const h2s = uniqueBy(facts.h2.map(clean)).filter((h) => charLength(h) <= 40);
  const existing = clean(facts.description)
    .split(/(?<=[.!?])\s+/)
    .filter((s) => charLength(s) >= 20);
  const out: string[] = [];
  for (const subject of subjects) {
    const lower = subject === subject.toUpperCase() ? subject : subject.charAt(0).toLowerCase() + subject.slice(1);
    const openers = [`Discover ${lower} at ${brand}.`, `${capitalise(subject)} from ${brand}.`];
    const more = queries.filter((q) => q.toLowerCase() !== subject.toLowerCase()).slice(0, 2);
    const sentences = [
      h2s.length > 0 ? `Covers ${joinList(h2s.slice(0, 3))}.` : '',
      more.length > 0 ? `Find ${joinList(more)} and more.` : '',
      existing[0] ?? '',
      h1 && h1.toLowerCase() !== subject.toLowerCase() ? `${capitalise(h1)}.` : '',
      `Read the full details on ${brand}.`,
    ].filter(Boolean);
    for (const opener of openers) {
      let text = opener;
      for (const sentence of sentences) {
        const next = `${text} ${sentence}`;
        if (charLength(next) <= max) text = next;
      }
      out.push(text);
    }
  }
  return uniqueBy(out.map((t) => t.replace(/\.\.+/g, '.').replace(/\?\./g, '?').replace(/!\./g, '!')));
}

/** Every candidate in order of preference, each within the length limits. */
export function offlineCandidates(type: SuggestionType, facts: PageFacts): string[] {
  const raw = type === 'page-title' ? titleCandidates(facts) : descriptionCandidates(facts);
  return raw.filter((text) => lengthProblem(type, text) === undefined);
}

export class OfflineProvider implements AiProvider {
  readonly name = 'offline';

  suggest(type: SuggestionType, facts: PageFacts): Promise<string> {
    const [first] = offlineCandidates(type, facts);
    return first ? Promise.resolve(first) : Promise.reject(new Error('The page has too little text to suggest from'));
  }
}
