import { describe, expect, it } from 'vitest';
import { exitReason, failureReason, isReadable } from './failure-reason.ts';

describe('failureReason', () => {
  it("keeps the crawler's or the loader's own sentence, first line only", () => {
    expect(failureReason(new Error('start URL http://127.0.0.1:9/ is unreachable (connect ECONNREFUSED)'))).toBe(
      'start URL http://127.0.0.1:9/ is unreachable (connect ECONNREFUSED)',
    );
    expect(failureReason(new Error('Binder Error: column x not found\nLINE 1: SELECT x\n       ^'))).toBe(
      'Binder Error: column x not found',
    );
    expect(failureReason(new Error('TypeError: fetch failed'))).toBe('fetch failed');
  });

  it('words what is not a sentence as "The crawl failed: …"', () => {
    const noMessage = failureReason(new TypeError(''));
    expect(noMessage).toBe('The crawl failed: an unexpected TypeError with no readable message');
    const bracket = Object.assign(new Error('['), { code: 'ERR_X' });
    expect(failureReason(bracket)).toBe('The crawl failed: an unexpected Error (ERR_X) with no readable message');
    expect(failureReason(new Error('    at Crawler.run (file:///srv/crawl.ts:10:5)'))).toBe(
      'The crawl failed: an unexpected Error with no readable message',
    );
    expect(failureReason(new Error('ECONNRESET'))).toBe('The crawl failed: ECONNRESET');
    expect(failureReason({ reason: 'x' })).toBe('The crawl failed: an unexpected object was thrown');
    expect(failureReason(undefined)).toBe('The crawl failed: an unexpected undefined was thrown');
    expect(failureReason(null)).toBe('The crawl failed: an unexpected null was thrown');
    expect(failureReason('{')).toBe('The crawl failed: an unexpected string was thrown');
  });

  it('is always one readable line', () => {
    for (const error of [new Error(''), new Error('['), new Error('\n\n]'), new Error('}'), 42, Symbol('s')]) {
      const reason = failureReason(error);
      expect(reason).toMatch(/^The crawl failed: \S/);
      expect(reason).not.toContain('\n');
      expect(isReadable(reason)).toBe(true);
    }
  });
});

describe('exitReason', () => {
  it("takes the message of Node's report of an uncaught error, not its last line", () => {
    const stderr = [
      'file:///srv/service/crawl-runs/worker.ts:12',
      "    throw new RangeError('Invalid array length');",
      '    ^',
      '',
      'RangeError: Invalid array length',
      '    at run (file:///srv/service/crawl-runs/worker.ts:12:11)',
      '',
      'Node.js v22.12.0',
    ].join('\n');
    expect(exitReason(1, stderr)).toBe(
      'The crawl failed: Invalid array length (the crawl worker stopped unexpectedly with exit code 1)',
    );
  });

  it('says how the worker ended when stderr holds nothing readable', () => {
    expect(exitReason('SIGKILL', '[\n')).toBe(
      'The crawl failed: the crawl worker was killed (SIGKILL), perhaps for lack of memory',
    );
    expect(exitReason('SIGSEGV', '')).toBe('The crawl failed: the crawl worker was stopped (SIGSEGV)');
    expect(exitReason(134, '}\n  at x (y.ts:1:1)\n')).toBe(
      'The crawl failed: the crawl worker stopped unexpectedly with exit code 134',
    );
  });
});
