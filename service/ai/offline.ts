/**
 * The offline provider: no network, text a copywriter would draft from what the platform knows of the page. The
 * subject is the page's H1 (else its title, its top query or its URL slug) without a trailing counter ("… 2") or
 * slug id ("-10790"); the top search console query (by clicks, then impressions) joins it when it says something
 * the subject does not. It offers several candidates so the checker can skip one that another page already uses.
 */
import { charLength, lengthLimits, lengthProblem, toPlainSuggestion } from './check.ts';
import type { AiProvider, PageFacts, SuggestionType } from './provider.ts';

/** What the offline text says around the page's own words, in each language it writes. */
interface Phrases {
  /** Words a title keeps in lower case after its first word. */
  smallWords: string[];
  /** A leading article or possessive that goes lower case inside a sentence ("Discover a weekend…"). */
  sentenceArticle: RegExp;
  /** Who offers it when the website has no name: "from us", "bei uns", "chez nous". */
  us: string;
  titleFrom: (subject: string, brand: string) => string;
  officialSite: string;
  leads: (subject: string, inSentence: string, brand: string) => string[];
  aboutQuery: (query: string) => string;
  closings: string[];
}

const PHRASES: Record<'en' | 'de' | 'fr', Phrases> = {
  en: {
    smallWords: ['a', 'an', 'and', 'as', 'at', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'with'],
    sentenceArticle: /^(A|An|The|Our|Your)\b/,
    us: 'us',
    titleFrom: (subject, brand) => `${subject} from ${brand}`,
    officialSite: 'Official Site',
    leads: (subject, inSentence, brand) => [`${subject}, from ${brand}.`, `Discover ${inSentence} at ${brand}.`],
    aboutQuery: (query) => `Everything you need to know about ${query}, in one place.`,
    closings: ['Read the full details on our website.', 'See everything we have to offer.'],
  },
  de: {
    smallWords: [
      'am',
      'an',
      'auf',
      'aus',
      'bei',
      'das',
      'der',
      'die',
      'für',
      'im',
      'in',
      'mit',
      'und',
      'von',
      'zu',
      'zum',
    ],
    sentenceArticle: /^(Der|Die|Das|Ein|Eine|Unser|Unsere|Ihr|Ihre)\b/,
    us: 'uns',
    titleFrom: (subject, brand) => `${subject} von ${brand}`,
    officialSite: 'Offizielle Website',
    leads: (subject, inSentence, brand) => [`${subject} bei ${brand}.`, `Entdecken Sie ${inSentence} bei ${brand}.`],
    aboutQuery: (query) => `Alles, was Sie über ${query} wissen müssen, an einem Ort.`,
    closings: ['Alle Details finden Sie auf unserer Website.', 'Sehen Sie sich unser ganzes Angebot an.'],
  },
  fr: {
    smallWords: ['à', 'au', 'aux', 'de', 'des', 'du', 'en', 'et', 'la', 'le', 'les', 'pour', 'sur', 'un', 'une'],
    sentenceArticle: /^(Le|La|Les|Un|Une|Notre|Nos|Votre|Vos)\b/,
    us: 'nous',
    titleFrom: (subject, brand) => `${subject} chez ${brand}`,
    officialSite: 'Site officiel',
    leads: (subject, inSentence, brand) => [`${subject}, chez ${brand}.`, `Découvrez ${inSentence} chez ${brand}.`],
    aboutQuery: (query) => `Tout ce qu’il faut savoir sur ${query}, en un seul endroit.`,
    closings: ['Retrouvez tous les détails sur notre site.', 'Parcourez toute notre offre.'],
  },
};

/** The page's language when the offline text can be written in it, else English. */
const phrasesOf = (language: string | null): Phrases =>
  language === 'de' || language === 'fr' ? PHRASES[language] : PHRASES.en;

const STOP_WORDS = Object.values(PHRASES).flatMap((p) => p.smallWords);
const SEPARATORS = /\s+[|–—-]\s+|\s*\|\s*/;

const clean = (text: string | null | undefined): string => (text ? (toPlainSuggestion(text) ?? '') : '');

/** "Our Guide to the Cairngorms 2" → "Our Guide to the Cairngorms": a CMS's counter, not part of the subject. */
const withoutCounter = (text: string): string => text.replace(/^((?:\S+\s+){2,}?\S+)\s+\d{1,2}$/u, '$1');

const titleCase = (text: string, phrases: Phrases): string =>
  text
    .split(' ')
    .map((word, i) =>
      i > 0 && phrases.smallWords.includes(word.toLowerCase())
        ? word.toLowerCase()
        : word === word.toLowerCase()
          ? word.charAt(0).toUpperCase() + word.slice(1)
          : word,
    )
    .join(' ');

/** Words a query adds that tell nothing about the page ("best", "uk", "buy"…), in the demo's languages too. */
const MODIFIERS = new Set([
  ...STOP_WORDS,
  ...['best', 'buy', 'cheap', 'online', 'sale', 'shop', 'near', 'me', 'top', 'uk', 'review', 'reviews'],
  ...['beste', 'kaufen', 'meilleur', 'meilleure', 'pas', 'cher'],
]);

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
/** A subject inside a sentence: names keep their capitals, a leading article does not ("Discover a weekend…"). */
const inSentence = (text: string, phrases: Phrases): string =>
  text.replace(phrases.sentenceArticle, (word) => word.toLowerCase());

/** The last path segment as words, without ids: /products/bothy-gaiters-10790 → "bothy gaiters". */
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
  const words = decoded
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    .split(/[-_+\s]+/)
    .filter(Boolean);
  // Trailing ids and counters ("-2-11455", "-c35") say nothing a reader wants.
  while (words.length > 1 && /^[a-z]?\d+$/i.test(words.at(-1)!)) words.pop();
  return words.join(' ');
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

const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !/^\d+$/.test(w));

/** Whether `query` adds a word the subject lacks (plural s aside), so that naming both says more. */
function isNewTo(subject: string, query: string): boolean {
  const known = new Set(wordsOf(subject).flatMap((w) => [w, w.replace(/s$/, '')]));
  return wordsOf(query).some((w) => !MODIFIERS.has(w) && !known.has(w) && !known.has(w.replace(/s$/, '')));
}

interface Material {
  brand: string;
  /** What the page is about, in the page's own words. */
  subjects: string[];
  /** Top queries, cleaned, most clicked first. */
  queries: string[];
  /** The page's own description sentences worth keeping. */
  sentences: string[];
}

function materialOf(facts: PageFacts, phrases: Phrases): Material {
  const brand = clean(facts.brand);
  const queries = uniqueBy(facts.topQueries.map((q) => withoutCounter(clean(q.query))));
  const subjects = uniqueBy(
    [
      clean(facts.h1[0]),
      titleCore(facts.pageTitle ?? '', facts.brand),
      titleCase(queries[0] ?? '', phrases),
      titleCase(slugWords(facts.url), phrases),
    ]
      .map(withoutCounter)
      .filter((t) => charLength(t) >= 3),
  );
  const sentences = clean(facts.description)
    .split(/(?<=[.!?])\s+/)
    .filter((s) => charLength(s) >= 20 && /[.!?]$/.test(s));
  return { brand, subjects, queries, sentences };
}

function titleCandidates(facts: PageFacts): string[] {
  const { max } = lengthLimits['page-title'];
  const phrases = phrasesOf(facts.language);
  const { brand, subjects, queries } = materialOf(facts, phrases);
  const withBrand = (text: string): string =>
    brand && !text.toLowerCase().includes(brand.toLowerCase()) && charLength(text) + charLength(brand) + 3 <= max
      ? `${text} | ${brand}`
      : text;
  const out: string[] = [];
  for (const subject of subjects) {
    const core = cutToWords(subject, max);
    out.push(withBrand(core));
    for (const query of queries.slice(0, 2))
      if (isNewTo(core, query)) out.push(withBrand(cutToWords(`${core} – ${titleCase(query, phrases)}`, max)));
    out.push(core);
  }
  if (brand) {
    out.push(...subjects.map((t) => cutToWords(phrases.titleFrom(t, brand), max)));
    // Sparse pages: a short subject still gets a title within the minimum length.
    out.push(...subjects.map((t) => cutToWords(`${t} | ${brand} ${phrases.officialSite}`, max)));
  }
  return uniqueBy(out);
}

function descriptionCandidates(facts: PageFacts): string[] {
  const { max } = lengthLimits['meta-description'];
  const phrases = phrasesOf(facts.language);
  const { brand: named, subjects, queries, sentences } = materialOf(facts, phrases);
  const brand = named || phrases.us;
  const out: string[] = [];
  for (const subject of subjects) {
    const query = queries[0] !== undefined && isNewTo(subject, queries[0]) ? queries[0] : undefined;
    const leads = phrases.leads(subject, inSentence(subject, phrases), brand);
    // The page's own sentence only when it says something the lead does not.
    const own = sentences.find(
      (sentence) =>
        !sentence.toLowerCase().includes(brand.toLowerCase()) && isNewTo(`${subject} ${query ?? ''}`, sentence),
    );
    const follows = [query ? phrases.aboutQuery(query) : '', own ?? '', ...phrases.closings].filter(Boolean);
    for (const lead of leads) {
      let text = lead;
      for (const sentence of follows) {
        const next = `${text} ${capitalise(sentence)}`;
        if (charLength(next) <= max && !text.includes(sentence)) text = next;
        if (charLength(text) >= lengthLimits['meta-description'].min) break;
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
