/** The dashboard's calls, each timed back to back over HTTP with the caches bypassed, against its target p95. */
import type { Client } from '../support/client.ts';
import { acceptOf, RUNS } from '../support/config.ts';
import type { HttpCase } from '../support/session.ts';
import type { Stats } from '../support/stats.ts';
import { measure } from '../support/timing.ts';

export interface CaseResult {
  name: string;
  service: Stats;
  baseline?: Stats;
  ratio?: number;
  target?: number;
  note?: string;
}

/** Each case RUNS times after one not counted; the timings by case name for the concurrency section's ratios. */
export async function measureCalls(
  client: Client,
  httpCases: readonly HttpCase[],
): Promise<{ cases: CaseResult[]; timings: Map<string, Stats> }> {
  const cases: CaseResult[] = [];
  const timings = new Map<string, Stats>();
  for (const [name, url, body, target] of httpCases) {
    const service = await measure(
      RUNS,
      async () => (await client.post(`/api/technical-health-check${url}`, body, acceptOf(url))).ms,
    );
    timings.set(name, service);
    cases.push({ name, service, target });
    console.log(`${name}: p50 ${service.p50} ms, p95 ${service.p95} ms`);
  }
  return { cases, timings };
}

export function callsTable(cases: readonly CaseResult[]): string[] {
  return [
    '| case | service p50 ms | service p95 ms | target p95 ms | naive DuckDB p50 ms | naive ÷ service (p50) |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...cases.map(
      (c) =>
        `| ${c.name} | ${c.service.p50} | ${c.service.p95} | ${c.target ?? '–'} | ${c.baseline?.p50 ?? '–'} | ${c.ratio ?? '–'} |`,
    ),
  ];
}
