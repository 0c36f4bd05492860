import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stageFiles } from '../stage-files.ts';
import { searchConsoleApi } from './search-console-api.ts';

const API = path.resolve(import.meta.dirname, '../../../fixtures/sources/search-console/api');
const byQuery = path.join(API, 'searchanalytics-date-page-query.json');
const byPage = path.join(API, 'searchanalytics-date-page.json');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-sc-api-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const write = (name: string, body: unknown): string => {
  const file = path.join(work, name);
  fs.writeFileSync(file, JSON.stringify(body, null, 2));
  return file;
};

describe('the Search Analytics API response', () => {
  it('tells date, page and query keys by their values; query rows fill the queries only', async () => {
    const staged = await stageFiles(searchConsoleApi, [byQuery]);
    expect(staged.coverage).toEqual({ start: '2026-11-09', end: '2026-11-10', granularity: 'day' });
    expect([...Object.keys(staged.tables)]).toEqual(['search_console_queries']);
    expect(staged.tables.search_console_queries![0]).toMatchObject({
      date: '2026-11-09',
      url: 'https://www.alpine-travel.eu/de/',
      query: 'alpine travel',
      clicks: 21n,
      impressions: 190n,
    });
  });

  it('fills the pages from a response without the query dimension, by day or over --start/--end', async () => {
    expect((await stageFiles(searchConsoleApi, [byPage])).tables.search_console).toHaveLength(3);
    const { rows } = JSON.parse(fs.readFileSync(byPage, 'utf8')) as { rows: { keys: string[] }[] };
    const pagesOnly = write('pages.json', { rows: rows.map((r) => ({ ...r, keys: r.keys.slice(1) })) });
    await expect(stageFiles(searchConsoleApi, [pagesOnly])).rejects.toThrow('give the dates of the request');
    const staged = await stageFiles(searchConsoleApi, [pagesOnly], { start: '2026-11-01', end: '2026-11-14' });
    expect(staged.coverage).toEqual({ start: '2026-11-01', end: '2026-11-14', granularity: 'period' });
    expect(new Set(staged.tables.search_console!.map((r) => r.date))).toEqual(new Set(['2026-11-14']));
  });

  it('keeps device and country keys apart from the query, and refuses a response without pages', async () => {
    const row = (keys: string[]) => ({ keys, clicks: 1, impressions: 10, ctr: 0.1, position: 2 });
    const file = write('devices.json', {
      rows: [
        row(['https://www.alpine-travel.eu/de/', 'alpine travel', 'deu', 'MOBILE']),
        row(['https://www.alpine-travel.eu/de/', 'alpine travel', 'aut', 'DESKTOP']),
      ],
    });
    await expect(
      stageFiles(searchConsoleApi, [file], { start: '2026-11-01', end: '2026-11-02' }),
    ).resolves.toMatchObject({
      tables: { search_console_queries: [{ query: 'alpine travel' }, { query: 'alpine travel' }] },
    });
    const noPage = write('queries.json', { rows: [row(['alpine travel'])] });
    await expect(stageFiles(searchConsoleApi, [noPage], { start: '2026-11-01', end: '2026-11-02' })).rejects.toThrow(
      'no page among the keys',
    );
  });

  it('refuses a bad number, naming the row and field', async () => {
    const { rows } = JSON.parse(fs.readFileSync(byPage, 'utf8')) as { rows: Record<string, unknown>[] };
    const bad = write('bad.json', { rows: rows.map((r, i) => (i === 1 ? { ...r, clicks: '4' } : r)) });
    await expect(stageFiles(searchConsoleApi, [bad])).rejects.toThrow(
      `${bad}: rows[1].clicks "4" is not a whole number`,
    );
  });
});
