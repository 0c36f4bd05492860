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
