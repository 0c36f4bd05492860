/**
 * AI suggestions (spec §4, §7 /api/ai/get-data): what a provider is given about a page and what it must answer.
 * Providers only write text; suggestions.ts checks every answer and falls back to the offline provider.
 */
export const suggestionTypes = ['page-title', 'meta-description'] as const;
export type SuggestionType = (typeof suggestionTypes)[number];

export interface TopQuery {
  query: string;
  clicks: number;
  impressions: number;
}

/** What the platform knows of a page in one crawl. */
export interface PageFacts {
  url: string;
  /** The website's name. */
  brand: string;
  pageTitle: string | null;
  description: string | null;
  h1: string[];
  h2: string[];
  /** The page's search console queries over the crawl's data range, by clicks then impressions. */
  topQueries: TopQuery[];
  /** The page's language as a lower-case ISO 639-1 code (from og:locale, else its own hreflang); null when unknown. */
  language: string | null;
}

/** "de_DE", "fr-CA", "EN" → "de", "fr", "en"; undefined for "x-default" and anything else not a language tag. */
export function languageOf(tag: string | null | undefined): string | undefined {
  return /^\s*([a-z]{2,3})(?:[-_][a-z0-9]{2,8})*\s*$/i.exec(tag ?? '')?.[1]?.toLowerCase();
}

export interface AiProvider {
  readonly name: string;
  suggest(type: SuggestionType, facts: PageFacts): Promise<string>;
}

export class AiProviderError extends Error {
  override name = 'AiProviderError';
}
