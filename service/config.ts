import path from 'node:path';

export interface Config {
  dataDir: string;
  port: number;
  host: string;
  isDemo: boolean;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${env.PORT}`);
  return {
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    port,
    host: env.HOST ?? '0.0.0.0',
    isDemo: env.DEMO !== '0',
  };
}

/** How often the service rescans the store for loads no announcement told it of (STORE_POLL_SECONDS, default 2). */
export function readStorePollMs(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.STORE_POLL_SECONDS ?? 2);
  if (!(seconds > 0)) throw new Error(`STORE_POLL_SECONDS must be a positive number, got ${env.STORE_POLL_SECONDS}`);
  return seconds * 1000;
}

/** Crawl runs this process runs at once (CRAWL_WORKERS, default 1); the rest wait in the queue. */
export function readCrawlWorkers(env: NodeJS.ProcessEnv = process.env): number {
  const workers = Number(env.CRAWL_WORKERS ?? 1);
  if (!Number.isInteger(workers) || workers < 1 || workers > 64)
    throw new Error(`CRAWL_WORKERS must be a whole number from 1 to 64, got ${env.CRAWL_WORKERS}`);
  return workers;
}

/**
 * How long a crawl run's worker may be silent (no message at all, heartbeats included) past the run's time limit
 * before the runner ends it (CRAWL_SILENCE_SECONDS, default 60; a testing aid, like CLOCK_START).
 */
export function readCrawlSilenceMs(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.CRAWL_SILENCE_SECONDS ?? 60);
  if (!(seconds > 0))
    throw new Error(`CRAWL_SILENCE_SECONDS must be a positive number, got ${env.CRAWL_SILENCE_SECONDS}`);
  return seconds * 1000;
}

/**
 * The service's clock: the real one, or with CLOCK_START (an ISO date-time; a testing aid) one that starts at that
 * instant and runs at normal speed from there, so a test can bring a scheduled time near.
 */
export function readClock(env: NodeJS.ProcessEnv = process.env): { clock: () => Date; start?: Date } {
  const text = env.CLOCK_START?.trim();
  if (!text) return { clock: () => new Date() };
  const start = new Date(text);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(start.getTime()))
    throw new Error(`CLOCK_START must be an ISO date-time such as 2026-03-30T05:59:00Z, got ${env.CLOCK_START}`);
  const offset = start.getTime() - Date.now();
  return { clock: () => new Date(Date.now() + offset), start };
}
