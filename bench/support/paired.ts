/** Two backends compared on the same calls, one analyst's requests sent to each in turn (timeRounds). */
import { timedPost } from './client.ts';
import { acceptOf } from './config.ts';
import { httpCasesOf, type HttpCase, type Session } from './session.ts';
import { compare, stats, type Comparison, type Stats } from './stats.ts';
import { PAIRED_ROUNDS, PAIRED_WARM_UP_ROUNDS, timeRounds, type PairedCase } from './timing.ts';

export interface PairedResult extends Comparison {
  name: string;
  /** Per backend, in the order of `on`. */
  client: Stats[];
  server: Stats[];
}

/** Two backends compared on the same cases (`timeRounds`): the second ÷ the first, per case and over all requests. */
export async function paired(cases: readonly PairedCase[]): Promise<{ perCase: PairedResult[]; all: Comparison }> {
  const samples = await timeRounds(cases, PAIRED_ROUNDS, PAIRED_WARM_UP_ROUNDS);
  const perCase = cases.map((c, i) => ({
    name: c.name,
    client: samples[i]!.map((s) => stats(s.client)),
    server: samples[i]!.map((s) => stats(s.server)),
    ...compare(samples[i]![0]!.client, samples[i]![1]!.client),
  }));
  const allOf = (b: number): number[] => samples.flatMap((s) => s[b]!.client);
  return { perCase, all: compare(allOf(0), allOf(1)) };
}

/** The dashboard's calls (`httpCasesOf`, or `casesOf`), one per backend's session. */
export function pairedHttpCases(
  sessions: readonly Session[],
  casesOf: (session: Session) => HttpCase[] = (s) => httpCasesOf(s).httpCases,
): PairedCase[] {
  return casesOf(sessions[0]!).map(([name, url], i) => ({
    name,
    on: sessions.map((s) => {
      const body = casesOf(s)[i]![2];
      return timedPost(s.client, `/api/technical-health-check${url}`, body, acceptOf(url));
    }),
  }));
}
