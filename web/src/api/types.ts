/** Shapes of the service's answers, as the dashboard reads them: the API's own types, under the dashboard's names. */
export type {
  Crawl,
  DateRange,
  DifferenceType,
  ModuleName as ModuleId,
  ModuleState,
  ModuleStatus as WebsiteModule,
  Overview,
  OverviewReport,
  ReportSummary,
  Role,
  Segment as WebsiteSegment,
  SessionAnswer,
  SessionUser,
  SortOrder,
  TrendPoint,
  Website,
} from '../../../catalog/api.ts';
