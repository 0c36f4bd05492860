/**
 * A page's language when it names none (no og:locale, no hreflang of its own): from a language folder in its path
 * (/de/, /fr-ca/), else from the little words of its title, headings and description. Undefined when neither says.
 */
import { offlineLanguages, type OfflineLanguage } from './offline.ts';

/** Words frequent in one language and rare in the others, and letters only it uses. */
const MARKERS: Record<OfflineLanguage, { words: string[]; letters: RegExp }> = {
  en: {
    words: ['the', 'and', 'for', 'with', 'your', 'our', 'you', 'from', 'this', 'how', 'what', 'is', 'are', 'of'],
    letters: /(?!)/,
  },
  de: {
    words: ['und', 'der', 'die', 'das', 'mit', 'für', 'ist', 'ein', 'eine', 'sie', 'ihre', 'unsere', 'den', 'dem'],
    letters: /[äöüß]/,
  },
  fr: {
    words: ['le', 'les', 'et', 'des', 'pour', 'avec', 'du', 'une', 'est', 'vos', 'nos', 'sur', 'au', 'aux'],
    letters: /[çèêëàâîôœ]/,
  },
  es: {
    words: ['el', 'los', 'las', 'y', 'con', 'para', 'del', 'una', 'por', 'sus', 'nuestro', 'nuestra', 'tu', 'tus'],
    letters: /[ñ¿¡]/,
  },
};

function languageOfPath(url: string): OfflineLanguage | undefined {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const folder = /^\/([a-z]{2})(?:[-_][a-z]{2})?(?:\/|$)/i.exec(pathname)?.[1]?.toLowerCase();
  return offlineLanguages.find((language) => language === folder);
}

function languageOfWords(texts: readonly string[]): OfflineLanguage | undefined {
  const text = texts.join(' ').toLowerCase();
  const words = text.split(/[^\p{L}]+/u).filter(Boolean);
  const scores = offlineLanguages.map((language) => {
    const { words: markers, letters } = MARKERS[language];
    const hits = words.filter((word) => markers.includes(word)).length;
    return { language, score: hits + (letters.test(text) ? 2 : 0) };
  });
  scores.sort((a, b) => b.score - a.score);
  const [best, next] = scores;
  return best && best.score >= 2 && best.score > (next?.score ?? 0) ? best.language : undefined;
}

export function guessLanguage(url: string, texts: readonly (string | null | undefined)[]): OfflineLanguage | undefined {
  return languageOfPath(url) ?? languageOfWords(texts.filter((t): t is string => typeof t === 'string'));
}
