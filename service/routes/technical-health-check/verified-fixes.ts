/**
 * The fixes a crawl verified (issue 30 §2): per report, the rows checked on the checklist that the crawl removed with
 * reason fixed, against its comparison. Counted over the precomputed Removed rows when the comparison is the one they
 * were diffed against, otherwise live; reports with nothing checked cost no query.
 */
import { reportById } from '../../../catalog/index.ts';
import { checkedKeysRelation } from '../../engine/compile.ts';
import { tabRequest, type ReportEngine } from '../../engine/engine.ts';
import type { CrawlRecord } from '../../store/registry.ts';
import type { CheckedKeysProvider } from './report-call.ts';

/** The reports of a website with an item checked at a crawl. */
export type CheckedReportsProvider = (websiteId: string, crawlId: number) => Promise<string[]>;

export async function verifiedFixesByReport(
  engine: ReportEngine,
  checklist: { checkedReports: CheckedReportsProvider; checkedKeys: CheckedKeysProvider },
  current: CrawlRecord,
  comparison: CrawlRecord,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const reportIds = await checklist.checkedReports(current.websiteId, current.crawlId);
  if (reportIds.length === 0) return counts;
  const [currentTarget, comparisonTarget] = await Promise.all([engine.target(current), engine.target(comparison)]);
  for (const reportId of reportIds) {
    const report = reportById(reportId);
    if (!report || report.severity === 'NONE') continue;
    const checked = checkedKeysRelation(
      report,
      await checklist.checkedKeys(current.websiteId, reportId, current.crawlId),
    );
    if (!checked) continue;
    const verified = await engine.count({
      ...tabRequest(report, currentTarget, comparisonTarget, 'removed'),
      removalReason: 'fixed',
      checked,
      isOnlyChecked: true,
    });
    counts.set(reportId, verified);
  }
  return counts;
}

/** Every report's verified fixes added up. */
export const totalOf = (counts: ReadonlyMap<string, number>): number => [...counts.values()].reduce((a, b) => a + b, 0);
