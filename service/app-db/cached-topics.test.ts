import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CACHED_TOPICS, type CachedTopic } from './cached-topics.ts';

const repoDir = path.resolve(import.meta.dirname, '../..');
const WRITE = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)/gi;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' || entry.name === 'node_modules' ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** The topics whose reads a file's write statements change, by the tables each topic's reads depend on. */
function topicsWritten(source: string): Set<CachedTopic> {
  const topics = new Set<CachedTopic>();
  for (const [, table] of source.matchAll(WRITE))
    for (const [topic, tables] of Object.entries(CACHED_TOPICS) as [CachedTopic, readonly string[]][])
      if (tables.includes(table!.toLowerCase())) topics.add(topic);
  return topics;
}

const saysChanged = (source: string, topic: CachedTopic): boolean =>
  source.includes('changed(...ALL_TOPICS)') || new RegExp(`changed\\([^)]*'${topic}'`).test(source);

describe('the cached topics', () => {
  it('are said changed by every file that writes a table their reads depend on', () => {
    const files = ['service', 'scripts'].flatMap((dir) => sourceFiles(path.join(repoDir, dir)));
    const missing: string[] = [];
    let writers = 0;
    for (const file of files) {
      if (file.endsWith(path.join('app-db', 'migrations.ts'))) continue;
      const source = fs.readFileSync(file, 'utf8');
      const topics = topicsWritten(source);
      if (topics.size > 0) writers++;
      for (const topic of topics)
        if (!saysChanged(source, topic))
          missing.push(`${path.relative(repoDir, file)} does not say '${topic}' changed`);
    }
    expect(missing).toEqual([]);
    // The check found the writers it is about (sessions, users, websites, checklists, crawl runs, the registry…).
    expect(writers).toBeGreaterThanOrEqual(8);
  });

  it('catch a file that writes a table without saying so', () => {
    const source = `await tx.run('UPDATE sessions SET revoked_at = ? WHERE id = ?', [now, id]);`;
    expect([...topicsWritten(source)]).toEqual(['sessions']);
    expect(saysChanged(source, 'sessions')).toBe(false);
    expect(saysChanged(`${source}\nawait tx.changed('websites', 'sessions');`, 'sessions')).toBe(true);
  });
});
