/**
 * Suggestions for a page of a crawl: facts from the crawl's tables, the configured provider's text checked (plain
 * text, length limits, not another page's title or description in the crawl) with the offline provider's first
 * passing candidate as the fallback, cached per website, crawl load, type and url in a bounded LRU.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { quoteIdent, withConnection } from '../db/duckdb.ts';
import { LruCache } from '../engine/cache.ts';
import type { CrawlRecord } from '../store/registry.ts';
import { lengthProblem, normalise, toPlainSuggestion } from './check.ts';
import { guessLanguage } from './language.ts';
import { offlineCandidates } from './offline.ts';
import { languageOf, type AiProvider, type PageFacts, type SuggestionType, type TopQuery } from './provider.ts';

const TOP_QUERIES = 5;
const CACHE_ENTRIES = 5000;
const CACHE_BYTES = 8 * 1024 * 1024;

/** The urls column each type is compared against for duplicates; never client input. */
const columnOf: Record<SuggestionType, string> = { 'page-title': 'page_title', 'meta-description': 'description' };

export interface PageRow {
  httpStatusCode: number | null;
  facts: PageFacts;
}

export interface Suggestion {
  text: string;
  /** Which provider's text was returned ('offline' also when it stood in for a refused answer). */
  provider: string;
  /** Why the configured provider's text was not used, when it was not. */
  fallbackReason?: string;
  isTransient?: boolean;
}

export class NoSuggestionError extends Error {
  override name = 'NoSuggestionError';
}

const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);
async function ownHreflang(conn: DuckDBConnection, alias: string, url: string): Promise<string | undefined> {
  const reader = await conn.runAndReadAll(
    `SELECT min(hreflang) AS hreflang FROM ${alias}.links
     WHERE url_to = $1 AND url_from = $1 AND link_type = 'hreflang' AND hreflang <> 'x-default'`,
    [url],
  );
  return languageOf(textOrNull(reader.getRowObjects()[0]?.hreflang));
}
const numberOf = (value: unknown): number => (typeof value === 'bigint' ? Number(value) : Number(value ?? 0));
const stringsOf = (json: unknown): string[] =>
  typeof json === 'string' ? ((JSON.parse(json) as unknown[] | null)?.filter((s) => typeof s === 'string') ?? []) : [];

export class AiSuggestions {
  readonly cache = new LruCache<Suggestion>(
    { maxEntries: CACHE_ENTRIES, maxBytes: CACHE_BYTES },
    (value, key) => 64 + (key.length + value.text.length + (value.fallbackReason?.length ?? 0)) * 2,
  );

  constructor(
    readonly db: DuckDBInstance,
    readonly provider: AiProvider,
    readonly onProviderError: (error: unknown) => void = () => undefined,
  ) {}

  /** The page's row in the crawl with its facts, or undefined when the crawl has no such url. */
  async page(record: CrawlRecord, brand: string, url: string): Promise<PageRow | undefined> {
    const alias = quoteIdent(record.alias);
    const { dataStart, dataEnd } = record.meta.manifest;
    return withConnection(this.db, async (conn) => {
      const pages = await conn.runAndReadAll(
        `SELECT http_status_code, page_title, description, to_json(h1_tag)::VARCHAR AS h1, to_json(h2_tag)::VARCHAR AS h2, og_locale
         FROM ${alias}.urls WHERE url = $1 LIMIT 1`,
        [url],
      );
      const row = pages.getRowObjects()[0];
      if (!row) return undefined;
      const queries = await conn.runAndReadAll(
        `SELECT query, SUM(clicks)::DOUBLE AS clicks, SUM(impressions)::DOUBLE AS impressions
         FROM ${alias}.search_console_queries
         WHERE url = $1 AND date BETWEEN $2::DATE AND $3::DATE AND query IS NOT NULL AND trim(query) <> ''
         GROUP BY query ORDER BY clicks DESC, impressions DESC, query LIMIT ${TOP_QUERIES}`,
        [url, dataStart, dataEnd],
      );
      const pageTitle = textOrNull(row.page_title);
      const description = textOrNull(row.description);
      const h1 = stringsOf(row.h1);
      const h2 = stringsOf(row.h2);
      // A page without og:locale may still name its own language among its hreflang alternates, in a language
      // folder of its path, or in its own words.
      const language =
        languageOf(textOrNull(row.og_locale)) ??
        (await ownHreflang(conn, alias, url)) ??
        guessLanguage(url, [pageTitle, description, ...h1, ...h2]) ??
        null;
      const topQueries: TopQuery[] = queries.getRowObjects().map((q) => ({
        query: String(q.query),
        clicks: numberOf(q.clicks),
        impressions: numberOf(q.impressions),
      }));
      return {
        httpStatusCode: row.http_status_code === null ? null : numberOf(row.http_status_code),
        facts: {
          url,
          brand,
          pageTitle,
          description,
          h1,
          h2,
          topQueries,
          language,
        },
      };
    });
  }

  /** Whether another page of the crawl already has this text as its title (or description). */
  async isDuplicate(record: CrawlRecord, type: SuggestionType, url: string, text: string): Promise<boolean> {
    const column = quoteIdent(columnOf[type]);
    return withConnection(this.db, async (conn) => {
      const reader = await conn.runAndReadAll(
        `SELECT 1 FROM ${quoteIdent(record.alias)}.urls
         WHERE url <> $1 AND lower(regexp_replace(trim(${column}), '\\s+', ' ', 'g')) = $2 LIMIT 1`,
        [url, normalise(text)],
      );
      return reader.currentRowCount > 0;
    });
  }

  /** Why `text` cannot be returned, or undefined when it passes every check. */
  async problemOf(record: CrawlRecord, type: SuggestionType, url: string, text: string): Promise<string | undefined> {
    const length = lengthProblem(type, text);
    if (length) return length;
    if (await this.isDuplicate(record, type, url, text)) return 'a duplicate of another page in the crawl';
    return undefined;
  }

  async suggest(record: CrawlRecord, type: SuggestionType, facts: PageFacts): Promise<Suggestion> {
    const key = [record.websiteId, record.crawlId, record.loadId, type, facts.url].join('\u0000');
    const cached = this.cache.get(key);
    if (cached) return cached;
    const suggestion = await this.#compute(record, type, facts);
    // A stand-in for a failed provider call is not kept: the next request tries the provider again.
    if (!suggestion.isTransient) this.cache.set(key, suggestion);
    return suggestion;
  }

  async #compute(record: CrawlRecord, type: SuggestionType, facts: PageFacts): Promise<Suggestion> {
    let fallbackReason: string | undefined;
    let isTransient = false;
    if (this.provider.name !== 'offline') {
      try {
        const raw = await this.provider.suggest(type, facts);
        const text = toPlainSuggestion(raw);
        const problem = text === undefined ? 'contains markup' : await this.problemOf(record, type, facts.url, text);
        if (text !== undefined && problem === undefined) return { text, provider: this.provider.name };
        fallbackReason = `${this.provider.name} suggestion refused: ${problem}`;
      } catch (error) {
        this.onProviderError(error);
        isTransient = true;
        fallbackReason = error instanceof Error ? error.message : String(error);
      }
    }
    for (const text of offlineCandidates(type, facts)) {
      if ((await this.problemOf(record, type, facts.url, text)) === undefined)
        return fallbackReason
          ? { text, provider: 'offline', fallbackReason, isTransient }
          : { text, provider: 'offline' };
    }
    throw new NoSuggestionError('No suggestion passed the checks: the page has too little text to work from');
  }
}
