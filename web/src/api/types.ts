/** Shapes of the service's answers, as the dashboard reads them. */
import type { Severity } from '../../../catalog/schema.ts';
import type { Role } from '../../../service/app-db/model.ts';

export type { Role, Website } from '../../../service/app-db/model.ts';
export type {
  ModuleName as ModuleId,
  ModuleStatus as WebsiteModule,
  Segment as WebsiteSegment,
} from '../../../service/app-db/model.ts';

export interface SessionUser {
  email: string;
  role: Role;
  websites?: string[];
}

export interface SessionAnswer {
  user: SessionUser;
  csrfToken: string;
}

export type ModuleState = 'PENDING' | 'APPROVED';

export interface Crawl {
  id: string | number;
  crawlId: number;
  crawledAt: string;
  crawledFriendly: string;
  dataStart: string;
  dataEnd: string;
  moduleState: ModuleState;
}

export interface OverviewReport {
  tableId: string;
  reportId: string;
  ems_rank: number;
  ems_lumar_row_count: number;
  added?: number;
  removed?: number;
  title?: string;
  [key: string]: unknown;
}

export interface Overview {
  moduleId: string | number;
  severityMap: Partial<Record<Severity, { reports: OverviewReport[] }>>;
}

export type DifferenceType = 'all' | 'added' | 'removed';

export interface DateRange {
  start: string;
  end: string;
}

export interface TrendPoint {
  crawlId: number;
  crawledAt: string;
  issues: number;
}

export interface ReportSummary {
  trends: TrendPoint[];
  differences: { all: number; added: number; removed: number };
}

export interface SortOrder {
  id: string;
  desc: boolean;
}
