/**
 * Numbers and dates of exports downloaded in German or French, where the vendor writes "1.234,56" (German),
 * "1 234,56" (French, the space often a no-break one), "12,34 %" and 25.11.2026 or 25/11/2026. A file's language is
 * told by its header, and then its notation is known: a cell that fits it is read, one that does not ("8.4" in a
 * German file: 8,4 or 84?) is refused, never guessed.
 */
export type Language = 'en' | 'de' | 'fr';

export interface Notation {
  language: Language;
  /** As messages name it. */
  name: string;
  /** A number as this language writes it, for messages. */
  example: string;
  integer: RegExp;
  decimal: RegExp;
  date: RegExp;
}

const FRENCH_SPACE = /[\u0020\u00a0\u202f]/g;

export const notations: Record<Language, Notation> = {
  en: {
    language: 'en',
    name: 'English',
    example: '1234.56',
    integer: /^-?\d+$/,
    decimal: /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i,
    date: /^(\d{4})-?(\d{2})-?(\d{2})$/,
  },
  de: {
    language: 'de',
    name: 'German',
    example: '1.234,56',
    integer: /^-?(\d{1,3}(\.\d{3})+|\d+)$/,
    decimal: /^-?(\d{1,3}(\.\d{3})+|\d+)(,\d+)?$/,
    date: /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/,
  },
  fr: {
    language: 'fr',
    name: 'French',
    example: '1 234,56',
    integer: /^-?(\d{1,3}([\u0020\u00a0\u202f]\d{3})+|\d+)$/,
    decimal: /^-?(\d{1,3}([\u0020\u00a0\u202f]\d{3})+|\d+)(,\d+)?$/,
    date: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/,
  },
};

/** The plain digits of a number written in `notation`, or undefined when it is not written so. */
export function plainNumber(text: string, notation: Notation, kind: 'integer' | 'decimal'): string | undefined {
  if (!notation[kind].test(text)) return undefined;
  if (notation.language === 'en') return text;
  const grouped = notation.language === 'de' ? text.replaceAll('.', '') : text.replace(FRENCH_SPACE, '');
  return grouped.replace(',', '.');
}

/** A day as `notation` writes it (ISO dates are read in every language), as YYYY-MM-DD, unchecked. */
export function plainDate(text: string, notation: Notation): string | undefined {
  const iso = notations.en.date.exec(text);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const local = notation.language === 'en' ? null : notation.date.exec(text);
  return local ? `${local[3]}-${local[2]!.padStart(2, '0')}-${local[1]!.padStart(2, '0')}` : undefined;
}

/** What to change, said after a cell that does not fit the file's language. */
export const localHint = (notation: Notation): string =>
  notation.language === 'en'
    ? 'such as 1234.56'
    : `a ${notation.name} export writes numbers such as ${notation.example}; download it again unedited, or with the product set to English`;
