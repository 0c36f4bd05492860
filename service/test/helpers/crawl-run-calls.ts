/** The crawl-runs calls a test makes as one signed-in user: save settings and start, read a run, wait for a state. */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { defaultCrawlSettings, type CrawlRun, type CrawlRunsAnswer } from '../../../catalog/crawl-runs.ts';
import { isPidAlive } from '../../pid-lock.ts';
import { post, type Session } from '../auth-fixture.ts';

export interface CrawlRunCalls {
  /** Saves the website's settings (one request at a time, no schedule, `patch` over them) and starts a run. */
  start: (websiteId: string, startUrl: string, patch?: object) => Promise<CrawlRun>;
  /** The run as the list has it, and the service's `now` (epoch ms). */
  listed: (websiteId: string, id: number) => Promise<{ run: CrawlRun; now: number }>;
  /** Reads the run every 100 ms until `until` holds; throws with the run after `seconds`. */
  waitFor: (websiteId: string, id: number, until: (run: CrawlRun) => boolean, seconds?: number) => Promise<CrawlRun>;
  cancel: (websiteId: string, runId: number, keepCrawled: boolean) => ReturnType<typeof post>;
}

export const isEnded = (run: CrawlRun): boolean => !['queued', 'running', 'loading'].includes(run.status);

export function crawlRunCalls(app: () => FastifyInstance, session: () => Session): CrawlRunCalls {
  const call = (url: string, payload: object) => post(app(), url, session(), payload);
  const listed = async (websiteId: string, id: number) => {
    const answer = (await call('/api/crawl-runs/list', { websiteId })).json<CrawlRunsAnswer>();
    return { run: answer.runs.find((r) => r.id === id)!, now: Date.parse(answer.now) };
  };
  return {
    async start(websiteId, startUrl, patch = {}) {
      const settings = { ...defaultCrawlSettings('x.example'), startUrl, concurrency: 1, schedule: null, ...patch };
      expect((await call('/api/crawl-runs/save-settings', { websiteId, settings })).statusCode).toBe(200);
      const started = await call('/api/crawl-runs/start', { websiteId });
      expect(started.statusCode).toBe(200);
      return started.json<{ run: CrawlRun }>().run;
    },
    listed,
    async waitFor(websiteId, id, until, seconds = 60) {
      const deadline = Date.now() + seconds * 1000;
      for (;;) {
        const { run } = await listed(websiteId, id);
        if (until(run)) return run;
        if (Date.now() > deadline)
          throw new Error(`run ${id} not as awaited within ${seconds} s: ${JSON.stringify(run)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    cancel: (websiteId, runId, keepCrawled) => call('/api/crawl-runs/cancel', { websiteId, runId, keepCrawled }),
  };
}

/** Freezes a worker for real (SIGSTOP): it neither reads messages nor exits until killed. `frozen` keeps its pid. */
export function freeze(pid: number | undefined, frozen: number[]): number {
  expect(pid).toBeGreaterThan(0);
  process.kill(pid!, 'SIGSTOP');
  frozen.push(pid!);
  return pid!;
}

export async function waitUntilDead(pid: number): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (isPidAlive(pid) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}
