/**
 * A small website served by node:http on 127.0.0.1, for crawl runs: `/` and `/p/1` … `/p/N`, each page linking to the
 * next two, every answer after `delayMs` (a slow site keeps a crawl running long enough to watch and cancel it).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChainSite {
  /** The home page, ending in a slash. */
  url: string;
  /** Pages served so far (robots.txt and sitemaps not counted). */
  served: number;
  stop(): Promise<void>;
}

export async function startChainSite({ pages, delayMs }: { pages: number; delayMs: number }): Promise<ChainSite> {
  const page = (n: number): string => {
    const links = [n + 1, n + 2]
      .filter((next) => next <= pages)
      .map((next) => `<a href="/p/${next}">Page ${next}</a>`)
      .join(' ');
    return `<!doctype html><html lang="en"><head><title>Chain page ${n} of ${pages}</title></head><body><h1>Page ${n}</h1><p>${links}</p></body></html>`;
  };
  const site: ChainSite = { url: '', served: 0, stop: () => Promise.resolve() };
  const server = http.createServer((request, response) => {
    const match = /^\/(?:p\/(\d+))?$/.exec(request.url ?? '');
    const n = match ? Number(match[1] ?? 0) : -1;
    setTimeout(() => {
      if (n < 0 || n > pages) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      site.served++;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(n));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  site.url = `http://127.0.0.1:${port}/`;
  site.stop = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return site;
}
