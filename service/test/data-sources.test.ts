/**
 * The Data sources page's calls over real HTTP on loopback: a generated site's crawls loaded without their marketing
 * tables, vendor files of fixtures/sources uploaded as multipart by its staff, imported in the background by the
 * same code as npm run import-data; a bad file refused with its file, line and column and nothing imported; an
 * import removed again (the last one leaves the source not connected); clients and other websites' staff get 404.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Overview } from '../../catalog/api.ts';
import type { DataSourcesAnswer, DataSourceStatus, ImportJob } from '../../catalog/data-source-calls.ts';
import { NO_CRAWL_YET, UPLOADS_DIR } from '../routes/data-sources.ts';
import { importData } from '../sources/import-data.ts';
import { storeDir } from '../store/layout.ts';
import {
  TestClock,
  openSignedInApp,
  post,
  runAdmin,
  signIn,
  tempDir,
  type Session,
  type SignedInApp,
} from './auth-fixture.ts';
import { snapshotTree } from './helpers/tree-snapshot.ts';
import { BULK_CSV, PERFORMANCE_CSVS, SITE, loadSiteWithoutSources } from './helpers/source-fixtures.ts';

const WEBSITE_NOT_FOUND = { error: 'website could not be found.' };
const users = {
  staff: { email: 'staff@alpine.example', role: 'STAFF --website alpine-travel' },
  client: { email: 'client@alpine.example', role: 'CLIENT --website alpine-travel' },
  otherStaff: { email: 'staff@elsewhere.example', role: 'STAFF --website elsewhere' },
} as const;
type Who = keyof typeof users | 'admin';

let dataDir: string;
let signedIn: SignedInApp<'admin'>;
let base: string;
const sessions = {} as Record<Who, Session>;

beforeAll(async () => {
  dataDir = tempDir('thc-sources-data-');
  await loadSiteWithoutSources(tempDir('thc-sources-exports-'), dataDir);
  signedIn = await openSignedInApp(dataDir, '2026-11-20T09:00:00Z', ['admin'], (stack) =>
    runAdmin(stack, new TestClock(new Date('2026-11-20T09:00:00Z')), [
      'website add --id elsewhere --name Elsewhere --domain elsewhere.example',
      ...Object.values(users).map((u) => `user add --email ${u.email} --password secret-pass --role ${u.role}`),
    ]),
  );
  sessions.admin = signedIn.sessions.admin;
  for (const [who, user] of Object.entries(users))
    sessions[who as Who] = await signIn(signedIn.app, user.email, 'secret-pass');
  await signedIn.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(signedIn.app.server.address() as AddressInfo).port}`;
}, 300_000);

afterAll(() => signedIn?.close());

async function upload(
  who: Who,
  files: { name: string; file: string }[],
  websiteId = SITE,
  extra = '',
): Promise<Response> {
  const form = new FormData();
  for (const f of files) form.append('files', new Blob([fs.readFileSync(f.file)]), f.name);
  return fetch(`${base}/api/data-sources/upload?websiteId=${websiteId}&source=search-console${extra}`, {
    method: 'POST',
    headers: { cookie: sessions[who].cookie, 'x-csrf-token': sessions[who].csrfToken },
    body: form,
  });
}

const named = (files: string[]) => files.map((file) => ({ name: path.basename(file), file }));

async function list(who: Who = 'staff'): Promise<DataSourcesAnswer> {
  const response = await post(signedIn.app, '/api/data-sources/list', sessions[who], { websiteId: SITE });
  expect(response.statusCode).toBe(200);
  return response.json<DataSourcesAnswer>();
}

const searchConsole = (answer: DataSourcesAnswer): DataSourceStatus =>
  answer.sources.find((s) => s.id === 'search-console')!;

/** Polls the list, as the page does, until the job has ended. */
async function ended(jobId: string): Promise<ImportJob> {
  for (let i = 0; i < 600; i++) {
    const job = (await list()).jobs.find((j) => j.id === jobId);
    if (job && job.status !== 'running') return job;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`job ${jobId} did not end`);
}

async function notConnectedOf(reportId: string): Promise<string | undefined> {
  const response = await post(signedIn.app, '/api/technical-health-check/overview/get-overview', sessions.staff, {
    websiteId: SITE,
    currentId: 2,
    refresh: true,
  });
  const entries = Object.values(response.json<Overview>().severityMap).flatMap((s) => s?.reports ?? []);
  return entries.find((e) => e.reportId === reportId)?.notConnected;
}

describe('the Data sources calls', () => {
  it('list every source of a website not connected before any import', async () => {
    const answer = await list();
    expect(answer.dataWindowDays).toBe(28);
    expect(answer.jobs).toEqual([]);
    expect(answer.sources.map((s) => [s.id, s.isConnected, s.rows])).toEqual([
      ['search-console', false, 0],
      ['analytics', false, 0],
      ['google-ads', false, 0],
      ['microsoft-ads', false, 0],
      ['keyword-planner', false, 0],
      ['trends', false, 0],
    ]);
    expect(await notConnectedOf('search-console/all')).toBe('search-console');
  });

  it('refuse clients and other websites’ staff as a website that does not exist', async () => {
    for (const who of ['client', 'otherStaff'] as const) {
      const listed = await post(signedIn.app, '/api/data-sources/list', sessions[who], { websiteId: SITE });
      expect([who, listed.statusCode, listed.json()]).toEqual([who, 404, WEBSITE_NOT_FOUND]);
      const before = snapshotTree(storeDir(dataDir));
      const uploaded = await upload(who, named(PERFORMANCE_CSVS));
      expect([who, uploaded.status, await uploaded.json()]).toEqual([who, 404, WEBSITE_NOT_FOUND]);
      const removed = await post(signedIn.app, '/api/data-sources/remove-import', sessions[who], {
        websiteId: SITE,
        source: 'search-console',
        importId: 'x',
      });
      expect([who, removed.statusCode, removed.json()]).toEqual([who, 404, WEBSITE_NOT_FOUND]);
      expect(snapshotTree(storeDir(dataDir))).toEqual(before);
    }
  });

  it('answer a website without a crawl yet as not connected, and refuse an upload into it', async () => {
    const listed = await post(signedIn.app, '/api/data-sources/list', sessions.otherStaff, { websiteId: 'elsewhere' });
    expect(listed.statusCode).toBe(200);
    expect(listed.json<DataSourcesAnswer>().sources.every((s) => !s.isConnected && !s.isInExport)).toBe(true);
    const uploaded = await upload('otherStaff', named(PERFORMANCE_CSVS), 'elsewhere');
    expect([uploaded.status, await uploaded.json()]).toEqual([409, NO_CRAWL_YET]);
  });

  it('import uploaded files in the background, recording who did, and connect the source', async () => {
    const response = await upload('staff', named(PERFORMANCE_CSVS));
    expect(response.status).toBe(202);
    const { job } = (await response.json()) as { job: ImportJob };
    expect(job).toMatchObject({ kind: 'import', source: 'search-console', by: users.staff.email });
    expect(job.files).toEqual(['Pages.csv', 'Dates.csv', 'Filters.csv', 'Devices.csv']);
    const done = await ended(job.id);
    expect(done.status).toBe('done');
    expect(done.summary).toContain('5 rows of Search Console Performance report CSV');

    const source = searchConsole(await list());
    expect(source.isConnected).toBe(true);
    expect(source.imports.map((i) => [i.by, i.files, i.rows])).toEqual([
      [users.staff.email, ['Pages.csv', 'Dates.csv', 'Filters.csv', 'Devices.csv'], 5],
    ]);
    // One total over the period: shown as the period, not as a day.
    expect(source.days).toEqual([]);
    expect(source.periods).toEqual([{ start: '2026-11-01', end: '2026-11-14', rows: 5 }]);
    expect(source.match).toMatchObject({ crawlId: 2, matchedPages: 4, sourceUrls: 5, unmatchedUrls: 1 });
    expect(source.match?.unmatchedExamples).toEqual(['https://alpine-travel.eu/de/datenschutz']);
    expect(source.match!.crawledPages).toBeGreaterThan(100);
    expect(fs.readdirSync(path.join(dataDir, UPLOADS_DIR))).toEqual([]);
    expect(await notConnectedOf('search-console/all')).toBeUndefined();
  }, 120_000);

  it('refuse a bad file naming its file, line and column, and import nothing', async () => {
    const bad = path.join(tempDir('thc-bad-upload-'), 'searchdata_url_impression.csv');
    const lines = fs.readFileSync(BULK_CSV, 'utf8').split('\n');
    lines[2] = lines[2]!.replace(/,80,9,72$/, ',80,nine,72');
    fs.writeFileSync(bad, lines.join('\n'));
    const before = snapshotTree(storeDir(dataDir));
    const response = await upload('staff', [{ name: 'my export.csv', file: bad }]);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; kind: string };
    expect(body.kind).toBe('invalid-input');
    expect(body.error).toMatch(/^my export\.csv:3:\d+: /);
    expect(snapshotTree(storeDir(dataDir))).toEqual(before);
    expect(fs.readdirSync(path.join(dataDir, UPLOADS_DIR))).toEqual([]);
    const failed = (await list()).jobs[0]!;
    expect([failed.status, failed.summary]).toEqual(['failed', body.error]);
  }, 120_000);

  it('refuse a file of no known format, or of another source, at once: no job starts', async () => {
    const jobsBefore = (await list()).jobs.map((j) => j.id);
    const before = snapshotTree(storeDir(dataDir));
    const notes = path.join(tempDir('thc-unknown-upload-'), 'notes.csv');
    fs.writeFileSync(notes, 'hello,world\n1,2\n');
    const ga4 = path.resolve(import.meta.dirname, '../../fixtures/sources/analytics/ga4-pages-and-screens.csv');
    const refusals = [];
    for (const files of [[{ name: 'notes.csv', file: notes }], named([BULK_CSV, ga4])]) {
      const response = await upload('staff', files);
      refusals.push([response.status, ((await response.json()) as { error: string }).error]);
    }
    expect(refusals).toEqual([
      [400, expect.stringMatching(/^notes\.csv: not a format import-data reads for search-console \(/)],
      [400, expect.stringMatching(/^ga4-pages-and-screens\.csv: a .+ \(Analytics\), not a search-console file$/)],
    ]);
    expect((await list()).jobs.map((j) => j.id)).toEqual(jobsBefore);
    expect(snapshotTree(storeDir(dataDir))).toEqual(before);
    expect(fs.readdirSync(path.join(dataDir, UPLOADS_DIR))).toEqual([]);
  });

  it('refuse an upload without files and a bad query', async () => {
    const none = await upload('staff', []);
    expect(none.status).toBe(400);
    const badSource = await fetch(`${base}/api/data-sources/upload?websiteId=${SITE}&source=nowhere`, {
      method: 'POST',
      headers: { cookie: sessions.staff.cookie, 'x-csrf-token': sessions.staff.csrfToken },
      body: new FormData(),
    });
    expect(badSource.status).toBe(400);
    expect(((await badSource.json()) as { field: string }).field).toBe('source');
  });

  it('add daily rows, then remove that import again, and the last one leaves the source not connected', async () => {
    // Its days lie in the Performance report's period imported before: accepted only with replace.
    const response = await upload('admin', named([BULK_CSV]), SITE, '&replace=true');
    expect(response.status).toBe(202);
    expect((await ended(((await response.json()) as { job: ImportJob }).job.id)).status).toBe('done');
    const withBulk = searchConsole(await list());
    expect(withBulk.imports.map((i) => i.by)).toEqual(['admin@agency.example', users.staff.email]);
    expect(withBulk.days.map((d) => d.date)).toEqual(['2026-11-02', '2026-11-03']);
    expect(withBulk.days.every((d) => d.rows > 0)).toBe(true);
    // The period's totals (1-14 Nov) stand for the bulk export's days too: replaced whole, no longer drawn.
    expect(withBulk.periods).toEqual([]);

    const remove = async (importId: string) => {
      const started = await post(signedIn.app, '/api/data-sources/remove-import', sessions.staff, {
        websiteId: SITE,
        source: 'search-console',
        importId,
      });
      expect(started.statusCode).toBe(202);
      const job = await ended(started.json<{ job: ImportJob }>().job.id);
      expect(job.status).toBe('done');
      return job;
    };
    await remove(withBulk.imports[0]!.id!);
    const withoutBulk = searchConsole(await list());
    expect(withoutBulk.days).toEqual([]);
    // The rows the bulk export replaced do not come back.
    expect(withoutBulk.rows).toBe(0);
    expect(withoutBulk.imports.map((i) => i.id)).toEqual([withBulk.imports[1]!.id]);

    const unknown = await post(signedIn.app, '/api/data-sources/remove-import', sessions.staff, {
      websiteId: SITE,
      source: 'search-console',
      importId: 'no-such-import',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ error: string }>().error).toBe('Search Console has no import "no-such-import"');

    await remove(withoutBulk.imports[0]!.id!);
    expect(searchConsole(await list()).isConnected).toBe(false);
    expect(await notConnectedOf('search-console/all')).toBe('search-console');
  }, 240_000);

  it('count each URL of a source once, however many of its rows name it', async () => {
    const runReport = path.resolve(import.meta.dirname, '../../fixtures/sources/analytics/ga4-run-report.json');
    const imported = await importData({ dataDir, websiteId: SITE, source: 'analytics', files: [runReport] });
    expect(imported.urls).toMatchObject({ matched: 2, unmatched: 0 });
    // Its table names each page on several rows (days, channels); the status counts the pages.
    const analytics = (await list()).sources.find((s) => s.id === 'analytics')!;
    expect(analytics.match).toMatchObject({ matchedPages: 2, sourceUrls: 2, unmatchedUrls: 0 });
  }, 120_000);
});
