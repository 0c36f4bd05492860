import { describe, expect, it } from 'vitest';
import { categoryGroups, groupOfReport, severityGroups, type SidebarReport } from './sidebar-model.ts';

const reports: SidebarReport[] = [
  { id: 'links/internal-broken', category: 'links', title: 'Broken internal links', severity: 'CRITICAL' },
  { id: 'content/duplicate', category: 'content', title: 'Duplicate content', severity: 'CRITICAL' },
  { id: 'content/thin', category: 'content', title: 'Thin content', severity: 'MEDIUM' },
  { id: 'content/empty', category: 'content', title: 'Empty pages', severity: 'CRITICAL' },
  { id: 'sitemap/all', category: 'sitemap', title: 'URLs in sitemaps', severity: 'NONE' },
  { id: 'analytics/missing', category: 'analytics', title: 'Pages without traffic', severity: 'LOW' },
];

const metrics = new Map([
  ['links/internal-broken', { rank: 60, rows: 10 }],
  ['content/duplicate', { rank: 60, rows: 40 }],
  ['content/thin', { rank: 30, rows: 5 }],
  ['content/empty', { rank: 0, rows: 0 }],
  ['sitemap/all', { rank: 0, rows: 900 }],
  ['analytics/missing', { rank: 12, rows: 80 }],
]);

const categories = [
  { id: 'sitemap', label: 'Sitemap', icon: 'sitemap' },
  { id: 'content', label: 'Content', icon: 'file-text' },
  { id: 'links', label: 'Links', icon: 'link' },
  { id: 'analytics', label: 'Analytics', icon: 'chart-bar' },
  { id: 'images', label: 'Images', icon: 'photo' },
] as const;

describe('severity view', () => {
  it('has one group per severity CRITICAL, HIGH, MEDIUM, LOW, without NONE', () => {
    const groups = severityGroups(reports, metrics);
    expect(groups.map((g) => g.id)).toEqual(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW']);
    expect(groups.flatMap((g) => g.reports).some((r) => r.severity === 'NONE')).toBe(false);
  });

  it('orders reports by rank, then row count, both descending', () => {
    const critical = severityGroups(reports, metrics)[0]!;
    expect(critical.reports.map((r) => r.id)).toEqual(['content/duplicate', 'links/internal-broken', 'content/empty']);
  });
});

describe('category view', () => {
  it('sorts categories by name and leaves out categories without reports', () => {
    const groups = categoryGroups(reports, categories, metrics);
    expect(groups.map((g) => g.label)).toEqual(['Analytics', 'Content', 'Links', 'Sitemap']);
    expect(groups[0]!.icon).toBe('chart-bar');
  });

  it('orders reports by rank, then row count, both descending', () => {
    const content = categoryGroups(reports, categories, metrics).find((g) => g.id === 'content')!;
    expect(content.reports.map((r) => r.id)).toEqual(['content/duplicate', 'content/thin', 'content/empty']);
  });

  it('breaks ties by title so the order is stable without data', () => {
    const content = categoryGroups(reports, categories, new Map()).find((g) => g.id === 'content')!;
    expect(content.reports.map((r) => r.title)).toEqual(['Duplicate content', 'Empty pages', 'Thin content']);
  });
});

describe('auto-open', () => {
  it('finds the group of the current report', () => {
    expect(groupOfReport(severityGroups(reports, metrics), 'content/thin')).toBe('MEDIUM');
    expect(groupOfReport(categoryGroups(reports, categories, metrics), 'content/thin')).toBe('content');
    expect(groupOfReport(severityGroups(reports, metrics), 'sitemap/all')).toBeUndefined();
    expect(groupOfReport(severityGroups(reports, metrics), undefined)).toBeUndefined();
  });
});
