/** Shapes of the service's answers, as the dashboard reads them. */
import type { Severity } from '../../../catalog/schema.ts';

export type Role = 'CLIENT' | 'STAFF' | 'ADMIN';

export interface SessionUser {
  email: string;
  role: Role;
  websites?: string[];
}

export interface SessionAnswer {
  user: SessionUser;
  csrfToken: string;
}

export interface WebsiteSegment {
  id: string;
  name: string;
  isHreflang: boolean;
  isAi: boolean;
  goalType: 'conversion' | 'ecommerce' | null;
  isDefault: boolean;
}

export type ModuleId = 'technical-health-check' | 'additional-health-check' | 'uptime-report' | 'carbon-footprint';

export interface WebsiteModule {
  module: ModuleId;
  isActive: boolean;
  reason?: 'missing-module' | 'missing-setup-id';
}

export interface Website {
  id: string;
  name: string;
  domain: string;
  segments: WebsiteSegment[];
  modules: WebsiteModule[];
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
