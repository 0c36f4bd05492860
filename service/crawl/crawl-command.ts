/** The `npm run crawl` command line, checked and turned into CrawlOptions (scripts/crawl.ts runs it). */
import fs from 'node:fs';
import path from 'node:path';
import { readCommandLine } from '../command-line.ts';
import { manifestSchema } from '../../catalog/export-contract.ts';
import { compileUrlPattern, UrlPatternError, type UrlPattern } from '../../catalog/url-pattern.ts';
import { CURRENT_FILE, crawlDir, websiteDir } from '../store/layout.ts';
import type { CrawlOptions } from './crawl-options.ts';
import { checkEgressPolicy, egressPolicyFromEnv, type EgressPolicy } from './egress.ts';
import { crawlerVersion, CRAWLER_NAME } from './export-crawl.ts';
import { readCrawlExportMemoryLimit } from './export-memory.ts';
import { normalizeUrl } from './normalize-url.ts';
import { RENDER_ARGS, RENDER_HELP, RENDER_USAGE, renderOptionsOf } from './render/render-command.ts';

export const USAGE =
  'usage: npm run crawl -- START_URL --out EXPORT_DIR [--website ID] [--crawl N] [--max-urls N] [--max-depth N] ' +
  '[--concurrency N] [--delay MS] [--user-agent UA] [--ignore-robots] [--include-subdomains] [--skip-external] [--include REGEX]... ' +
  '[--exclude REGEX]... [--sitemap URL]... [--allow CIDR|HOST]... [--render N] ' +
  `${RENDER_USAGE} [--time-limit HOURS] [--load] [--data-dir DIR]`;

export const HELP = `${USAGE}

Where the crawl may connect: public addresses, plus what you open. The start URL's host and every --sitemap
host are allowed whatever they resolve to, loopback and private networks included, since you typed them; every
other host the crawl finds (links, images, canonicals, redirect targets, robots.txt sitemaps, external links,
the renderer's requests) must resolve to a public address, or it is recorded with "refused by the egress policy"
as its fetch error. Open more with --allow CIDR|HOST (repeatable: 10.0.0.0/8, 127.0.0.1, intranet.example) or
CRAWL_ALLOW (comma-separated, the same entries). Host names are resolved through CRAWL_DNS_SERVERS
(comma-separated host[:port]) when set, else the system's DNS servers.

Limits of a run:
  --max-urls N          URLs of the site to fetch, sitemap URLs included (default 1000000)
  --max-depth N         click depth from the start URL (default 1000)
  --time-limit HOURS    wall-clock limit, 1 to 48 (default 6); when reached, fetching stops and the export holds
                        what was crawled, marked stopped early
  Each response has 20 s in all (connection, headers and body); robots.txt's crawl-delay is obeyed up to 10 s;
  Ctrl-C stops fetching and writes the export, twice aborts.

${RENDER_HELP}`;

export const DEFAULT_MAX_URLS = 1_000_000;
export const DEFAULT_MAX_DEPTH = 1000;
export const DEFAULT_CONCURRENCY = 16;
export const MAX_CRAWL_ID = 2_147_483_647;
export const MAX_TIME_LIMIT_HOURS = 48;
const HOUR_MS = 3_600_000;

/**
 * The crawl's working files go beside its export, not to the system's temporary directory, so what a killed crawl
 * leaves is found there (and removed by the next crawl into the same directory).
 */
export const scratchDirOf = (outDir: string): string =>
  path.join(path.dirname(outDir), `.${path.basename(outDir)}.scratch`);

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface CrawlCommand {
  isHelp: boolean;
  isLoad: boolean;
  dataDir: string;
  options: Omit<CrawlOptions, 'signal' | 'onProgress'>;
}

export const defaultUserAgent = (): string => `TechnicalHealthCheck/${crawlerVersion()} (+${CRAWLER_NAME} crawler)`;

/** A contract-valid website id from the start URL's host (port included): `www.Shop.example:8080` → `shop-example-8080`. */
export function websiteIdFromUrl(startUrl: string): string {
  const host = new URL(startUrl).host.toLowerCase().replace(/^www\./, '');
  const id = host
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return id === '' ? 'website' : id;
}

/** One above the highest crawl id of the website in DATA_DIR, else 1. */
export function nextCrawlId(dataDir: string, websiteId: string): number {
  const dir = websiteDir(dataDir, websiteId);
  let highest = 0;
  const entries = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const id = Number(name);
    if (id > highest && fs.existsSync(path.join(crawlDir(dataDir, websiteId, id), CURRENT_FILE))) highest = id;
  }
  return highest + 1;
}

function integer(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got "${value}")`);
  }
  return Number(value);
}

function patterns(name: string, values: string[] | undefined): UrlPattern[] {
  return (values ?? []).map((source) => {
    try {
      return compileUrlPattern(source);
    } catch (error) {
      if (error instanceof UrlPatternError)
        throw new UsageError(`--${name} ${JSON.stringify(source)} ${error.message}`);
      throw error;
    }
  });
}

/** CRAWL_ALLOW and CRAWL_DNS_SERVERS, with the typed URLs' hosts and --allow entries opened too. */
function commandEgress(env: NodeJS.ProcessEnv, typedUrls: string[], allow: string[]): EgressPolicy {
  const fromEnv = egressPolicyFromEnv(env);
  try {
    checkEgressPolicy(fromEnv);
    checkEgressPolicy({ allow, dnsServers: [] }, { allow: '--allow', dns: '' });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const typedHosts = typedUrls.map((url) => new URL(url).hostname.replace(/^\[|\]$/g, ''));
  return { ...fromEnv, allow: [...new Set([...fromEnv.allow, ...typedHosts, ...allow])] };
}

export function parseCrawlCommand(argv: string[], env: NodeJS.ProcessEnv = {}): CrawlCommand {
  const parsed = readCommandLine(
    argv,
    {
      out: { type: 'string' },
      website: { type: 'string' },
      crawl: { type: 'string' },
      'max-urls': { type: 'string' },
      'max-depth': { type: 'string' },
      concurrency: { type: 'string' },
      delay: { type: 'string' },
      'user-agent': { type: 'string' },
      'ignore-robots': { type: 'boolean' },
      'include-subdomains': { type: 'boolean' },
      'skip-external': { type: 'boolean' },
      include: { type: 'string', multiple: true },
      exclude: { type: 'string', multiple: true },
      sitemap: { type: 'string', multiple: true },
      allow: { type: 'string', multiple: true },
      render: { type: 'string' },
      ...RENDER_ARGS,
      'time-limit': { type: 'string' },
      load: { type: 'boolean' },
    },
    (problem) => {
      throw new UsageError(problem);
    },
    env,
  );
  const v = parsed.values;
  const { dataDir } = parsed;
  try {
    readCrawlExportMemoryLimit(env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.isHelp) return { isHelp: true, isLoad: false, dataDir, options: undefined as never };
  const [start, ...rest] = parsed.positionals;
  if (start === undefined) throw new UsageError('missing START_URL');
  if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0]}`);
  const startUrl = normalizeUrl(start);
  if (startUrl === null || !/^https?:\/\//i.test(start.trim())) {
    throw new UsageError(`START_URL "${start}" is not an http(s) URL`);
  }
  if (v.out === undefined || v.out.trim() === '') throw new UsageError('missing --out EXPORT_DIR');
  const outDir = path.resolve(v.out);
  if (fs.existsSync(outDir) && !fs.statSync(outDir).isDirectory()) {
    throw new UsageError(`--out ${outDir} is a file, not a directory`);
  }
  const websiteId = v.website ?? websiteIdFromUrl(startUrl);
  const websiteCheck = manifestSchema.shape.websiteId.safeParse(websiteId);
  if (!websiteCheck.success) {
    throw new UsageError(
      `--website "${websiteId}" is not a valid website id (${websiteCheck.error.issues[0]?.message ?? ''})`,
    );
  }
  for (const sitemap of v.sitemap ?? []) {
    if (normalizeUrl(sitemap) === null) throw new UsageError(`--sitemap "${sitemap}" is not an http(s) URL`);
  }
  const sitemaps = (v.sitemap ?? []).map((s) => normalizeUrl(s) as string);
  const egress = commandEgress(env, [startUrl, ...sitemaps], v.allow ?? []);
  const userAgent = v['user-agent'] ?? defaultUserAgent();
  if (userAgent.trim() === '' || /[\r\n]/.test(userAgent))
    throw new UsageError('--user-agent must be one non-empty line');
  return {
    isHelp: false,
    isLoad: v.load === true,
    dataDir,
    options: {
      startUrl,
      outDir,
      websiteId,
      crawlId: integer('crawl', v.crawl, 0, 1, MAX_CRAWL_ID) || nextCrawlId(dataDir, websiteId),
      maxUrls: integer('max-urls', v['max-urls'], DEFAULT_MAX_URLS, 1),
      maxDepth: integer('max-depth', v['max-depth'], DEFAULT_MAX_DEPTH, 0),
      concurrency: integer('concurrency', v.concurrency, DEFAULT_CONCURRENCY, 1, 256),
      delayMs: integer('delay', v.delay, 0, 0, 600_000),
      userAgent,
      respectRobots: v['ignore-robots'] !== true,
      includeSubdomains: v['include-subdomains'] === true,
      checkExternal: v['skip-external'] !== true,
      include: patterns('include', v.include),
      exclude: patterns('exclude', v.exclude),
      sitemaps,
      render: integer('render', v.render, 0, 0),
      ...renderOptionsOf(v, integer('render', v.render, 0, 0), (problem) => {
        throw new UsageError(problem);
      }),
      egress,
      ...(v['time-limit'] !== undefined && {
        maxDurationMs: integer('time-limit', v['time-limit'], 0, 1, MAX_TIME_LIMIT_HOURS) * HOUR_MS,
      }),
      scratchDir: scratchDirOf(outDir),
    },
  };
}
