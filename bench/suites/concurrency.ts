/**
 * Eight analysts at once against one analyst working the same way, and eight clients without pauses (capacity, not
 * what an analyst waits).
 */
import type { Client } from '../support/client.ts';
import { RUNS, THINK_MS } from '../support/config.ts';
import type { HttpCase } from '../support/session.ts';
import { round, type Stats } from '../support/stats.ts';
import { workload, type LoadCase } from '../support/workload.ts';

interface ConcurrencyCase {
  name: string;
  oneAnalyst?: LoadCase;
  eightAnalysts: LoadCase;
  ratioToOneAnalyst: number | null;
  ratioToBackToBack: number | null;
}

/**
 * Eight analysts at once against one analyst working the same way (the same cases in turn, the same 0.5–1.5 s
 * pauses to read each answer), so that the ratio measures what concurrency costs: after a pause the machine has gone
 * idle, which alone makes a request slower than in a back-to-back loop, so both ratios are reported. The same mix
 * without pauses (eight clients firing back to back) measures CPU saturation, not what an analyst waits, and is
 * reported apart.
 */
export async function concurrent(
  client: Client,
  httpCases: readonly HttpCase[],
  backToBack: Map<string, Stats>,
): Promise<object> {
  const one = await workload([client], httpCases, 1, RUNS * httpCases.length, THINK_MS);
  const eight = await workload([client], httpCases, 8, Math.ceil((2 * RUNS * httpCases.length) / 8), THINK_MS);
  const saturated = await workload([client], httpCases, 8, Math.max(12, Math.ceil(RUNS / 2)), [0, 0]);
  const perCase = eight.perCase.map((c): ConcurrencyCase => {
    const alone = one.perCase.find((o) => o.name === c.name);
    const loop = backToBack.get(c.name);
    return {
      name: c.name,
      oneAnalyst: alone,
      eightAnalysts: c,
      ratioToOneAnalyst: alone ? round(c.client.p95 / alone.client.p95) : null,
      ratioToBackToBack: loop ? round(c.client.p95 / loop.p95) : null,
    };
  });
  console.log(
    `8 concurrent analysts (think ${THINK_MS.join('–')} ms): ${eight.errors} errors (one analyst: ${one.errors})`,
  );
  for (const c of perCase)
    console.log(
      `  ${c.name}: p95 ${c.eightAnalysts.client.p95} ms, ${c.ratioToOneAnalyst}× one analyst, ${c.ratioToBackToBack}× back-to-back`,
    );
  console.log(`8 clients without pauses: ${saturated.errors} errors`);
  const withoutPauses = saturated.perCase.map((c) => {
    const loop = backToBack.get(c.name);
    return { ...c, ratioToBackToBack: loop ? round(c.client.p95 / loop.p95) : null };
  });
  for (const c of withoutPauses)
    console.log(`  ${c.name}: p95 ${c.client.p95} ms, ${c.ratioToBackToBack}× back-to-back`);
  return {
    thinkMs: THINK_MS,
    oneAnalyst: { requests: one.requests, errors: one.errors },
    eightAnalysts: { requests: eight.requests, errors: eight.errors },
    perCase,
    withoutPauses: { requests: saturated.requests, errors: saturated.errors, perCase: withoutPauses },
  };
}

/** The concurrency figures beside the back-to-back p95 of each case (`loop`). */
export function concurrencyTable(concurrency: unknown, loop: Map<string, Stats>): string[] {
  const perCase = (concurrency as { perCase: ConcurrencyCase[] } | undefined)?.perCase ?? [];
  return [
    '| case | back-to-back p95 ms | one analyst p95 ms | 8 analysts p95 ms | 8 ÷ one analyst | 8 ÷ back-to-back | in service p95 ms, one → 8 |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...perCase.map(
      (c) =>
        `| ${c.name} | ${loop.get(c.name)?.p95 ?? '–'} | ${c.oneAnalyst?.client.p95 ?? '–'} | ${c.eightAnalysts.client.p95} | ${c.ratioToOneAnalyst ?? '–'} | ${c.ratioToBackToBack ?? '–'} | ${c.oneAnalyst?.server.p95 ?? '–'} → ${c.eightAnalysts.server.p95} |`,
    ),
  ];
}
