/**
 * Test helper: the client-rendered sites of the rendered crawl's tests, bundled from their React sources with esbuild
 * when a test starts and served on 127.0.0.1. Every path of the history site answers with the same shell (a
 * single-page app's fallback); the hash site is one page.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { bundleApp } from '../../../../scripts/support/bundle-app.ts';

export type JsSiteKind = 'history' | 'hash';

const bundle = (kind: JsSiteKind): Promise<string> => bundleApp(path.join(import.meta.dirname, `${kind}-app.tsx`));

const shell = (title: string, extra = ''): string => `<!doctype html><html><head><meta charset="utf-8">
<title>${title}</title><meta name="description" content="Loading the app"></head>
<body><div id="root"></div>${extra}<script src="/app.js"></script></body></html>`;

/** Links in the raw HTML, outside the app: /legal is noindex, so its script is never run. */
const HISTORY_FOOTER = '<footer><a href="/legal">Legal</a></footer>';
const LEGAL = `<!doctype html><html><head><title>Legal</title><meta name="robots" content="noindex"></head>
<body><h1>Legal</h1><script>document.body.append(Object.assign(document.createElement('a'),
{ href: '/legal-secret', textContent: 'secret' }));</script></body></html>`;

function historyRoute(url: string): { type: string; body: string } | null {
  if (url === '/robots.txt') return { type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' };
  if (url === '/private/stock.json') return { type: 'application/json', body: '{"note":"in stock"}' };
  if (url.startsWith('/api/')) return { type: 'application/json', body: '{"ok":true}' };
  if (url === '/legal') return { type: 'text/html', body: LEGAL };
  return null;
}

function answer(kind: JsSiteKind, url: string, script: string): { type: string; body: string } | null {
  if (url === '/app.js') return { type: 'text/javascript', body: script };
  if (url.startsWith('/img/')) return { type: 'image/png', body: 'not really a png' };
  if (kind === 'hash') return url === '/' ? { type: 'text/html', body: shell('Docs') } : null;
  return historyRoute(url) ?? { type: 'text/html', body: shell('JS Shop', HISTORY_FOOTER) };
}

export interface JsSite {
  server: http.Server;
  origin: string;
  /** The paths the browser asked for as images (`Sec-Fetch-Dest: image`), which a crawl without assets never does. */
  imageRequests: string[];
}

export async function serveJsSite(kind: JsSiteKind): Promise<JsSite> {
  const script = await bundle(kind);
  const imageRequests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (req.headers['sec-fetch-dest'] === 'image') imageRequests.push(url);
    // The products' reviews are missing: a failed subrequest of a rendered page.
    const served = url.startsWith('/reviews/') ? null : answer(kind, url, script);
    // The live page's long poll: an answer a second later, so a request is always in flight.
    if (url === '/api/stock') {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 1000);
      return;
    }
    res.writeHead(served ? 200 : 404, { 'content-type': served?.type ?? 'text/plain' });
    const body = served?.body ?? 'not found';
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, imageRequests };
}
