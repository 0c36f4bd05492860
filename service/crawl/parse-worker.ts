/** A parse-pool.ts worker: parses each page it is sent with parse-html.ts and sends the ParsedPage back. */
import { parentPort } from 'node:worker_threads';
import { decodeHtml } from './charset.ts';
import { parseHtml } from './parse-html.ts';
import type { ParseRequest } from './parse-pool.ts';

parentPort?.on('message', (request: ParseRequest) => {
  try {
    const body = Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength);
    parentPort?.postMessage({ id: request.id, page: parseHtml(decodeHtml(body, request.charset), request.url) });
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: (error as Error).message });
  }
});
parentPort?.postMessage({ ready: true });
