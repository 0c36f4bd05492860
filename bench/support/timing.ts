/** How the benchmark times a request: back to back (`measure`), or in rounds over several backends (`timeRounds`). */
import type { Timing } from './client.ts';
import { sleep } from './config.ts';
import { seededRandom, stats, type Stats } from './stats.ts';

/** `runs` samples of `once` after one not counted. */
export async function measure(runs: number, once: () => Promise<number>): Promise<Stats> {
  await once();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await once());
  return stats(samples);
}

/** A request made the same way on each backend: `on[i]` sends it to backend i. */
export interface PairedCase {
  name: string;
  on: (() => Promise<Timing>)[];
}

/** The single analyst's rounds: each case this many times on each backend, after the warm-up rounds. */
export const PAIRED_ROUNDS = Number(process.env.BENCH_PAIRED_ROUNDS ?? 40);
export const PAIRED_WARM_UP_ROUNDS = 3;
/**
 * The single analyst's pause before each request in the paired comparison, ms (uniform): shorter than THINK_MS so
 * that 40 rounds on two backends take about three minutes, long enough for the machine to go idle between requests
 * as it does between an analyst's clicks.
 */
export const PAIRED_THINK_MS = [25, 175] as const;

export type Samples = { client: number[]; server: number[] };

/**
 * Times every case on every backend, `rounds` times after `warmUpRounds` not counted, until `isDone` (asked after
 * each round) says so. Within a round each case goes to every backend in turn, the backends' order alternating from
 * round to round, each request after a PAIRED_THINK_MS pause: load from the rest of the machine and a request's start
 * from idle then hit every backend alike, which measuring one backend after the other does not give. Answers the
 * samples per case, per backend.
 */
export async function timeRounds(
  cases: readonly PairedCase[],
  rounds: number,
  warmUpRounds: number,
  isDone: () => Promise<boolean> = () => Promise.resolve(false),
): Promise<Samples[][]> {
  const random = seededRandom(20261123);
  const samples = cases.map((c) => c.on.map((): Samples => ({ client: [], server: [] })));
  for (let pass = 0; pass < warmUpRounds + rounds && !(await isDone()); pass++)
    for (const [i, c] of cases.entries()) {
      const order = c.on.map((_, b) => b);
      if (pass % 2 === 1) order.reverse();
      for (const b of order) {
        await sleep(PAIRED_THINK_MS[0] + random() * (PAIRED_THINK_MS[1] - PAIRED_THINK_MS[0]));
        const { ms, serverMs } = await c.on[b]!();
        if (pass < warmUpRounds) continue;
        samples[i]![b]!.client.push(ms);
        if (Number.isFinite(serverMs)) samples[i]![b]!.server.push(serverMs);
      }
    }
  return samples;
}
