import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CRAWL_DB_FILE, CRAWL_META_FILE, CURRENT_FILE, crawlDir } from '../store/layout.ts';
import { helpText, nextCrawlId, parseCrawlCommand, UsageError, websiteIdFromUrl } from './crawl-command.ts';

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
      maxDurationMs: 6 * 60 * 60 * 1000,
    });
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
      '--render=5',
      '--max-duration=90',
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
      include: [/\/docs\//, /\/blog\//],
      exclude: [/\?print/],
      sitemaps: ['https://example.com/s.xml'],
      render: 5,
      maxDurationMs: 90 * 60_000,
    });
  });

  it('says what bounds a run in --help', () => {
    expect(helpText()).toContain('--max-duration MINUTES   wall-clock limit (default 360)');
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
    [['http://a.example/', '--out', 'x', '--sitemap', 'nope'], '--sitemap "nope" is not an http(s) URL'],
    [['http://a.example/', '--out', 'x', '--website=-x'], '--website "-x" is not a valid website id'],
    [['http://a.example/', '--out', 'x', '--user-agent', ''], '--user-agent must be one non-empty line'],
    [
      ['http://a.example/', '--out', 'x', '--max-duration', '0'],
      '--max-duration must be a whole number from 1 to 100000 (got "0")',
    ],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCrawlCommand(argv, {})).toThrow(UsageError);
    expect(() => parseCrawlCommand(argv, {})).toThrow(message);
  });
});
