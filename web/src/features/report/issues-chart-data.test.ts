import { describe, expect, it } from 'vitest';
import { CSV_BOM } from '../../../../catalog/constants.ts';
import { crawlLabels, type LabelledCrawl } from '../../../../catalog/crawl-label.ts';
import type { TrendPoint } from '../../api/types.ts';
import { issuesChartCsv, pointsOf } from './issues-chart-data.ts';

// Midday in UTC, so the date column (the browser's zone) reads the same day in any zone within nine hours of it.
const crawls: LabelledCrawl[] = [
  { crawlId: 1, crawledAt: '2026-11-09T12:00:00Z', partial: null },
  { crawlId: 2, crawledAt: '2026-11-16T10:00:00Z', partial: null },
  { crawlId: 3, crawledAt: '2026-11-16T12:30:00Z', partial: 'stopped' },
  { crawlId: 4, crawledAt: '2026-11-16T14:05:00Z', partial: null },
];
const labels = crawlLabels(crawls);
/** As the summary sends them: newest first, each with its label. */
const trends: TrendPoint[] = [...crawls]
  .reverse()
  .map((c) => ({ crawlId: c.crawlId, crawledAt: c.crawledAt, label: labels.get(c.crawlId)!, issues: 100 + c.crawlId }));

describe('issuesChartCsv', () => {
  it('writes a row per crawl, oldest first, each with its unique label, so crawls of one day are told apart', () => {
    const csv = issuesChartCsv(pointsOf(trends));
    expect(csv.startsWith(CSV_BOM)).toBe(true);
    expect(csv.slice(CSV_BOM.length).split('\r\n')).toEqual([
      'date,crawl,issues',
      '2026-11-09,9 Nov 2026 (crawl 1),101',
      '2026-11-16,"16 Nov 2026, 10:00 (crawl 2)",102',
      '2026-11-16,"16 Nov 2026, 12:30 (crawl 3, partial)",103',
      '2026-11-16,"16 Nov 2026, 14:05 (crawl 4)",104',
      '',
    ]);
  });
});
