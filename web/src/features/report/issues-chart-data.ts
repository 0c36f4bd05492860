/** The issues chart's points, and its "Download data" CSV: DOM-free, so both are tested without a browser. */
import { format as formatDateFns } from 'date-fns';
import { crawlTickText } from '../../../../catalog/crawl-label.ts';
import { toCsv } from '../../../../catalog/csv.ts';
import { formatDate, toDate } from '../../../../catalog/format.ts';
import type { TrendPoint } from '../../api/types.ts';

export interface Point {
  date: Date;
  issues: number;
  /** The crawl's label (catalog/crawl-label.ts), for the tooltip, the table and the CSV. */
  label: string;
  /** The label on two lines, for the axis. */
  tick: string;
}

/** One point per crawl, oldest first; a crawl without a valid date or count is left out. */
export function pointsOf(trends: readonly TrendPoint[]): Point[] {
  return trends
    .map((t) => {
      const date = toDate(t.crawledAt);
      const label = t.label || (date ? formatDate(date) : '');
      return { date, issues: Number(t.issues), label, tick: crawlTickText(label) };
    })
    .filter((p): p is Point => p.date !== null && Number.isFinite(p.issues))
    .sort((a, b) => a.date.getTime() - b.date.getTime());
}

/**
 * A row per crawl: its date, its label (unique among the website's crawls, so crawls made on one day are told apart)
 * and its issues.
 */
export function issuesChartCsv(points: readonly Point[]): string {
  return toCsv(
    ['date', 'crawl', 'issues'],
    points.map((p) => [formatDateFns(p.date, 'yyyy-MM-dd'), p.label, String(p.issues)]),
  );
}
