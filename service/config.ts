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
