/** The catalogue as one object, plus look-ups by id. */
import { categories } from './categories.ts';
import { columns } from './columns.ts';
import * as constants from './constants.ts';
import keyDatesJson from './key-dates.json' with { type: 'json' };
import { reports } from './reports.ts';
import type { CatalogColumn, Category, KeyDate, ReportDefinition } from './schema.ts';

/** Typed as the schema says; service/catalog/validate.ts checks the file against it at boot. */
const keyDates = keyDatesJson as KeyDate[];

export const catalog = { categories, reports, columns, constants, keyDates } as const;
export type Catalog = typeof catalog;

export { categories, columns, constants, keyDates, reports };
export { filterConstants, type FilterConstantName } from './constants.ts';
export type { CatalogColumn, Category, KeyDate, ReportDefinition, Severity, SourceTableId } from './schema.ts';

const byId = <T extends { id: string }>(items: readonly T[]): ReadonlyMap<string, T> =>
  new Map(items.map((item) => [item.id, item]));
const reportIndex = byId(reports);
const columnIndex = byId(columns);
const categoryIndex = byId(categories);

export const reportById = (id: string): ReportDefinition | undefined => reportIndex.get(id);
export const columnById = (id: string): CatalogColumn | undefined => columnIndex.get(id);
export const categoryById = (id: string): Category | undefined => categoryIndex.get(id);

/** The report page's route (spec §2). */
export const reportUrl = (report: Pick<ReportDefinition, 'id'>): string => `/technical-health-check/${report.id}`;
