/** A small website on 127.0.0.1 for the crawl tests: pages in a tree, each answered after `delayMs`. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackSite {
  url: string;
  /** Requests answered so far, robots.txt and sitemaps included. */
  requests: () => number;
  close: () => Promise<void>;
}

/** Pages /, /page/1 … /page/{pages-1}; page n links to pages 3n+1 … 3n+3, so every page is reachable. */
export async function startLoopbackSite(options: { pages: number; delayMs?: number }): Promise<LoopbackSite> {
  let requests = 0;
  const pathOf = (n: number) => (n === 0 ? '/' : `/page/${n}`);
  const server = http.createServer((request, response) => {
    requests++;
    const match = /^\/(?:page\/(\d+))?$/.exec(request.url ?? '');
    const n = match ? Number(match[1] ?? 0) : -1;
    const answer = () => {
      if (n < 0 || n >= options.pages) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
        return;
      }
      const links = [1, 2, 3]
        .map((k) => 3 * n + k)
        .filter((child) => child < options.pages)
        .map((child) => `<li><a href="${pathOf(child)}">Page ${child}</a></li>`)
        .join('');
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html lang="en"><head><title>Loopback page ${n} of the crawl test site</title>` +
            `<meta name="description" content="Page ${n} of a small site the dashboard crawl tests serve on loopback.">` +
            `</head><body><h1>Page ${n}</h1><p>Some words about page ${n}.</p><ul>${links}</ul></body></html>`,
        );
    };
    if (options.delayMs) setTimeout(answer, options.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
