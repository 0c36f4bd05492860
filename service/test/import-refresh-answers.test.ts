/**
 * Issue 26 §1: while an import's background refresh replaces the crawls' loads, the dashboard keeps answering, each
 * answer wholly from the old state or wholly from the new, never a mix. A generated site's two crawls hold a
 * Performance report import (the old state); the bulk export is uploaded over real HTTP (with replace: its days lie
 * in the report's period) and its job refreshes both crawls in a child process, while the overview (with its
 * comparison), a Search Console report's summary and its rows are asked again and again, with the store re-read
 * between them as the service's poll does.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSourcesAnswer, ImportJob } from '../../catalog/data-source-calls.ts';
import { openSignedInApp, post, tempDir, type SignedInApp } from './auth-fixture.ts';
import { runImportData } from './helpers/import-cli.ts';
import { BULK_CSV, PERFORMANCE_CSVS, SITE, loadSiteWithoutSources } from './helpers/source-fixtures.ts';

const API = '/api/technical-health-check';
const REPORT = 'search-console/all';

let dataDir: string;
let signedIn: SignedInApp<'admin'>;
let base: string;

beforeAll(async () => {
  dataDir = tempDir('thc-refresh-answers-data-');
  await loadSiteWithoutSources(tempDir('thc-refresh-answers-exports-'), dataDir);
  const run = runImportData(dataDir, SITE, ['--source', 'search-console', ...PERFORMANCE_CSVS]);
  expect([run.status, run.stderr]).toEqual([0, '']);
  signedIn = await openSignedInApp(dataDir, '2026-11-20T09:00:00Z', ['admin']);
  await signedIn.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(signedIn.app.server.address() as AddressInfo).port}`;
}, 300_000);

afterAll(() => signedIn?.close());

interface Answers {
  overview: string;
  summary: string;
  rows: string;
}

async function call(url: string, body: object): Promise<string> {
  const response = await post(signedIn.app, url, signedIn.sessions.admin, body);
  return `${response.statusCode} ${response.body}`;
}

const reportCall = { websiteId: SITE, currentId: 2, comparisonId: 1, reportId: REPORT };

/** The three answers, asked at once as the dashboard's page asks them. */
async function answers(): Promise<Answers> {
  const [overview, summary, rows] = await Promise.all([
    call(`${API}/overview/get-overview`, { websiteId: SITE, currentId: 2, comparisonId: 1 }),
    call(`${API}/report/get-summary`, { ...reportCall, trendCrawlIds: [2, 1] }),
    call(`${API}/report/get-rows`, { ...reportCall, orderBy: [{ id: 'url', desc: false }] }),
  ]);
  return { overview, summary, rows };
}

async function upload(file: string): Promise<ImportJob> {
  const form = new FormData();
  form.append('files', new Blob([fs.readFileSync(file)]), path.basename(file));
  const { cookie, csrfToken } = signedIn.sessions.admin;
  const response = await fetch(`${base}/api/data-sources/upload?websiteId=${SITE}&source=search-console&replace=true`, {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': csrfToken },
    body: form,
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { job: ImportJob }).job;
}

async function jobOf(id: string): Promise<ImportJob | undefined> {
  const response = await post(signedIn.app, '/api/data-sources/list', signedIn.sessions.admin, { websiteId: SITE });
  return response.json<DataSourcesAnswer>().jobs.find((j) => j.id === id);
}

describe('answers during an import’s background refresh', () => {
  it('are each wholly the old state or the new one, and the new one once the refresh is done', async () => {
    await signedIn.stack.registry.refresh();
    const old = await answers();
    expect(old.overview).toMatch(/^200 /);
    expect(old.rows).toMatch(/^200 /);

    const job = await upload(BULK_CSV);
    const during: Answers[] = [];
    for (;;) {
      await signedIn.stack.registry.refresh();
      during.push(await answers());
      if ((await jobOf(job.id))?.status !== 'running') break;
    }
    expect((await jobOf(job.id))?.status).toBe('done');
    await signedIn.stack.registry.refresh();
    const neu = await answers();

    for (const part of ['overview', 'summary', 'rows'] as const) expect(neu[part], part).not.toBe(old[part]);
    const stateOf = (a: Answers): string => {
      if (a.overview === old.overview && a.summary === old.summary && a.rows === old.rows) return 'old';
      if (a.overview === neu.overview && a.summary === neu.summary && a.rows === neu.rows) return 'new';
      const part = (p: keyof Answers): string =>
        a[p] === old[p] ? 'old' : a[p] === neu[p] ? 'new' : a[p].slice(0, 300);
      return `a mix: overview ${part('overview')}, summary ${part('summary')}, rows ${part('rows')}`;
    };
    const seen = during.map(stateOf);
    expect(seen.filter((s) => s !== 'old' && s !== 'new')).toEqual([]);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toBe('new');
  }, 300_000);
});
