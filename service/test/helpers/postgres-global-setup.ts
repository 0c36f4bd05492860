/** vitest globalSetup of the `postgres` project: one PostgreSQL server for the run, its URL provided to tests. */
import type { TestProject } from 'vitest/node';
import { startPostgres } from '../../../scripts/support/postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const server = await startPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
