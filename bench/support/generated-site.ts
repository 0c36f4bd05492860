/** The crawl section's generated site, served by the benchmark itself on 127.0.0.1. */
import http from 'node:http';
import { freePort } from '../../scripts/support/free-port.ts';
import { pageHref as href, treeLinks } from './site-tree.ts';

/** A deterministic site of `pages` pages linked as site-tree.ts says; every 500th page links to a missing page (404). */
function generatedPage(i: number, pages: number): string {
  const anchors = treeLinks(i, pages).map((n) => `<li><a href="${href(n)}">Page ${n}</a></li>`);
  if (i % 500 === 0) anchors.push(`<li><a href="/page/missing-${i}.html">Gone ${i}</a></li>`);
  const words = `Page ${i} of the generated benchmark site describes item ${i} in plain words for the crawler to count.`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Generated page ${i}</title>` +
    `<meta name="description" content="Description of generated page ${i}."><link rel="canonical" href="${href(i)}">` +
    `</head><body><h1>Generated page ${i}</h1><h2>Links</h2><ul>${anchors.join('')}</ul>` +
    `<p>${words.repeat(8)}</p><img src="/logo.png" alt="logo"></body></html>`
  );
}

export async function serveGenerated(pages: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const pathname = (request.url ?? '/').split('?')[0] ?? '/';
    const match = /^\/page\/(\d+)\.html$/.exec(pathname);
    const i = pathname === '/' ? 0 : match ? Number(match[1]) : NaN;
    if (pathname === '/logo.png') {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': 68 }).end(Buffer.alloc(68));
    } else if (Number.isInteger(i) && i >= 0 && i < pages) {
      const body = Buffer.from(generatedPage(i, pages));
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
      response.end(request.method === 'HEAD' ? undefined : body);
    } else {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
    }
  });
  server.keepAliveTimeout = 60_000;
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
