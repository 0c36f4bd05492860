/**
 * Independent oracles for a site served on 127.0.0.1: Debian's linkchecker and `wget --spider` (broken URLs, the
 * pages they reach, statuses, redirects), xmllint's HTML parser (titles, h1 counts, meta refreshes per file) and
 * the bytes the server sends (byte-identical page groups). None of them shares code with our crawler.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { debianPackages, ensureDebianPackages } from './debian-packages.ts';

const repoDir = path.resolve(import.meta.dirname, '../..');
const execFileAsync = promisify(execFile);

export interface ToolRun {
  seconds: number;
  /** Peak resident set size of the tool, MB (GNU time's figure when available, else NaN). */
  peakRssMb: number;
}

/** Runs a command to completion; its exit status is left to the caller (link checkers exit 1 on broken links). */
export function runTool(
  command: string,
  args: string[],
  options: { cwd?: string; stdoutFile?: string },
): Promise<ToolRun & { status: number; stderr: string }> {
  const started = performance.now();
  const timeFile = path.join(os.tmpdir(), `thc-time-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const timed = fs.existsSync('/usr/bin/time');
  const [bin, argv] = timed ? ['/usr/bin/time', ['-f', '%M', '-o', timeFile, command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    const out = options.stdoutFile ? fs.openSync(options.stdoutFile, 'w') : 'ignore';
    const child = spawn(bin, argv, { cwd: options.cwd, stdio: ['ignore', out, 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 100_000) stderr += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('close', (status) => {
      if (typeof out === 'number') fs.closeSync(out);
      let peakRssMb = NaN;
      if (timed && fs.existsSync(timeFile)) {
        peakRssMb = Math.round(Number(/(\d+)\s*$/.exec(fs.readFileSync(timeFile, 'utf8'))?.[1] ?? NaN) / 1024);
        fs.rmSync(timeFile, { force: true });
      }
      resolve({ seconds: (performance.now() - started) / 1000, peakRssMb, status: status ?? -1, stderr });
    });
  });
}

/** `http://host:port/a/b.html#x` → `/a/b.html` relative to the site's root URL, fragment dropped. */
const sitePath = (siteUrl: string, url: string): string => {
  const base = new URL(siteUrl);
  const parsed = new URL(url);
  if (parsed.origin !== base.origin) throw new Error(`${url} is not on ${siteUrl}`);
  return parsed.pathname + parsed.search;
};

export interface BrokenLink {
  /** The broken URL, absolute, fragment dropped. */
  url: string;
  /** The page linkchecker first found it on. */
  parent: string;
  result: string;
}

export interface LinkcheckerRun extends ToolRun {
  /** URLs checked (from its summary line), for a rate. */
  urlsChecked: number;
  broken: BrokenLink[];
  /** The result came from the cache of an earlier run on the same package versions. */
  cached: boolean;
}

const dpkgVersions = (names: readonly string[]): string =>
  execFileSync('dpkg-query', ['-W', '-f', '${Package}=${Version} ', ...names], { encoding: 'utf8' }).trim();

/**
 * linkchecker over the whole site: intern URLs only, anything not on 127.0.0.1 ignored, its rate limit raised
 * (the server sends `LinkChecker: ok`), every checked URL in its CSV (--verbose). It checks ~30 URLs/s, so a result is cached in
 * node_modules/.cache keyed by the versions of linkchecker and of the package that ships the site (`sitePackage`),
 * stored relative to the site root so that another port reuses it. `fresh` ignores the cache.
 */
export async function runLinkchecker(
  siteUrl: string,
  options: { sitePackage?: string; fresh?: boolean; threads?: number } = {},
): Promise<LinkcheckerRun> {
  ensureDebianPackages([debianPackages.linkchecker]);
  const cacheDir = path.join(repoDir, 'node_modules/.cache/thc-oracles');
  const key = options.sitePackage
    ? createHash('sha256')
        .update(`v2 ${dpkgVersions(['linkchecker', options.sitePackage])} ${new URL(siteUrl).pathname}`)
        .digest('hex')
        .slice(0, 16)
    : undefined;
  const cacheFile = key ? path.join(cacheDir, `linkchecker-${key}.json`) : undefined;
  const absolute = (run: LinkcheckerRun): LinkcheckerRun => ({
    ...run,
    broken: run.broken.map((b) => ({
      ...b,
      url: new URL(b.url, siteUrl).href,
      parent: new URL(b.parent, siteUrl).href,
    })),
  });
  if (cacheFile && !options.fresh && fs.existsSync(cacheFile)) {
    return absolute({ ...(JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as LinkcheckerRun), cached: true });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-linkchecker-'));
  try {
    const config = path.join(dir, 'linkcheckerrc');
    const origin = new URL(siteUrl).origin.replace(/[.]/g, '\\.');
    fs.writeFileSync(
      config,
      `[checking]\nmaxrequestspersecond=1000\nthreads=${options.threads ?? 10}\n` +
        `[filtering]\nignore=^(?!${origin}/)\n[csv]\nseparator=;\n`,
    );
    const csvFile = path.join(dir, 'out.csv');
    const run = await runTool('linkchecker', ['-f', config, '--no-status', '--verbose', '-o', 'csv', siteUrl], {
      cwd: dir,
      stdoutFile: csvFile,
    });
    // 0: no broken links, 1: broken links found; anything else is a failure of the tool.
    if (run.status !== 0 && run.status !== 1) throw new Error(`linkchecker exited ${run.status}: ${run.stderr}`);
    const rows = parseCsv(
      fs
        .readFileSync(csvFile, 'utf8')
        .split('\n')
        .filter((line) => !line.startsWith('#'))
        .join('\n'),
      ';',
    );
    const header = rows.shift() ?? [];
    const column = (name: string): number => {
      const index = header.indexOf(name);
      if (index < 0) throw new Error(`linkchecker CSV has no ${name} column: ${header.join(';')}`);
      return index;
    };
    const [url, parent, result, valid] = ['url', 'parentname', 'result', 'valid'].map(column) as [
      number,
      number,
      number,
      number,
    ];
    const broken = rows
      .filter((r) => r[valid] === 'False')
      .map((r) => ({
        url: sitePath(siteUrl, r[url] ?? ''),
        parent: sitePath(siteUrl, r[parent] ?? ''),
        result: r[result] ?? '',
      }));
    const stored: LinkcheckerRun = {
      seconds: run.seconds,
      peakRssMb: run.peakRssMb,
      urlsChecked: new Set(rows.map((r) => r[url])).size,
      broken,
      cached: false,
    };
    if (cacheFile) {
      fs.mkdirSync(cacheDir, { recursive: true });
      fs.writeFileSync(cacheFile, JSON.stringify(stored));
    }
    return absolute(stored);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** RFC 4180 fields: quotes double themselves, a quoted field may hold the separator and newlines. */
function parseCsv(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else if (c !== '\r') field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows.filter((r) => r.length > 1 || r[0] !== '');
}

export interface SpiderPage {
  status: number;
  contentType: string | null;
  /** The Location of a redirect. */
  location: string | null;
}

export interface WgetRun extends ToolRun {
  /** Every URL wget requested, with the last answer it got. */
  pages: Map<string, SpiderPage>;
  /** The URLs it lists after "Found N broken links.". */
  broken: Set<string>;
}

/** `wget --spider -r -l inf -nd -np -e robots=off` from the site root; its log parsed. */
export async function runWgetSpider(siteUrl: string): Promise<WgetRun> {
  ensureDebianPackages([debianPackages.wget]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-wget-'));
  try {
    const log = path.join(dir, 'wget.log');
    const run = await runTool(
      'wget',
      ['--spider', '-r', '-l', 'inf', '-nd', '-np', '-e', 'robots=off', '-o', log, siteUrl],
      {
        cwd: dir,
      },
    );
    // 0: all fine, 8: the server answered an error for some URL (the broken links).
    if (run.status !== 0 && run.status !== 8) throw new Error(`wget exited ${run.status}: ${run.stderr}`);
    return { seconds: run.seconds, peakRssMb: run.peakRssMb, ...parseWgetLog(fs.readFileSync(log, 'utf8')) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function parseWgetLog(log: string): { pages: Map<string, SpiderPage>; broken: Set<string> } {
  const pages = new Map<string, SpiderPage>();
  let current: string | null = null;
  const summary = /^Found (\d+) broken links?\.\n\n([\s\S]*?)\n\n/m.exec(log);
  for (const line of log.slice(0, summary?.index ?? log.length).split('\n')) {
    const request = /^--\S+ \S+--\s+(\S+)$/.exec(line);
    if (request?.[1]) {
      current = request[1];
      continue;
    }
    if (!current) continue;
    const status = /^HTTP request sent, awaiting response\.\.\. (\d{3})/.exec(line);
    if (status) pages.set(current, { status: Number(status[1]), contentType: null, location: null });
    const page = pages.get(current);
    if (!page) continue;
    const type = /^Length: .*\[([^\]]+)\]$/.exec(line);
    if (type?.[1]) page.contentType = type[1];
    const location = /^Location: (\S+)/.exec(line);
    if (location?.[1]) page.location = location[1];
  }
  const broken = new Set(
    (summary?.[2] ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('http')),
  );
  if (summary && broken.size !== Number(summary[1])) {
    throw new Error(`wget said ${summary[1]} broken links but listed ${broken.size}`);
  }
  return { pages, broken };
}

/** The file nginx sends for a URL of a site served from `root` (directory → index.html). */
export function fileOfUrl(root: string, siteUrl: string, url: string): string {
  const pathname = decodeURIComponent(new URL(url).pathname);
  const relative = path.relative(new URL(siteUrl).pathname, pathname);
  return path.join(root, relative, pathname.endsWith('/') ? 'index.html' : '');
}

export interface XmllintPage {
  title: string;
  h1Count: number;
  /** `<meta http-equiv="refresh">` elements, in any letter case. */
  metaRefreshCount: number;
}

/** libxml2's HTML parser over each file, by XPath; files in batches to keep process starts few. */
export async function xmllintPages(files: readonly string[]): Promise<Map<string, XmllintPage>> {
  ensureDebianPackages([debianPackages.xmllint]);
  const xpath =
    'concat("@@", count(//h1), "|", count(//meta[translate(@http-equiv, "REFSH", "refsh") = "refresh"]), "|", string(//title))';
  const result = new Map<string, XmllintPage>();
  for (let start = 0; start < files.length; start += 400) {
    const batch = files.slice(start, start + 400);
    const { stdout } = await execFileAsync('xmllint', ['--html', '--noout', '--xpath', xpath, ...batch], {
      maxBuffer: 256 * 1024 * 1024,
      encoding: 'utf8',
    }).catch((error: { stdout?: string; code?: number }) => {
      // xmllint exits non-zero on HTML it finds invalid (svg inside HTML, …) yet prints every result.
      if (typeof error.stdout === 'string' && error.stdout.startsWith('@@')) return { stdout: error.stdout };
      throw error;
    });
    const answers = stdout.split(/\n?@@/).slice(1);
    if (answers.length !== batch.length) {
      throw new Error(`xmllint gave ${answers.length} answers for ${batch.length} files (from ${batch[0]})`);
    }
    answers.forEach((answer, i) => {
      const [h1, refresh, ...title] = answer.replace(/\n$/, '').split('|');
      result.set(batch[i] ?? '', { h1Count: Number(h1), metaRefreshCount: Number(refresh), title: title.join('|') });
    });
  }
  return result;
}

/** Groups (two or more) of URLs whose bodies as the server sends them are byte-identical; each group sorted. */
export function byteIdenticalGroups(urlToFile: ReadonlyMap<string, string>): string[][] {
  const byHash = new Map<string, string[]>();
  for (const [url, file] of urlToFile) {
    const hash = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    byHash.set(hash, [...(byHash.get(hash) ?? []), url]);
  }
  return [...byHash.values()]
    .filter((urls) => urls.length > 1)
    .map((urls) => urls.sort())
    .sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}
