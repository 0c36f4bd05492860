import { describe, expect, it } from 'vitest';
import type { CatalogColumn } from '../../../../catalog/schema.ts';
import {
  hasChecklist,
  moveColumn,
  nextSort,
  pageCountOf,
  pageIndexFromInput,
  groupSegments,
  pinnedOffsets,
  reportColumns,
  type ColumnContext,
} from './table-model.ts';

const col = (id: string, visibility: CatalogColumn['visibility'] = 'always'): CatalogColumn => ({
  id,
  displayColumn: id,
  title: id,
  tooltip: id,
  type: 'string',
  format: 'text',
  group: 'Crawl',
  family: 'url',
  tables: ['urls'],
  visibility,
});
const catalogue = new Map(
  [
    col('url'),
    col('checked'),
    col('checklist_state'),
    col('removal_reason'),
    col('ai_title', 'isAi'),
    col('ga_conversions', 'conversionGoal'),
    col('ga_revenue', 'ecommerceGoal'),
  ].map((c) => [c.id, c]),
);
const lookup = (id: string) => catalogue.get(id);
const report = {
  severity: 'HIGH' as const,
  datatableColumns: ['url', 'ai_title', 'ga_conversions', 'ga_revenue', 'unknown'],
};
const base = { segment: { isAi: false, goalType: null }, isLatestCrawl: true, differenceType: 'all' as const };

describe('columns', () => {
  it('adds the checklist column first on the latest crawl, outside Removed, for reports with a severity', () => {
    expect(reportColumns(report, lookup, base).map((c) => c.id)).toEqual(['checked', 'url']);
    expect(hasChecklist(report, { ...base, isLatestCrawl: false })).toBe(false);
    expect(hasChecklist(report, { ...base, differenceType: 'removed' })).toBe(false);
    expect(hasChecklist({ severity: 'NONE' }, base)).toBe(false);
    expect(hasChecklist(report, { ...base, differenceType: 'added' })).toBe(true);
  });

  it('adds the Checklist state with checked rows shown or on Removed, and the removal reason on Removed only', () => {
    const ids = (context: Partial<ColumnContext>, severity: 'HIGH' | 'NONE' = 'HIGH') =>
      reportColumns({ ...report, severity }, lookup, { ...base, ...context }).map((c) => c.id);
    expect(ids({ showChecked: true })).toEqual(['checked', 'checklist_state', 'url']);
    expect(ids({ differenceType: 'removed' })).toEqual(['checklist_state', 'url', 'removal_reason']);
    expect(ids({ differenceType: 'added' })).toEqual(['checked', 'url']);
    expect(ids({ differenceType: 'removed' }, 'NONE')).toEqual(['url', 'removal_reason']);
  });

  it('shows AI columns only for AI websites and goal metrics by goal type', () => {
    const ids = (segment: { isAi: boolean; goalType: 'conversion' | 'ecommerce' | null }) =>
      reportColumns(report, lookup, { ...base, segment, isLatestCrawl: false }).map((c) => c.id);
    expect(ids({ isAi: true, goalType: null })).toEqual(['url', 'ai_title']);
    expect(ids({ isAi: false, goalType: 'conversion' })).toEqual(['url', 'ga_conversions']);
    expect(ids({ isAi: false, goalType: 'ecommerce' })).toEqual(['url', 'ga_revenue']);
  });
});

describe('sort cycle none → desc → asc → none', () => {
  it('cycles one column', () => {
    const first = nextSort([], 'url');
    expect(first).toEqual([{ id: 'url', desc: true }]);
    const second = nextSort(first, 'url');
    expect(second).toEqual([{ id: 'url', desc: false }]);
    expect(nextSort(second, 'url')).toEqual([]);
  });

  it('starts a new column at desc and drops the old sort', () => {
    expect(nextSort([{ id: 'url', desc: false }], 'level')).toEqual([{ id: 'level', desc: true }]);
  });
});

describe('page input', () => {
  it('goes to page 1 when empty, else to the number minus 1', () => {
    expect(pageIndexFromInput('', 10)).toEqual({ index: 0 });
    expect(pageIndexFromInput('1', 10)).toEqual({ index: 0 });
    expect(pageIndexFromInput('4', 10)).toEqual({ index: 3 });
    expect(pageIndexFromInput(4, 10)).toEqual({ index: 3 });
    expect(pageIndexFromInput(10, 10)).toEqual({ index: 9 });
  });

  it('names the range for a minus sign, a fraction, zero or a page past the last, instead of guessing', () => {
    for (const input of ['-3', -3, '0', 2.5, '99', 'abc', '-'])
      expect(pageIndexFromInput(input, 10)).toEqual({ error: 'Enter a page from 1 to 10' });
    expect(pageIndexFromInput(2, 1)).toEqual({ error: 'There is only page 1' });
  });

  it('counts at least one page', () => {
    expect(pageCountOf(0, 10)).toBe(1);
    expect(pageCountOf(101, 10)).toBe(11);
    expect(pageCountOf(100, 100)).toBe(1);
  });
});

describe('column reorder', () => {
  it('moves left and right within bounds', () => {
    expect(moveColumn(['a', 'b', 'c'], 'b', -1)).toEqual(['b', 'a', 'c']);
    expect(moveColumn(['a', 'b', 'c'], 'b', 1)).toEqual(['a', 'c', 'b']);
    expect(moveColumn(['a', 'b', 'c'], 'a', -1)).toEqual(['a', 'b', 'c']);
    expect(moveColumn(['a', 'b', 'c'], 'z', 1)).toEqual(['a', 'b', 'c']);
  });
});

describe('pinnedOffsets', () => {
  it('freezes the leading columns up to the first URL column, each at the width of those before it', () => {
    const pinned = pinnedOffsets([
      { id: 'checked', size: 104 },
      { id: 'url', size: 320, format: 'url' },
      { id: 'title', size: 240, format: 'text' },
    ]);
    expect([...pinned]).toEqual([
      ['checked', 0],
      ['url', 104],
    ]);
    expect([
      ...pinnedOffsets([
        { id: 'url_from', size: 300, format: 'url' },
        { id: 'url_to', size: 300, format: 'url' },
      ]),
    ]).toEqual([['url_from', 0]]);
  });

  it('freezes nothing when no URL column leads the table', () => {
    expect(
      pinnedOffsets([
        { id: 'title', size: 240, format: 'text' },
        { id: 'h1', size: 240 },
        { id: 'url', size: 320, format: 'url' },
      ]).size,
    ).toBe(0);
    expect(pinnedOffsets([]).size).toBe(0);
  });
});

describe('groupSegments', () => {
  const leaves = [
    { id: 'checked', size: 104, group: 'Checklist' },
    { id: 'url', size: 320, group: 'Crawl' },
    { id: 'title', size: 240, group: 'Crawl' },
    { id: 'links', size: 120, group: 'Crawl' },
    { id: 'clicks', size: 124, group: 'Google Search Console' },
  ];

  it('splits a group at the frozen edge, freezing the part over frozen columns and naming the group once', () => {
    const pinned = new Map([
      ['checked', 0],
      ['url', 104],
    ]);
    expect(groupSegments(leaves, pinned)).toEqual([
      { group: 'Checklist', columnIds: ['checked'], width: 104, left: 0, hasLabel: true },
      { group: 'Crawl', columnIds: ['url'], width: 320, left: 104, hasLabel: true },
      { group: 'Crawl', columnIds: ['title', 'links'], width: 360, left: undefined, hasLabel: false },
      { group: 'Google Search Console', columnIds: ['clicks'], width: 124, left: undefined, hasLabel: true },
    ]);
  });

  it('keeps one segment per run of a group when nothing is frozen, and a group that returns is named again', () => {
    const reordered = [leaves[1]!, leaves[4]!, leaves[2]!];
    expect(groupSegments(reordered, new Map()).map((s) => [s.group, s.columnIds, s.hasLabel])).toEqual([
      ['Crawl', ['url'], true],
      ['Google Search Console', ['clicks'], true],
      ['Crawl', ['title'], true],
    ]);
  });
});
