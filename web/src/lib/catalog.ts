/** The dashboard's view of the catalogue it ships: visibility rules and headings on top of catalog/. */
import { categories, categoryById, columnById, columns, reportById, reports } from '../../../catalog/index.ts';
import type { ReportDefinition } from '../../../catalog/schema.ts';

export { categories, categoryById, columnById, columns, reportById, reports };

export function categoryLabel(id: string): string {
  return categoryById(id)?.label ?? id;
}

export interface VisibilityContext {
  /** The selected segment has hreflang enabled. */
  isHreflang: boolean;
}

/** Hidden categories list no reports; hreflang reports need a segment with hreflang (spec §2). */
export function isReportVisible(report: ReportDefinition, context: VisibilityContext): boolean {
  const category = categoryById(report.category);
  if (!category || category.isHidden) return false;
  if (category.isHreflangOnly && !context.isHreflang) return false;
  return true;
}

export function visibleReports(context: VisibilityContext): ReportDefinition[] {
  return reports.filter((r) => isReportVisible(r, context));
}

/** The report of a route, or undefined when unknown or not shown for this website ('report could not be found.'). */
export function findVisibleReport(
  category: string,
  report: string,
  context: VisibilityContext,
): ReportDefinition | undefined {
  const found = reportById(`${category}/${report}`);
  return found && isReportVisible(found, context) ? found : undefined;
}

/** 'Category: Report title' (spec §2). */
export function reportHeading(report: ReportDefinition): string {
  return `${categoryLabel(report.category)}: ${report.title}`;
}
