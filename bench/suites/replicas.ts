/**
 * The replicas section (`--only replicas`): the app state on the embedded default against a real PostgreSQL server,
 * one analyst's calls sent to both in turn; then eight analysts against one replica and against two.
 */
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { catalog } from '../../catalog/index.ts';
import { freePort } from '../../scripts/support/free-port.ts';
import { databaseFor, startPostgres } from '../../scripts/support/postgres-server.ts';
import { Client, timedPost, type Timing } from '../support/client.ts';
import { CRAWLS, dataDir, readResults, RUNS, SITE, THINK_MS, URLS, writeResults } from '../support/config.ts';
import { startService, stopService } from '../support/service.ts';
import { httpCasesOf, openSession, type HttpCase, type Session } from '../support/session.ts';
import { paired, pairedHttpCases, type PairedResult } from '../support/paired.ts';
import { geometricMean, ratios, round, type Comparison, type Stats } from '../support/stats.ts';
import { prepareSection, run } from '../support/store.ts';
import { PAIRED_ROUNDS, PAIRED_THINK_MS, PAIRED_WARM_UP_ROUNDS, type PairedCase } from '../support/timing.ts';
import { workload, type LoadCase } from '../support/workload.ts';

/**
 * The calls that write app state: a sign-in, a checklist save (two new items each time) and an approval of the
 * current crawl (idempotent after the first: a read and a no-op), one per backend's session.
 */
function pairedAppStateCalls(sessions: readonly Session[]): PairedCase[] {
  // Rows of reports of severity NONE cannot be checked.
  const checkable = catalog.reports.find((r) => r.tableId === 'urls' && r.severity !== 'NONE');
  if (!checkable) throw new Error('no report whose rows can be checked');
  let saved = 0;
  const login = (client: Client) => async (): Promise<Timing> => {
    const started = performance.now();
    await new Client(client.base).login();
    return { ms: performance.now() - started, serverMs: NaN };
  };
  const save = (client: Client, crawlId: number) => (): Promise<Timing> => {
    const urls = [0, 1].map((n) => `https://${SITE}.example/bench-${process.pid}-${saved}-${n}`);
    saved++;
    return timedPost(client, '/api/technical-health-check/checklist/save', {
      websiteId: SITE,
      setChecked: urls.map((url) => ({ url, subKeys: [] })),
      setUnchecked: [],
      start: crawlId,
      submodule: checkable.id,
      module: 'technical-health-check',
      end: null,
      differenceType: 'all',
    })();
  };
  return [
    { name: 'login', on: sessions.map((s) => login(s.client)) },
    { name: 'checklist save', on: sessions.map((s) => save(s.client, s.current.crawlId)) },
    {
      name: 'approve',
      on: sessions.map((s) =>
        timedPost(s.client, '/api/technical-health-check/crawl/approve', {
          websiteId: SITE,
          moduleId: `${SITE}:${s.current.crawlId}`,
        }),
      ),
    },
  ];
}

/**
 * How far over the embedded default a case may be for one analyst on PostgreSQL: a network round trip per app-state
 * read may cost something, but not so much that an analyst would notice.
 */
const SINGLE_ANALYST_LIMIT = 1.2;

type Workload = Awaited<ReturnType<typeof workload>>;

/** Eight analysts with pauses and eight clients without, sent round robin to `clients`' replicas. */
const eight = async (clients: Client[], httpCases: HttpCase[]) => ({
  replicas: clients.length,
  analysts: await workload(clients, httpCases, 8, 2 * httpCases.length, THINK_MS),
  withoutPauses: await workload(clients, httpCases, 8, httpCases.length, [0, 0]),
});

type Eight = Awaited<ReturnType<typeof eight>>;

/** The section's figures as they go to `replicas` in bench/results.json. */
function replicasResult(
  httpCases: HttpCase[],
  singleAnalyst: { perCase: PairedResult[]; all: Comparison },
  appState: { perCase: PairedResult[] },
  oneReplica: Eight,
  twoReplicas: Eight,
  context: { loadAverageBefore: number[]; started: number },
) {
  const p95Of = (w: { perCase: LoadCase[] }, name: string): number | undefined =>
    w.perCase.find((c) => c.name === name)?.client.p95;
  const eightAnalysts = httpCases.map(([name]) => ({
    name,
    oneReplicaP95: p95Of(oneReplica.analysts, name),
    twoReplicasP95: p95Of(twoReplicas.analysts, name),
    withoutPausesOneReplicaP95: p95Of(oneReplica.withoutPauses, name),
    withoutPausesTwoReplicasP95: p95Of(twoReplicas.withoutPauses, name),
  }));
  const summary = (w: Workload) => ({
    requests: w.requests,
    errors: w.errors,
    requestsPerSecond: w.requestsPerSecond,
    p95: w.all.p95,
  });
  const byBackend = ({ name, client, server, ...ratios }: PairedResult): BackendComparison => ({
    name,
    embedded: { client: client[0]!, server: server[0]! },
    postgres: { client: client[1]!, server: server[1]! },
    ...ratios,
  });
  const slower = singleAnalyst.perCase.filter(
    (c) => Math.max(c.p50RatioInterval[0], c.p95RatioInterval[0]) > SINGLE_ANALYST_LIMIT,
  );
  return {
    urls: URLS,
    crawls: CRAWLS,
    runs: RUNS,
    at: new Date().toISOString(),
    cores: os.cpus().length,
    loadAverage: { before: context.loadAverageBefore, after: os.loadavg().map(round) },
    seconds: round((performance.now() - context.started) / 1000),
    thinkMs: THINK_MS,
    singleAnalyst: {
      rounds: PAIRED_ROUNDS,
      warmUpRounds: PAIRED_WARM_UP_ROUNDS,
      thinkMs: PAIRED_THINK_MS,
      all: singleAnalyst.all,
      geometricMeanP50Ratio: geometricMean(singleAnalyst.perCase.map((c) => c.p50Ratio)),
      geometricMeanP95Ratio: geometricMean(singleAnalyst.perCase.map((c) => c.p95Ratio)),
      worstP95Ratio: Math.max(...singleAnalyst.perCase.map((c) => c.p95Ratio)),
      slowerThanLimit: { limit: SINGLE_ANALYST_LIMIT, cases: slower.map((c) => c.name) },
      perCase: singleAnalyst.perCase.map(byBackend),
    },
    appState: appState.perCase.map(byBackend),
    eightAnalysts: {
      oneReplica: { analysts: summary(oneReplica.analysts), withoutPauses: summary(oneReplica.withoutPauses) },
      twoReplicas: { analysts: summary(twoReplicas.analysts), withoutPauses: summary(twoReplicas.withoutPauses) },
      perCase: eightAnalysts,
    },
  };
}

/**
 * `npm run bench -- --only replicas`: the app state on the embedded default against a real PostgreSQL server
 * (Debian's, started as the tests start it), one analyst's calls sent to both in turn (`paired`); then eight analysts
 * against one replica and against two replicas over that server and the same store, round robin as a load balancer
 * sends them. Its figures replace that part of the results.
 */
export async function replicasOnly(): Promise<void> {
  prepareSection();
  const results = readResults();
  const loadAverageBefore = os.loadavg().map(round);
  const started = performance.now();

  const postgres = await startPostgres();
  const services: ChildProcess[] = [];
  try {
    const databaseUrl = await databaseFor(postgres.url, 'bench');
    // While no service holds the embedded app database: the copy leaves it as it is, for the embedded service.
    run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', 'app-db', 'migrate-to', databaseUrl], {
      DATA_DIR: dataDir,
    });
    const env = { DATABASE_URL: databaseUrl };
    const embeddedPort = await freePort();
    const embeddedService = await startService(embeddedPort);
    services.push(embeddedService);
    const portA = await freePort();
    services.push(await startService(portA, env));
    const sessions = [await openSession(embeddedPort), await openSession(portA)];
    const singleAnalyst = await paired(pairedHttpCases(sessions));
    const appState = await paired(pairedAppStateCalls(sessions));
    console.log(`one analyst, embedded and PostgreSQL in turn: ${PAIRED_ROUNDS} rounds done`);
    await stopService(embeddedService);

    const session = sessions[1]!;
    const { httpCases } = httpCasesOf(session);
    const oneReplica = await eight([session.client], httpCases);
    const portB = await freePort();
    services.push(await startService(portB, env));
    const twoReplicas = await eight([session.client, session.client.on(`http://127.0.0.1:${portB}`)], httpCases);

    results.replicas = replicasResult(httpCases, singleAnalyst, appState, oneReplica, twoReplicas, {
      loadAverageBefore,
      started,
    });
    writeResults(results);
    console.log(replicasTable(results.replicas as ReplicasResult));
  } finally {
    for (const service of services) await stopService(service);
    postgres.stop();
  }
}

type Throughput = { requestsPerSecond: number; errors: number; p95: number };

interface BackendComparison extends Comparison {
  name: string;
  embedded: { client: Stats; server: Stats };
  postgres: { client: Stats; server: Stats };
}

type ReplicasResult = {
  loadAverage: { before: number[]; after: number[] };
  seconds: number;
  singleAnalyst: {
    rounds: number;
    thinkMs: readonly number[];
    all: Comparison;
    geometricMeanP50Ratio: number;
    geometricMeanP95Ratio: number;
    slowerThanLimit: { limit: number; cases: string[] };
    perCase: BackendComparison[];
  };
  appState: BackendComparison[];
  eightAnalysts: {
    oneReplica: Record<'analysts' | 'withoutPauses', Throughput>;
    twoReplicas: Record<'analysts' | 'withoutPauses', Throughput>;
    perCase: {
      name: string;
      oneReplicaP95?: number;
      twoReplicasP95?: number;
      withoutPausesOneReplicaP95?: number;
      withoutPausesTwoReplicasP95?: number;
    }[];
  };
};

function replicasTable(r: ReplicasResult): string {
  const dash = (n: number | null | undefined): string => (n === undefined || n === null ? '–' : String(n));
  const { oneReplica, twoReplicas } = r.eightAnalysts;
  const { singleAnalyst: single } = r;
  const compared = (c: BackendComparison): string =>
    `| ${c.name} | ${c.embedded.client.p50} | ${c.embedded.client.p95} | ${c.postgres.client.p50} | ${c.postgres.client.p95} | ${ratios(c)} |`;
  const head = [
    '| embedded p50 ms | embedded p95 ms | PostgreSQL p50 ms | PostgreSQL p95 ms | PostgreSQL ÷ embedded, p50 (95% interval) | p95 (95% interval) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  return [
    `One analyst, embedded and PostgreSQL in turn, ${single.rounds} requests per case on each (pauses ${single.thinkMs.join('–')} ms):`,
    '',
    `| case ${head[0]}`,
    `| --- ${head[1]}`,
    ...single.perCase.map(compared),
    `| all requests | | | | | ${ratios(single.all)} |`,
    `| geometric mean of the cases | | | | | ${single.geometricMeanP50Ratio} | ${single.geometricMeanP95Ratio} |`,
    '',
    `Cases whose whole interval is over ${single.slowerThanLimit.limit}×: ${single.slowerThanLimit.cases.join(', ') || 'none'}`,
    '',
    `| app-state call ${head[0]}`,
    `| --- ${head[1]}`,
    ...r.appState.map(compared),
    '',
    '| case | 8 analysts, 1 replica p95 ms | 8 analysts, 2 replicas p95 ms | 8 without pauses, 1 replica p95 ms | 8 without pauses, 2 replicas p95 ms |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...r.eightAnalysts.perCase.map(
      (c) =>
        `| ${c.name} | ${dash(c.oneReplicaP95)} | ${dash(c.twoReplicasP95)} | ${dash(c.withoutPausesOneReplicaP95)} | ${dash(c.withoutPausesTwoReplicasP95)} |`,
    ),
    `| all requests | ${oneReplica.analysts.p95} | ${twoReplicas.analysts.p95} | ${oneReplica.withoutPauses.p95} | ${twoReplicas.withoutPauses.p95} |`,
    `| requests/s (errors) | ${oneReplica.analysts.requestsPerSecond} (${oneReplica.analysts.errors}) | ${twoReplicas.analysts.requestsPerSecond} (${twoReplicas.analysts.errors}) | ${oneReplica.withoutPauses.requestsPerSecond} (${oneReplica.withoutPauses.errors}) | ${twoReplicas.withoutPauses.requestsPerSecond} (${twoReplicas.withoutPauses.errors}) |`,
    '',
    `${r.seconds} s; load average before ${r.loadAverage.before.join(', ')}, after ${r.loadAverage.after.join(', ')}`,
  ].join('\n');
}
