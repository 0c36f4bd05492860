/** Sitemap files: XML urlsets and indexes, RSS feeds and plain-text lists, gzip-compressed or not. */
import zlib from 'node:zlib';
import { Parser } from 'htmlparser2';

export interface ParsedSitemap {
  type: 'index' | 'urlset';
  format: 'xml' | 'txt' | 'rss';
  /** Child sitemaps (an index) or page URLs, as written. */
  locs: string[];
  /** Why the file could not be read as a sitemap; locs holds what was read before. */
  parseError: string | null;
}

const MAX_UNZIPPED_BYTES = 64 * 1024 * 1024;

export function parseSitemap(body: Buffer): ParsedSitemap {
  let bytes = body;
  if (body[0] === 0x1f && body[1] === 0x8b) {
    try {
      bytes = zlib.gunzipSync(body, { maxOutputLength: MAX_UNZIPPED_BYTES });
    } catch (error) {
      return { type: 'urlset', format: 'xml', locs: [], parseError: `gzip: ${(error as Error).message}` };
    }
  }
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (!text.trimStart().startsWith('<')) return parseText(text);
  return parseXml(text);
}

function parseText(text: string): ParsedSitemap {
  const locs = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const bad = locs.find((line) => !/^https?:\/\//i.test(line));
  return {
    type: 'urlset',
    format: 'txt',
    locs: locs.filter((line) => /^https?:\/\//i.test(line)),
    parseError: bad === undefined ? null : `not a URL: ${bad.slice(0, 120)}`,
  };
}

function parseXml(text: string): ParsedSitemap {
  let root: string | null = null;
  let format: ParsedSitemap['format'] = 'xml';
  const locs: string[] = [];
  const stack: string[] = [];
  let textBuffer = '';
  let isCollecting = false;
  let isWellFormed = true;
  const parser = new Parser(
    {
      onopentag(name) {
        const tag = name.toLowerCase().replace(/^.*:/, '');
        if (root === null) root = tag;
        const parent = stack[stack.length - 1];
        stack.push(tag);
        isCollecting =
          (tag === 'loc' && (parent === 'url' || parent === 'sitemap')) || (tag === 'link' && parent === 'item');
        textBuffer = '';
      },
      ontext(data) {
        if (isCollecting) textBuffer += data;
      },
      onclosetag(name, isImplied) {
        const tag = name.toLowerCase().replace(/^.*:/, '');
        if (stack.pop() !== tag || isImplied) isWellFormed = false;
        if (isCollecting) {
          const loc = decodeEntities(textBuffer.trim());
          if (loc !== '') locs.push(loc);
          isCollecting = false;
        }
      },
    },
    { xmlMode: true, decodeEntities: false },
  );
  parser.write(text);
  parser.end();
  if (root === 'rss' || root === 'feed') format = 'rss';
  const type = root === 'sitemapindex' ? 'index' : 'urlset';
  let parseError: string | null = null;
  if (root !== 'urlset' && root !== 'sitemapindex' && root !== 'rss')
    parseError = `unexpected root element <${root ?? ''}>`;
  else if (!isWellFormed) parseError = 'malformed XML';
  return { type, format, locs, parseError };
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (entity, name: string) => {
    const lower = name.toLowerCase();
    if (lower === 'amp') return '&';
    if (lower === 'lt') return '<';
    if (lower === 'gt') return '>';
    if (lower === 'quot') return '"';
    if (lower === 'apos') return "'";
    const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
    return Number.isFinite(code) ? String.fromCodePoint(code) : entity;
  });
}
