import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CRAWL_DB_FILE, CRAWL_META_FILE, CURRENT_FILE, crawlDir } from '../store/layout.ts';
import {
  DEFAULT_MAX_URLS,
  HELP,
  nextCrawlId,
  parseCrawlCommand,
  UsageError,
  websiteIdFromUrl,
} from './crawl-command.ts';

const temps: string[] = [];
const tempDir = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-crawl-command-'));
  temps.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A live crawl as the loader leaves it: CURRENT naming a load directory with its database and meta files. */
function liveCrawl(dataDir: string, websiteId: string, crawlId: number): void {
  const dir = crawlDir(dataDir, websiteId, crawlId);
  fs.mkdirSync(path.join(dir, 'load-1'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'load-1', CRAWL_DB_FILE), '');
  fs.writeFileSync(path.join(dir, 'load-1', CRAWL_META_FILE), '{}');
  fs.writeFileSync(path.join(dir, CURRENT_FILE), 'load-1\n');
}

describe('websiteIdFromUrl', () => {
  it('makes a contract-valid id from the host and port', () => {
    expect(websiteIdFromUrl('https://www.Shop.example.co.uk/a')).toBe('shop-example-co-uk');
    expect(websiteIdFromUrl('http://127.0.0.1:8080/')).toBe('127-0-0-1-8080');
    expect(websiteIdFromUrl(`http://${'a'.repeat(70)}.example/`)).toBe('a'.repeat(63));
  });
});

describe('nextCrawlId', () => {
  it('is one above the highest live crawl of the website, else 1', () => {
    const dataDir = tempDir();
    expect(nextCrawlId(dataDir, 'site')).toBe(1);
    liveCrawl(dataDir, 'site', 3);
    liveCrawl(dataDir, 'site', 7);
    fs.mkdirSync(crawlDir(dataDir, 'site', 9), { recursive: true });
    liveCrawl(dataDir, 'other', 20);
    expect(nextCrawlId(dataDir, 'site')).toBe(8);
  });
});

describe('parseCrawlCommand', () => {
  it('fills the defaults', () => {
    const dataDir = tempDir();
    liveCrawl(dataDir, 'example-com', 4);
    const command = parseCrawlCommand(['http://Example.com', '--out', 'out'], { DATA_DIR: dataDir });
    expect(command.isLoad).toBe(false);
    expect(command.dataDir).toBe(dataDir);
    expect(command.options).toMatchObject({
      startUrl: 'http://example.com/',
      outDir: path.resolve('out'),
      websiteId: 'example-com',
      crawlId: 5,
      maxUrls: 1_000_000,
      maxDepth: 1000,
      concurrency: 16,
      delayMs: 0,
      respectRobots: true,
      includeSubdomains: false,
      checkExternal: true,
      include: [],
      exclude: [],
      sitemaps: [],
      render: 0,
      egress: { allow: ['example.com'], dnsServers: [] },
      scratchDir: path.resolve('.out.scratch'),
    });
    expect(command.options.maxDurationMs).toBeUndefined();
    expect(command.options.userAgent).toMatch(/^TechnicalHealthCheck\/\d+\.\d+\.\d+ /);
  });

  it('takes every option', () => {
    const command = parseCrawlCommand([
      'https://example.com/start',
      '--out=x',
      '--website=shop',
      '--crawl=12',
      '--max-urls=50',
      '--max-depth=3',
      '--concurrency=2',
      '--delay=250',
      '--user-agent=Bot/1',
      '--ignore-robots',
      '--include-subdomains',
      '--skip-external',
      '--include=/docs/',
      '--include=/blog/',
      '--exclude=\\?print',
      '--sitemap=https://example.com/s.xml',
      '--sitemap=http://sitemaps.example/s.xml',
      '--allow=10.0.0.0/8',
      '--allow=intranet.example',
      '--render=5',
      '--time-limit=2',
      '--load',
      '--data-dir=/tmp/d',
    ]);
    expect(command).toMatchObject({ isLoad: true, dataDir: '/tmp/d' });
    expect(command.options).toMatchObject({
      websiteId: 'shop',
      crawlId: 12,
      maxUrls: 50,
      maxDepth: 3,
      concurrency: 2,
      delayMs: 250,
      userAgent: 'Bot/1',
      respectRobots: false,
      includeSubdomains: true,
      checkExternal: false,
      sitemaps: ['https://example.com/s.xml', 'http://sitemaps.example/s.xml'],
      render: 5,
      maxDurationMs: 2 * 3_600_000,
      egress: { allow: ['example.com', 'sitemaps.example', '10.0.0.0/8', 'intranet.example'], dnsServers: [] },
    });
    const { include, exclude } = command.options;
    const matches = (url: string) => [include.map((p) => p.test(url)), exclude.map((p) => p.test(url))];
    expect(matches('https://example.com/docs/a?print')).toEqual([[true, false], [true]]);
    expect(matches('https://example.com/blog/')).toEqual([[false, true], [false]]);
  });

  it('allows the hosts its operator typed, on top of CRAWL_ALLOW, with CRAWL_DNS_SERVERS', () => {
    const env = { CRAWL_ALLOW: '192.168.0.0/16, wiki.example', CRAWL_DNS_SERVERS: '127.0.0.1:5353' };
    expect(parseCrawlCommand(['http://127.0.0.1:8080/', '--out', 'x'], env).options.egress).toEqual({
      allow: ['192.168.0.0/16', 'wiki.example', '127.0.0.1'],
      dnsServers: ['127.0.0.1:5353'],
    });
    expect(parseCrawlCommand(['http://[::1]:8080/', '--out', 'x']).options.egress?.allow).toEqual(['::1']);
    expect(() => parseCrawlCommand(['http://a.example/', '--out', 'x'], { CRAWL_ALLOW: 'a b' })).toThrow(
      new UsageError('CRAWL_ALLOW: "a b" is neither a CIDR, an IP address nor a host name'),
    );
    expect(HELP).toContain('--allow CIDR|HOST');
    expect(HELP).toContain('refused by the egress policy');
    expect(HELP).toContain('CRAWL_DNS_SERVERS');
  });

  it('refuses a CRAWL_EXPORT_MEMORY_LIMIT DuckDB would refuse, before anything is fetched', () => {
    expect(() => parseCrawlCommand(['http://a.example/', '--out', 'x'], { CRAWL_EXPORT_MEMORY_LIMIT: '768' })).toThrow(
      new UsageError('CRAWL_EXPORT_MEMORY_LIMIT must be a size such as 768MB or 1.5GiB, got "768"'),
    );
    expect(
      parseCrawlCommand(['http://a.example/', '--out', 'x'], { CRAWL_EXPORT_MEMORY_LIMIT: '1GB' }).options.startUrl,
    ).toBe('http://a.example/');
  });

  it('says what bounds a run in --help', () => {
    expect(HELP).toContain('--time-limit HOURS    wall-clock limit, 1 to 48 (default 6)');
    expect(HELP).toContain(
      `--max-urls N          URLs of the site to fetch, sitemap URLs included (default ${DEFAULT_MAX_URLS})`,
    );
    expect(parseCrawlCommand(['--help']).isHelp).toBe(true);
  });

  it.each([
    [[], 'missing START_URL'],
    [['http://a.example/', 'http://b.example/', '--out', 'x'], 'unexpected argument http://b.example/'],
    [['a.example', '--out', 'x'], 'START_URL "a.example" is not an http(s) URL'],
    [['http://a.example/'], 'missing --out EXPORT_DIR'],
    [
      ['http://a.example/', '--out', 'x', '--crawl', '0'],
      '--crawl must be a whole number from 1 to 2147483647 (got "0")',
    ],
    [
      ['http://a.example/', '--out', 'x', '--crawl', '2147483648'],
      '--crawl must be a whole number from 1 to 2147483647 (got "2147483648")',
    ],
    [
      ['http://a.example/', '--out', 'x', '--concurrency', '1.5'],
      '--concurrency must be a whole number from 1 to 256 (got "1.5")',
    ],
    [['http://a.example/', '--out', 'x', '--delay=-1'], '--delay must be a whole number from 0 to 600000 (got "-1")'],
    [['http://a.example/', '--out', 'x', '--include', '*'], '--include "*" is not a valid regular expression'],
    [
      ['http://a.example/', '--out', 'x', '--exclude', '(a)\\1'],
      '--exclude "(a)\\\\1" cannot be used: backreferences are not supported (patterns must run in linear time)',
    ],
    [['http://a.example/', '--out', 'x', '--time-limit', '49'], '--time-limit must be a whole number from 1 to 48'],
    [['http://a.example/', '--out', 'x', '--sitemap', 'nope'], '--sitemap "nope" is not an http(s) URL'],
    [['http://a.example/', '--out', 'x', '--website=-x'], '--website "-x" is not a valid website id'],
    [['http://a.example/', '--out', 'x', '--user-agent', ''], '--user-agent must be one non-empty line'],
    [['http://a.example/', '--out', 'x', '--allow', '10.0.0.0/33'], '--allow: "10.0.0.0/33" is not a valid CIDR'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCrawlCommand(argv, {})).toThrow(UsageError);
    expect(() => parseCrawlCommand(argv, {})).toThrow(message);
  });
});
