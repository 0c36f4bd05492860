/**
 * The offline provider: no network, text a copywriter would draft from what the platform knows of the page. The
 * subject is the page's H1 (else its title, its top query or its URL slug) without a trailing counter ("… 2") or
 * slug id ("-10790"); the top search console query (by clicks, then impressions) joins it when it says something
 * the subject does not. It writes in the page's language (English, German, French or Spanish; English otherwise),
 * names the website by its name (never a bare host such as "127"), and phrases each page its own way, as a person
 * would, rather than one template for every page. It offers several candidates so the checker can skip one that
 * another page already uses.
 */
import { charLength, lengthLimits, lengthProblem, toPlainSuggestion } from './check.ts';
import type { AiProvider, PageFacts, SuggestionType } from './provider.ts';

/** What the offline text says around the page's own words, in each language it writes. */
interface Phrases {
  /** Words a title keeps in lower case after its first word. */
  smallWords: string[];
  /** A leading article or possessive that goes lower case inside a sentence ("Discover a weekend…"). */
  sentenceArticle: RegExp;
  titleFrom: (subject: string, brand: string) => string;
  officialSite: string;
  /** Openings naming the page's subject (as it stands, and inside a sentence) and the website. */
  leads: (subject: string, inSentence: string, brand: string) => string[];
  /** Openings for a website without a usable name. */
  plainLeads: (subject: string, inSentence: string) => string[];
  aboutQuery: (query: string) => string;
  closings: string[];
}

export const offlineLanguages = ['en', 'de', 'fr', 'es'] as const;
export type OfflineLanguage = (typeof offlineLanguages)[number];

const PHRASES: Record<OfflineLanguage, Phrases> = {
  en: {
    smallWords: ['a', 'an', 'and', 'as', 'at', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'with'],
    sentenceArticle: /^(A|An|The|Our|Your)\b/,
    titleFrom: (subject, brand) => `${subject} from ${brand}`,
    officialSite: 'Official Site',
    leads: (subject, inSentence, brand) => [
      `${subject}, from ${brand}.`,
      `Discover ${inSentence} at ${brand}.`,
      `Explore ${inSentence} with ${brand}.`,
      `All about ${inSentence}, from ${brand}.`,
    ],
    plainLeads: (subject, inSentence) => [`${subject}.`, `Discover ${inSentence}.`, `All about ${inSentence}.`],
    aboutQuery: (query) => `Everything you need to know about ${query}, in one place.`,
    closings: [
      'Read the full details on our website.',
      'See everything we have to offer.',
      'Take a look and find what suits you.',
      'Find out more and see what fits.',
    ],
  },
  de: {
    smallWords: [
      ...['am', 'an', 'auf', 'aus', 'bei', 'das', 'der', 'die', 'für', 'im'],
      ...['in', 'mit', 'und', 'von', 'zu', 'zum'],
    ],
    sentenceArticle: /^(Der|Die|Das|Ein|Eine|Unser|Unsere|Ihr|Ihre)\b/,
    titleFrom: (subject, brand) => `${subject} von ${brand}`,
    officialSite: 'Offizielle Website',
    leads: (subject, inSentence, brand) => [
      `${subject} bei ${brand}.`,
      `Entdecken Sie ${inSentence} bei ${brand}.`,
      `${subject}: das Wichtigste von ${brand}.`,
      `Alles rund um ${inSentence} bei ${brand}.`,
    ],
    plainLeads: (subject, inSentence) => [
      `${subject}.`,
      `Entdecken Sie ${inSentence}.`,
      `Alles rund um ${inSentence}.`,
    ],
    aboutQuery: (query) => `Alles, was Sie über ${query} wissen müssen, an einem Ort.`,
    closings: [
      'Alle Details finden Sie auf unserer Website.',
      'Sehen Sie sich unser ganzes Angebot an.',
      'Jetzt informieren und das Passende finden.',
      'Schauen Sie sich die Details in Ruhe an.',
    ],
  },
  fr: {
    smallWords: ['à', 'au', 'aux', 'de', 'des', 'du', 'en', 'et', 'la', 'le', 'les', 'pour', 'sur', 'un', 'une'],
    sentenceArticle: /^(Le|La|Les|Un|Une|Notre|Nos|Votre|Vos)\b/,
    titleFrom: (subject, brand) => `${subject} chez ${brand}`,
    officialSite: 'Site officiel',
    leads: (subject, inSentence, brand) => [
      `${subject}, chez ${brand}.`,
      `Découvrez ${inSentence} chez ${brand}.`,
      `${subject} : l’essentiel avec ${brand}.`,
      `Tout savoir sur ${inSentence}, avec ${brand}.`,
    ],
    plainLeads: (subject, inSentence) => [`${subject}.`, `Découvrez ${inSentence}.`, `Tout savoir sur ${inSentence}.`],
    aboutQuery: (query) => `Tout ce qu’il faut savoir sur ${query}, en un seul endroit.`,
    closings: [
      'Retrouvez tous les détails sur notre site.',
      'Parcourez toute notre offre.',
      'Prenez le temps de tout découvrir.',
      'Tous les détails vous attendent en ligne.',
    ],
  },
  es: {
    smallWords: ['a', 'al', 'con', 'de', 'del', 'el', 'en', 'la', 'las', 'los', 'para', 'por', 'un', 'una', 'y'],
    sentenceArticle: /^(El|La|Los|Las|Un|Una|Nuestro|Nuestra|Nuestros|Nuestras|Tu|Tus)\b/,
    titleFrom: (subject, brand) => `${subject} de ${brand}`,
    officialSite: 'Sitio oficial',
    leads: (subject, inSentence, brand) => [
      `${subject}, de ${brand}.`,
      `Descubre ${inSentence} en ${brand}.`,
      `Todo sobre ${inSentence}, con ${brand}.`,
      `${subject}: lo esencial, de la mano de ${brand}.`,
    ],
    plainLeads: (subject, inSentence) => [`${subject}.`, `Descubre ${inSentence}.`, `Todo sobre ${inSentence}.`],
    aboutQuery: (query) => `Todo lo que necesitas saber sobre ${query}, en un solo lugar.`,
    closings: [
      'Consulta todos los detalles en nuestra web.',
      'Descubre todo lo que te ofrecemos.',
      'Echa un vistazo y encuentra lo que buscas.',
      'Infórmate con calma y elige lo que mejor te va.',
    ],
  },
};

const isOfflineLanguage = (language: string | null): language is OfflineLanguage =>
  (offlineLanguages as readonly string[]).includes(language ?? '');

/** The page's language when the offline text can be written in it, else English. */
const phrasesOf = (language: string | null): Phrases => PHRASES[isOfflineLanguage(language) ? language : 'en'];

/**
 * A number of the page's own (FNV-1a of its URL): it picks the page's phrasing, so neighbouring pages read
 * differently while one page always gets the same text.
 */
function pageSeed(url: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < url.length; i++) hash = Math.imul(hash ^ url.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/** The list started at the seed's place, every item kept: the first is this page's choice, the rest fallbacks. */
const rotate = <T>(items: readonly T[], seed: number): T[] => {
  const start = items.length === 0 ? 0 : seed % items.length;
  return [...items.slice(start), ...items.slice(0, start)];
};

/** A website name a reader would recognise: a host-derived "127" (a crawl of 127.0.0.1) is no name. */
const usableBrand = (brand: string): string => (/\p{L}/u.test(brand) ? brand : '');

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
  const brand = usableBrand(clean(facts.brand));
  const queries = uniqueBy(facts.topQueries.map((q) => withoutCounter(clean(q.query))));
  const subjects = uniqueBy(
    [
      clean(facts.h1[0]),
      titleCore(facts.pageTitle ?? '', clean(facts.brand)),
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
  const { brand, subjects, queries, sentences } = materialOf(facts, phrases);
  const seed = pageSeed(facts.url);
  const closings = rotate(phrases.closings, Math.floor(seed / 7));
  const out: string[] = [];
  for (const subject of subjects) {
    const query = queries[0] !== undefined && isNewTo(subject, queries[0]) ? queries[0] : undefined;
    const said = inSentence(subject, phrases);
    const leads = rotate(brand ? phrases.leads(subject, said, brand) : phrases.plainLeads(subject, said), seed);
    // The page's own sentence only when it says something the lead does not.
    const own = sentences.find(
      (sentence) =>
        !(brand && sentence.toLowerCase().includes(brand.toLowerCase())) &&
        isNewTo(`${subject} ${query ?? ''}`, sentence),
    );
    const follows = [query ? phrases.aboutQuery(query) : '', own ?? '', ...closings].filter(Boolean);
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
