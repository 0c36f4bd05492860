/**
 * The real `npm run crawl` CLI (spawned) against small websites served by this test on 127.0.0.1, its export read
 * with DuckDB and loaded with the real loader: the command's defaults, --load, bad arguments, an unreachable start
 * URL, and Ctrl-C once (a complete export of what was crawled) and twice (nothing written).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_FILE, parquetFileOf } from '../../catalog/export-contract.ts';
import { openDatabase, quoteLiteral } from '../db/duckdb.ts';
import { loadCrawl } from '../load/load-crawl.ts';
import { scratchDirOf } from '../crawl/crawl-command.ts';
import { readCurrentLoad, websiteDir } from '../store/layout.ts';
import { runCrawlCli } from './helpers/crawl-site.ts';
import { freePort } from '../../scripts/support/free-port.ts';

const page = (title: string, body: string, head = ''): string =>
  `<!doctype html><html><head><title>${title}</title>${head}</head><body>${body}</body></html>`;

/** A small site: robots.txt with a sitemap, a 301, a meta refresh, a 404, a nofollow link and an orphan page. */
function smallSite(): http.Server {
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const origin = `http://${req.headers.host ?? ''}`;
    const html = (status: number, body: string): void => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    switch (url.pathname) {
      case '/robots.txt':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end(`User-agent: *\nDisallow: /private/\nSitemap: ${origin}/sitemap.xml\n`);
      case '/sitemap.xml':
        res.writeHead(200, { 'content-type': 'application/xml' });
        return res.end(
          `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/</loc></url>` +
            `<url><loc>${origin}/orphan.html</loc></url></urlset>`,
        );
      case '/':
        return html(
          200,
          page(
            'Home',
            '<h1>Home</h1><a href="/about/">About</a> <a href="/old">Old</a> <a href="/gone.html">Gone</a> ' +
              '<a href="/private/x.html">Private</a> <a rel="nofollow" href="/login.html">Login</a> ' +
              '<a href="/refresh.html">Refresh</a> <a href="about/#team">Team</a>',
          ),
        );
      case '/about/':
        return html(200, page('About us', '<h1>About</h1><a href="../">Home</a>'));
      case '/old':
        res.writeHead(301, { location: '/about/' });
        return res.end();
      case '/refresh.html':
        return html(200, page('Moved', '', '<meta http-equiv="refresh" content="0; url=/about/">'));
      case '/orphan.html':
        return html(200, page('Orphan', '<h1>Orphan</h1>'));
      default:
        return html(404, page('Not found', '<h1>Not found</h1>'));
    }
  });
}

/** An endless site: every page links to five new ones and answers after a pause, so a crawl is still going. */
function endlessSite(onRequest: () => void): http.Server {
  return http.createServer((req, res) => {
    onRequest();
    const n = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? 0);
    const links = [1, 2, 3, 4, 5].map((i) => `<a href="/p/${n * 5 + i}">p${n * 5 + i}</a>`).join(' ');
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(page(`Page ${n}`, links));
    }, 20);
  });
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const db = await openDatabase();
  const conn = await db.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJS();
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

const table = (dir: string, id: string): string => quoteLiteral(path.join(dir, parquetFileOf(id)));

describe('npm run crawl', () => {
  let work: string;
  let site: http.Server;
  let siteUrl: string;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-crawl-cli-'));
    site = smallSite();
    siteUrl = await listen(site);
  });

  afterAll(() => {
    site.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('crawls a site into an export that --load loads, with the website and crawl id by default', async () => {
    const out = path.join(work, 'export');
    const dataDir = path.join(work, 'data');
    const run = await runCrawlCli([siteUrl, '--out', out, '--load', '--data-dir', dataDir]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const websiteId = `127-0-0-1-${new URL(siteUrl).port}`;
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^crawl: crawled 6 URLs of ${siteUrl} in .* website "${websiteId}" crawl 1`));
    expect(lines[1]).toMatch(new RegExp(`^crawl: loaded crawl 1 of website "${websiteId}"`));
    expect(readCurrentLoad(dataDir, websiteId, 1)).toBeDefined();
    expect(fs.existsSync(path.join(websiteDir(dataDir, websiteId), 'website.json'))).toBe(true);

    const manifest = JSON.parse(fs.readFileSync(path.join(out, MANIFEST_FILE), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      websiteId,
      crawlId: 1,
      startUrl: siteUrl,
      crawler: { name: 'technical-health-check' },
    });
    expect(manifest.stoppedEarly).toBeUndefined();
    expect(manifest.partialReason).toBeUndefined();
    // What the crawl was asked, for telling crawls comparable or not (issue 30 §4): the CLI's defaults here.
    expect(manifest.settings).toMatchObject({
      startUrl: siteUrl,
      include: [],
      exclude: [],
      respectRobots: true,
      render: 0,
      timeLimitHours: 6,
      checkExternal: true,
    });

    const urls = await query(
      `SELECT url, http_status_code AS status, indexable, found_in_web_crawl AS web, found_in_sitemap AS sm, level,
         is_redirect, redirected_to_url AS target, redirect_chain[1].is_meta_redirect AS meta
       FROM read_parquet(${table(out, 'urls')}) ORDER BY url`,
    );
    const at = (p: string): Record<string, unknown> | undefined => urls.find((u) => u.url === new URL(p, siteUrl).href);
    expect(urls.map((u) => new URL(u.url as string).pathname)).toEqual([
      '/',
      '/about/',
      '/gone.html',
      '/old',
      '/orphan.html',
      '/refresh.html',
    ]);
    expect(at('/')).toMatchObject({ status: 200, indexable: true, web: true, sm: true, level: 0 });
    expect(at('/about/')).toMatchObject({ status: 200, indexable: true, level: 1, is_redirect: false });
    expect(at('/gone.html')).toMatchObject({ status: 404, indexable: false });
    expect(at('/old')).toMatchObject({ status: 301, is_redirect: true, target: new URL('/about/', siteUrl).href });
    expect(at('/refresh.html')).toMatchObject({ status: 200, is_redirect: true, meta: true, indexable: false });
    expect(at('/orphan.html')).toMatchObject({ status: 200, web: false, sm: true, level: null });

    const uncrawled = await query(
      `SELECT url, restricted_reason AS reason, found_at_url AS at FROM read_parquet(${table(out, 'uncrawled_urls')}) ORDER BY url`,
    );
    expect(uncrawled).toEqual([
      { url: new URL('/login.html', siteUrl).href, reason: 'link_nofollow', at: siteUrl },
      { url: new URL('/private/x.html', siteUrl).href, reason: 'robots_disallowed', at: siteUrl },
    ]);
    const sitemaps = await query(`SELECT url, found_at, url_count FROM read_parquet(${table(out, 'sitemaps')})`);
    expect(sitemaps).toEqual([{ url: new URL('/sitemap.xml', siteUrl).href, found_at: 'robots.txt', url_count: 2 }]);

    // A second crawl of the same website takes the next crawl id.
    const again = await runCrawlCli([siteUrl, '--out', path.join(work, 'export-2'), '--data-dir', dataDir]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`website "${websiteId}" crawl 2 written`);
  });

  it('refuses bad arguments and an unreachable start URL with one line, writing nothing', async () => {
    const out = path.join(work, 'never');
    const cases: [string[], number, RegExp][] = [
      [['--out', out], 2, /^crawl: missing START_URL \(usage: /],
      [['ftp://example.com/', '--out', out], 2, /^crawl: START_URL "ftp:\/\/example.com\/" is not an http\(s\) URL/],
      [[siteUrl], 2, /^crawl: missing --out EXPORT_DIR/],
      [[siteUrl, '--out', out, '--max-urls', '0'], 2, /^crawl: --max-urls must be a whole number from 1 to /],
      [[siteUrl, '--out', out, '--exclude', '(['], 2, /^crawl: --exclude "\(\[" is not a valid regular expression/],
      [
        [siteUrl, '--out', out, '--exclude', '(x+)\\1'],
        2,
        /^crawl: --exclude "\(x\+\)\\\\1" cannot be used: backreferences are not supported \(patterns must run in linear time\)/,
      ],
      [[siteUrl, '--out', out, '--website', 'Bad Id'], 2, /^crawl: --website "Bad Id" is not a valid website id/],
      [[siteUrl, '--out', out, '--bogus'], 2, /^crawl: Unknown option '--bogus'/],
    ];
    const port = await freePort();
    cases.push([
      [`http://127.0.0.1:${port}/`, '--out', out],
      1,
      /^crawl: start URL http:\/\/127\.0\.0\.1:\d+\/ is unreachable/,
    ]);
    for (const [args, code, line] of cases) {
      const run = await runCrawlCli(args);
      expect(run.code, args.join(' ')).toBe(code);
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(run.stderr, args.join(' ')).toMatch(line);
    }
    expect(fs.existsSync(out)).toBe(false);
    expect(fs.existsSync(scratchDirOf(out))).toBe(false);
  }, 240_000);

  it('keeps 64 requests and politeness waits in flight without a listener warning', async () => {
    const endless = endlessSite(() => undefined);
    const endlessUrl = await listen(endless);
    try {
      const out = path.join(work, 'busy');
      const args = [endlessUrl, '--out', out, '--concurrency', '64', '--delay', '1', '--max-urls', '400'];
      const run = await runCrawlCli(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('crawled 400 URLs');
      expect(run.stderr).toBe('');
    } finally {
      endless.close();
    }
  }, 120_000);

  it('follows a start URL that redirects to its twin as the site, and records one to another site and stops', async () => {
    const origin = new URL(siteUrl);
    // The same host on another port stands for the www or https twin; localhost for another website.
    const redirecting = (target: string): http.Server =>
      http.createServer((req, res) => res.writeHead(301, { location: `${target}${req.url ?? '/'}` }).end());
    const twin = redirecting(`http://127.0.0.1:${origin.port}`);
    const elsewhere = redirecting(`http://localhost:${origin.port}`);
    const twinUrl = await listen(twin);
    const elsewhereUrl = await listen(elsewhere);
    try {
      const out = path.join(work, 'twin');
      const run = await runCrawlCli([twinUrl, '--out', out, '--skip-external']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const urls = await query(
        `SELECT url, http_status_code AS status, internal, level, redirected_to_url AS target
         FROM read_parquet(${table(out, 'urls')}) ORDER BY url`,
      );
      expect(urls.find((u) => u.url === twinUrl)).toEqual({
        url: twinUrl,
        status: 301,
        internal: true,
        level: 0,
        target: siteUrl,
      });
      expect(urls.find((u) => u.url === siteUrl)).toMatchObject({ status: 200, internal: true, level: 1 });
      expect(urls.find((u) => u.url === new URL('/about/', siteUrl).href)).toMatchObject({ status: 200, level: 2 });
      expect(urls.find((u) => u.url === new URL('/orphan.html', siteUrl).href)).toMatchObject({ status: 200 });

      const away = path.join(work, 'elsewhere');
      const target = `http://localhost:${origin.port}/`;
      const stopped = await runCrawlCli([elsewhereUrl, '--out', away, '--skip-external']);
      expect(stopped.code).toBe(0);
      expect(stopped.stderr).toBe(
        `crawl: start URL ${elsewhereUrl} redirects to ${target}, another website: the redirect is recorded, ` +
          `that website is not crawled (start at ${target} to crawl it)\n`,
      );
      const recorded = await query(
        `SELECT url, http_status_code AS status, redirected_to_url AS target FROM read_parquet(${table(away, 'urls')})`,
      );
      expect(recorded).toEqual([{ url: elsewhereUrl, status: 301, target }]);
    } finally {
      twin.close();
      elsewhere.close();
    }
  }, 120_000);

  it('Ctrl-C once stops and writes a complete export with the frontier as crawl_limit; twice writes nothing', async () => {
    let requests = 0;
    const endless = endlessSite(() => requests++);
    const endlessUrl = await listen(endless);
    /**
     * Presses Ctrl-C once the site has served 40 requests and, for `times` 2, again as soon as the crawl says it is
     * stopping. Two signals sent a few ms apart can reach a busy process as one (a pending signal is not queued twice).
     */
    const interruptAfter40Requests =
      (times: 1 | 2) =>
      (child: ChildProcess): void => {
        const timer = setInterval(() => {
          if (requests < 40) return;
          clearInterval(timer);
          child.kill('SIGINT');
        }, 20);
        if (times === 1) return;
        let stderr = '';
        const again = (chunk: Buffer): void => {
          stderr += chunk.toString();
          if (!stderr.includes('stopping: writing what was crawled')) return;
          child.stderr?.off('data', again);
          child.kill('SIGINT');
        };
        child.stderr?.on('data', again);
      };
    try {
      const once = path.join(work, 'stopped');
      const run = await runCrawlCli([endlessUrl, '--out', once, '--concurrency', '4'], interruptAfter40Requests(1));
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('stopping: writing what was crawled');
      expect(run.stdout).toContain('stopped early');
      const manifest = JSON.parse(fs.readFileSync(path.join(once, MANIFEST_FILE), 'utf8')) as Record<string, unknown>;
      expect(manifest.stoppedEarly).toBe(true);
      expect(manifest.partialReason).toBe('stopped');
      const [counts] = await query(
        `SELECT (SELECT count(*) FROM read_parquet(${table(once, 'urls')}))::INTEGER AS urls,
           (SELECT count(*) FROM read_parquet(${table(once, 'uncrawled_urls')}) WHERE restricted_reason = 'crawl_limit')::INTEGER AS frontier,
           (SELECT count(*) FROM read_parquet(${table(once, 'uncrawled_urls')}))::INTEGER AS uncrawled`,
      );
      expect(counts?.urls).toBeGreaterThanOrEqual(30);
      expect(counts?.frontier).toBeGreaterThan(0);
      expect(counts?.uncrawled).toBe(counts?.frontier);
      const loaded = await loadCrawl({ dataDir: path.join(work, 'data-stopped'), exportDir: once });
      expect(loaded.tables.urls).toBe(counts?.urls);

      requests = 0;
      const twice = path.join(work, 'aborted');
      const aborted = await runCrawlCli(
        [endlessUrl, '--out', twice, '--concurrency', '4'],
        interruptAfter40Requests(2),
      );
      expect(aborted.code).toBe(130);
      expect(aborted.stderr.trim().split('\n').at(-1)).toBe('crawl: aborted; nothing written');
      expect(fs.existsSync(twice)).toBe(false);
    } finally {
      endless.close();
    }
  }, 240_000);
});
