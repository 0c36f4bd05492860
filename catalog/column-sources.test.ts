import { describe, expect, it } from 'vitest';
import { columnSources } from './column-sources.ts';
import { exportTables } from './export-contract.ts';
import { COLUMN_SOURCES } from './render-contract.ts';

const crawled = exportTables.filter((table) => table.kind !== 'source');

describe('column sources', () => {
  it.each(crawled.map((table) => [table.id, table] as const))(
    'names the source of every %s column the contract has, and of no other',
    (id, table) => {
      const declared = columnSources[id];
      expect(Object.keys(declared).sort()).toEqual(table.columns.map((column) => column.name).sort());
      for (const source of Object.values(declared)) expect(Object.keys(COLUMN_SOURCES)).toContain(source);
    },
  );

  it('declares no table the crawler does not write', () => {
    expect(Object.keys(columnSources).sort()).toEqual(crawled.map((table) => table.id).sort());
  });

  it('reads each raw twin from the raw response and its rendered twin from the rendered DOM or both', () => {
    const { urls } = columnSources;
    const twins = Object.keys(urls).filter((name) => name.startsWith('raw_') && name.slice(4) in urls);
    expect(twins.length).toBeGreaterThanOrEqual(10);
    for (const raw of twins) {
      expect(urls[raw], raw).toBe('raw');
      expect(['rendered', 'both'], raw.slice(4)).toContain(urls[raw.slice(4)]);
    }
  });
});
