import { afterEach, describe, expect, it } from 'vitest';
import { ParsePool } from './parse-pool.ts';

const page = (title: string, body = ''): Buffer =>
  Buffer.from(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`);
/** A million nested SVG elements: htmlparser2 shifts an array of them on each one, for many minutes. */
const endlessParse = page('Slow', '<svg>'.repeat(1_000_000));
const url = 'http://127.0.0.1/';

describe('ParsePool', () => {
  let pool: ParsePool | undefined;
  afterEach(() => pool?.close());

  it('fails a page whose parse outlasts the time limit with the reason, and parses every other page', async () => {
    // One worker: the pages sent after the slow one wait behind it on the worker that is ended.
    pool = new ParsePool(1, 2000);
    const started = performance.now();
    const slow = pool.parse(endlessParse, null, `${url}slow`).then(
      () => 'parsed',
      (error: Error) => error.message,
    );
    const behind = [1, 2, 3].map((n) => pool!.parse(page(`Page ${n}`), null, `${url}${n}`));
    expect(await slow).toBe('parsing took longer than 2 s');
    expect(performance.now() - started).toBeLessThan(60_000);
    expect((await Promise.all(behind)).map((parsed) => parsed.title)).toEqual(['Page 1', 'Page 2', 'Page 3']);
    // Its replacement takes the next pages.
    expect((await pool.parse(page('Later'), null, `${url}later`)).title).toBe('Later');
  });

  it('times a page from when its worker is ready, so a slow start is not the page’s time', async () => {
    pool = new ParsePool(1, 300);
    expect((await pool.parse(page('First'), null, url)).title).toBe('First');
  });
});
