import type { ReportDefinition } from '../../../catalog/schema.ts';
import type { CrawlTarget } from '../../engine/compile.ts';
import type { ReportEngine } from '../../engine/engine.ts';
import { shapeOf } from '../../engine/report-shape.ts';
import { tableOf } from '../../engine/result.ts';
import { textOf } from '../../db/duckdb.ts';

/**
 * URLs of a report's rows (all rows of the crawl, checked ones too) whose URL contains `/<report id>/`: the tests
 * that plant each report's rows under its own path read them back through the "URLs containing" filter.
 */
export async function reportRowUrls(engine: ReportEngine, report: ReportDefinition, target: CrawlTarget) {
  const result = await engine.rows({
    report,
    current: target,
    dataDateRange: target.defaultRange,
    differenceType: 'all',
    userFilter: `/${report.id}/`,
    showChecked: true,
    orderBy: [],
    limit: 1000,
    offset: 0,
  });
  const urls = tableOf(result.columns).getChild(shapeOf(report).urlColumn);
  if (!urls) throw new Error(`${report.id} does not return its URL column ${shapeOf(report).urlColumn}`);
  return [...urls].map(textOf);
}
