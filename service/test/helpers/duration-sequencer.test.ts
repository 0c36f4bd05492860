import { describe, expect, it } from 'vitest';
import { parseDurations } from '../../../scripts/support/test-durations.ts';
import { DURATIONS_FILE, readDurations, splitByDuration } from './duration-sequencer.ts';

const item = (key: string, seconds: number) => ({ key, seconds });
const total = (part: readonly { seconds: number }[]) => part.reduce((sum, i) => sum + i.seconds, 0);

describe('splitByDuration', () => {
  it('gives each part about the same time, not the same number of files', () => {
    const items = [
      item('a', 100),
      item('b', 60),
      item('c', 40),
      ...Array.from({ length: 8 }, (_, i) => item(`s${i}`, 5)),
    ];
    const parts = splitByDuration(items, 2);
    expect(parts.map(total)).toEqual([120, 120]);
    expect(parts[0]!.map((i) => i.key)).toEqual(['a', 's0', 's2', 's4', 's6']);
    expect(
      parts
        .flat()
        .map((i) => i.key)
        .sort(),
    ).toEqual(items.map((i) => i.key).sort());
  });

  it('makes the same split whatever order the files come in, files of no time spread by count', () => {
    const items = [item('x', 0), item('y', 0), item('z', 0), item('w', 3), item('v', 3)];
    const split = (list: typeof items) => splitByDuration(list, 2).map((part) => part.map((i) => i.key));
    expect(split(items)).toEqual(split([...items].reverse()));
    expect(split(items)).toEqual([
      ['v', 'x', 'z'],
      ['w', 'y'],
    ]);
  });
});

describe('the durations table', () => {
  it('reads the lines vitest prints for each file, in either project, keeping the longer of two runs', () => {
    const log = [
      ' \x1b[32m✓\x1b[39m \x1b[30m\x1b[42m default \x1b[49m\x1b[39m service/test/a.test.ts \x1b[2m(\x1b[22m\x1b[2m4 tests\x1b[22m\x1b[2m)\x1b[22m\x1b[33m 5120\x1b[2mms\x1b[22m\x1b[39m',
      ' ✓  postgres  service/test/a.test.ts (4 tests | 1 skipped) 900ms',
      '[table]   ✓   4 web/e2e/smoke.spec.ts:25:3 › internal user › overview (30.0s)',
      ' × default web/src/b.test.tsx (2 tests | 1 failed) 40ms',
      ' ✓  default  service/test/a.test.ts (4 tests) 7000ms',
    ].join('\n');
    expect(Object.fromEntries(parseDurations(log))).toEqual({
      'default service/test/a.test.ts': 7000,
      'postgres service/test/a.test.ts': 900,
      'default web/src/b.test.tsx': 40,
    });
  });

  it('has a time for the files of both projects', () => {
    const durations = readDurations(DURATIONS_FILE);
    expect(durations.get('default service/test/golden-counts.test.ts')).toBeGreaterThan(10);
    expect(durations.get('postgres service/test/auth-http.test.ts')).toBeGreaterThan(1);
  });
});
