import { configDefaults, defineConfig } from 'vitest/config';
import DurationSequencer from './service/test/helpers/duration-sequencer.ts';

/** The route suite: run once more with the app state on a real PostgreSQL server (the `postgres` project). */
const routeSuite = [
  'service/test/admin-users.test.ts',
  'service/test/admin-websites.test.ts',
  'service/test/ai.test.ts',
  'service/test/app-auth-required.test.ts',
  'service/test/app-db-duckdb-import.test.ts',
  'service/test/approval-race.test.ts',
  'service/test/auth-admin-cli.test.ts',
  'service/test/auth-app-db.test.ts',
  'service/test/auth-approval.test.ts',
  'service/test/auth-checklist.test.ts',
  'service/test/auth-http.test.ts',
  'service/test/auth-login-limits.test.ts',
  'service/test/auth-matrix.test.ts',
  'service/test/crawl-runs-routes.test.ts',
  'service/test/crawl-runs.test.ts',
  'service/test/crawl-runs-schedule.test.ts',
  'service/test/export-csv.test.ts',
  'service/test/query-report.test.ts',
  'service/test/nul-bytes.test.ts',
  'service/test/security-headers.test.ts',
  'service/test/store-robustness.test.ts',
];

/**
 * The unit tests beside the code share one process per shard (isolate: false): a process and its imports for each of
 * these ~100 files took half a second or more apiece: all of them ran in 137 s isolated, 84 s shared (27 Nov, load
 * 5). The integration tests (service/test/, scripts/, fixtures/) and the unit tests that start Chromium keep a process
 * each.
 */
const ownProcess = [
  'service/test/**/*.test.ts',
  'service/crawl/render/**/*.test.ts',
  'service/crawl/render.test.ts',
  'service/crawl/crawl.test.ts',
  'service/crawl/crawl-records.test.ts',
  // The loader's own tests stub the precompute (vi.mock): shared, the stub would reach the other files' imports.
  'service/load/load-crawl.test.ts',
  'scripts/**/*.test.ts',
  'fixtures/**/*.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    reporters: ['default', './service/test/helpers/slowest-files-reporter.ts'],
    // --shard splits the files by their measured time (helpers/test-durations.json), not by a hash of their path.
    sequence: { sequencer: DurationSequencer },
    // Every test site is on 127.0.0.1, which the egress policy refuses unless allowed; no test asks a real DNS server
    // (a closed loopback port answers at once). Tests of the policy itself pass their own.
    env: { CRAWL_ALLOW: '127.0.0.1/32', CRAWL_DNS_SERVERS: '127.0.0.1:1' },
    projects: [
      {
        extends: true,
        test: {
          name: 'default',
          include: ownProcess,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['catalog/**/*.test.ts', 'service/**/*.test.ts', 'bench/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, ...ownProcess],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: routeSuite,
          globalSetup: ['service/test/helpers/postgres-global-setup.ts'],
        },
      },
    ],
  },
});
