/**
 * vitest's shards split by measured time rather than by a hash of each file's path, which left one of `npm test`'s
 * three shards 20 min long and another 11 (CI, 27 Nov). test-durations.json holds each file's seconds from a whole
 * run; `node --import tsx scripts/support/test-durations.ts <npm test log>` writes it again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const DURATIONS_FILE = path.join(import.meta.dirname, 'test-durations.json');
/** What a file missing from the table counts as: about the median measured file. */
const UNMEASURED_SECONDS = 2;

/** A file's key in the table: its project and its path from the root, e.g. `postgres service/test/ai.test.ts`. */
export const durationKey = (project: string, file: string): string => `${project} ${file}`;

export function readDurations(file = DURATIONS_FILE): Map<string, number> {
  if (!fs.existsSync(file)) return new Map();
  return new Map(Object.entries(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, number>));
}

/**
 * Longest first, each item to the part with the least time so far (then the fewest items, then the lowest index); items
 * of equal time in key order, so that every shard's process, sorting the same items, makes the same split.
 */
export function splitByDuration<T extends { key: string; seconds: number }>(items: readonly T[], count: number): T[][] {
  const parts = Array.from({ length: count }, () => ({ seconds: 0, items: [] as T[] }));
  const sorted = [...items].sort((a, b) => b.seconds - a.seconds || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const item of sorted) {
    const least = parts.reduce((min, part) =>
      part.seconds < min.seconds || (part.seconds === min.seconds && part.items.length < min.items.length) ? part : min,
    );
    least.seconds += item.seconds;
    least.items.push(item);
  }
  return parts.map((part) => part.items);
}

export default class DurationSequencer extends BaseSequencer {
  private readonly durations = readDurations();

  private measured(spec: TestSpecification): { key: string; seconds: number; spec: TestSpecification } {
    const key = durationKey(spec.project.name, path.relative(this.ctx.config.root, spec.moduleId));
    return { key, seconds: this.durations.get(key) ?? UNMEASURED_SECONDS, spec };
  }

  override shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { index, count } = this.ctx.config.shard!;
    const parts = splitByDuration(
      files.map((spec) => this.measured(spec)),
      count,
    );
    return Promise.resolve((parts[index - 1] ?? []).map((item) => item.spec));
  }

  /** Each project's files together, as vitest's own order has them; within one, the longest first. */
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const items = files.map((spec) => this.measured(spec));
    items.sort(
      (a, b) =>
        a.spec.project.name.localeCompare(b.spec.project.name) ||
        b.seconds - a.seconds ||
        (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
    );
    return Promise.resolve(items.map((item) => item.spec));
  }
}
