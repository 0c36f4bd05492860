/**
 * Browser tests of the dashboard (web/e2e) in Debian's chromium against the real service with the demo data.
 * `npm run test:e2e` (scripts/run-e2e.ts) sets E2E_PORT, E2E_DATA_DIR (a copy of the prepared demo data) and
 * E2E_OUTPUT_DIR for each chunk of spec files it runs, and builds web/dist first.
 */
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './service/crawl/render-browser.ts';

const port = Number(process.env.E2E_PORT ?? 3111);
const dataDir = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), 'thc-e2e-data');
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'web/e2e',
  globalSetup: './web/e2e/global-setup.ts',
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  // Chunks run two at a time, or beside vitest (scripts/support/e2e-groups.ts): a test's limits allow for a neighbour's load.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL,
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    command: 'node --import tsx service/main.ts',
    url: `${baseURL}/api/health`,
    // The Crawls page's tests crawl sites on 127.0.0.1, which the egress policy refuses unless allowed.
    env: {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      CRAWL_ALLOW: '127.0.0.1/32',
      CRAWL_DNS_SERVERS: '127.0.0.1:1',
    },
    // It generates and loads the demo crawls first: minutes when the machine is busy.
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
