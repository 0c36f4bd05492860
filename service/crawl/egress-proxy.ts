/**
 * The renderer's way out: an HTTP proxy on 127.0.0.1 that Chromium sends every request through (CONNECT tunnels for
 * https and WebSockets, absolute-form requests for http), connecting only to addresses the egress policy checked.
 * Chromium itself then never resolves or connects to a page's hosts, so its page loads, subresources, workers and
 * beacons all meet the same policy as the crawler's own requests; a refused one gets 403 with the reason.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Egress } from './egress.ts';

export interface EgressProxy {
  /** `http://127.0.0.1:PORT`, for Chromium's --proxy-server. */
  url: string;
  close(): Promise<void>;
}

/** Headers that belong to one hop (RFC 9110 §7.6.1), and the proxy's own. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'upgrade',
]);

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_HEADERS.has(name)));
}

const refusal = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export async function startEgressProxy(egress: Egress): Promise<EgressProxy> {
  const agent = new http.Agent({ keepAlive: true });
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new Error('not http');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('absolute http URLs only');
      return;
    }
    egress.address(target.hostname).then(
      ({ address }) => {
        const upstream = http.request(
          {
            agent,
            host: address,
            port: target.port || 80,
            method: req.method,
            path: `${target.pathname}${target.search}`,
            headers: { ...endToEnd(req.headers), host: target.host },
          },
          (response) => {
            res.writeHead(response.statusCode ?? 502, endToEnd(response.headers));
            response.pipe(res);
          },
        );
        upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
        req.pipe(upstream);
      },
      (error: unknown) => res.writeHead(403, { 'content-type': 'text/plain' }).end(refusal(error)),
    );
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '');
    if (!match) return void client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    egress.address(match[1] as string).then(
      ({ address }) => {
        const upstream = net.connect({ host: address, port: Number(match[2]) }, () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length > 0) upstream.write(head);
          upstream.pipe(client).pipe(upstream);
        });
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
      },
      (error: unknown) =>
        client.end(
          `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\n${refusal(error).replace(/\r|\n/g, ' ')}`,
        ),
    );
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
