/**
 * Writes service/test/helpers/test-durations.json, each vitest file's seconds, from the output of whole runs (`npm
 * test` or `npx vitest run`, their lines `✓ default service/test/x.test.ts (4 tests) 5120ms`), for the sequencer that
 * splits vitest's shards by time (service/test/helpers/duration-sequencer.ts). A file in two logs keeps the longer.
 * Usage: node --import tsx scripts/support/test-durations.ts <log> [<log> ...]
 */
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DURATIONS_FILE } from '../../service/test/helpers/duration-sequencer.ts';

// eslint-disable-next-line no-control-regex -- vitest colours its lines
const COLOURS = /\x1b\[[0-9;]*m/g;
const FILE_LINE = /^\s*(?:\[[^\]]*\]\s*)?[✓×❯]\s+(\S+)\s+(\S+\.test\.tsx?)\s+\(\d+ tests?[^)]*\)\s+(\d+)ms/;

/** Each file's milliseconds in the logs' text, keyed as the sequencer keys them. */
export function parseDurations(text: string): Map<string, number> {
  const durations = new Map<string, number>();
  for (const line of text.replace(COLOURS, '').split('\n')) {
    const match = FILE_LINE.exec(line);
    if (!match) continue;
    const [, project, file, ms] = match as unknown as [string, string, string, string];
    const key = `${project} ${file}`;
    durations.set(key, Math.max(durations.get(key) ?? 0, Number(ms)));
  }
  return durations;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const logs = process.argv.slice(2);
  if (logs.length === 0) {
    console.error('usage: node --import tsx scripts/support/test-durations.ts <log> [<log> ...]');
    process.exit(2);
  }
  const durations = parseDurations(logs.map((log) => fs.readFileSync(log, 'utf8')).join('\n'));
  const table = Object.fromEntries(
    [...durations].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, ms]) => [key, Math.round(ms / 100) / 10]),
  );
  fs.writeFileSync(DURATIONS_FILE, `${JSON.stringify(table, null, 2)}\n`);
  console.log(`${DURATIONS_FILE}: ${durations.size} files`);
}
