/**
 * Catalogue validation, layers 1 and 2: every entry against its zod schema, then every reference between
 * entries and against the export contract. Each problem is located, as in
 * `reports[12] (links/internal-broken).datatableColumns[3]: column "foo" is not in table links`.
 * Layer 3 (EXPLAIN of each compiled report on fixture data) belongs to the query engine.
 */
import type { z } from 'zod';
import { exportTables, type ExportTable } from '../../catalog/export-contract.ts';
import { HTML_PAGE_COLUMNS } from '../../catalog/schema.ts';
import {
  catalogColumnSchema,
  categorySchema,
  keyDateSchema,
  reportDefinitionSchema,
  sourceTableIds,
  type CatalogColumn,
  type Category,
  type ReportDefinition,
  type SourceTableId,
} from '../../catalog/schema.ts';
import { FILTER_FUNCTIONS, parseFilter } from './filter.ts';

export class CatalogError extends Error {
  readonly issues: readonly string[];

  constructor(issues: readonly string[]) {
    super(`invalid catalogue, ${issues.length} problem(s):\n${issues.map((issue) => `  ${issue}`).join('\n')}`);
    this.name = 'CatalogError';
    this.issues = issues;
  }
}

/** The catalogue as validation sees it: entries are checked, not trusted. */
export interface CatalogInput {
  readonly categories: readonly unknown[];
  readonly reports: readonly unknown[];
  readonly columns: readonly unknown[];
  readonly keyDates?: readonly unknown[];
  readonly constants: { readonly filterConstants: Readonly<Record<string, unknown>> };
}

type ColumnType = CatalogColumn['type'];

/** The catalogue type a DuckDB type of the export contract reads as; undefined when none fits. */
export function columnTypeOf(duckType: string): ColumnType | undefined {
  const type = duckType.trim().toUpperCase();
  if (type.endsWith('[]')) {
    if (type.startsWith('STRUCT(')) return 'struct-list';
    return type === 'VARCHAR[]' ? 'string-list' : undefined;
  }
  if (type === 'VARCHAR') return 'string';
  if (['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT', 'UINTEGER', 'UBIGINT'].includes(type)) return 'integer';
  if (['FLOAT', 'REAL', 'DOUBLE'].includes(type) || type.startsWith('DECIMAL')) return 'number';
  if (type === 'BOOLEAN') return 'boolean';
  if (type === 'DATE') return 'date';
  return undefined;
}

/** Field names of the STRUCT types among a table's columns. */
function structFieldsOf(table: ExportTable): Set<string> {
  const fields = new Set<string>();
  for (const column of table.columns) {
    for (const struct of column.type.matchAll(/STRUCT\(([^()]*)\)/g)) {
      for (const field of (struct[1] ?? '').split(',')) {
        const name = /^\s*"?([A-Za-z_][A-Za-z0-9_]*)"?\s/.exec(field)?.[1];
        if (name) fields.add(name);
      }
    }
  }
  return fields;
}

/** Which source table each sub-row kind reads its data from. */
const subRowTables: Record<NonNullable<ReportDefinition['subRow']>, SourceTableId> = {
  'redirect-chain': 'urls',
  'duplicate-set': 'urls',
  'link-sources': 'unique_links',
};
const linkTables: readonly SourceTableId[] = ['links', 'unique_links'];
/** Joined columns that are SQL columns of the row, usable in filters. */
const sqlJoins: readonly CatalogColumn['joinedFrom'][] = ['search_console', 'analytics', 'ads'];

const locate = (section: string, index: number, item: unknown): string => {
  const id = typeof item === 'object' && item !== null && 'id' in item ? item.id : undefined;
  return typeof id === 'string' ? `${section}[${index}] (${id})` : `${section}[${index}]`;
};

const formatPath = (path: readonly PropertyKey[]): string =>
  path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');

/** Layer 1: parses every entry strictly (unknown keys are errors); returns the parsed entries by index. */
function parseEntries<T>(
  section: string,
  items: readonly unknown[],
  schema: z.ZodType<T>,
  issues: string[],
): (T | undefined)[] {
  return items.map((item, index) => {
    const result = schema.safeParse(item);
    if (result.success) return result.data;
    for (const issue of result.error.issues)
      issues.push(`${locate(section, index, item)}${formatPath(issue.path)}: ${issue.message}`);
    return undefined;
  });
}

const isFilterConstant = (value: unknown): boolean =>
  (typeof value === 'number' && Number.isFinite(value)) ||
  (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'number' && Number.isFinite(v)));

function checkUniqueIds(section: string, entries: readonly ({ id: string } | undefined)[], issues: string[]): void {
  const first = new Map<string, number>();
  entries.forEach((entry, index) => {
    if (!entry) return;
    const seen = first.get(entry.id);
    if (seen === undefined) first.set(entry.id, index);
    else issues.push(`${locate(section, index, entry)}.id: duplicate id, first used at ${section}[${seen}]`);
  });
}

/** The export contract's tables, and each table's column types by name. */
interface ContractIndex {
  tables: Map<string, ExportTable>;
  columns: Map<string, Map<string, string>>;
}

/** What layer 2 checks an entry against; problems go to `issues`. */
interface References {
  contract: ContractIndex;
  categoryById: Map<string, Category>;
  columnById: Map<string, CatalogColumn>;
  filterConstants: Readonly<Record<string, unknown>>;
  issues: string[];
}

function checkFilterConstants(filterConstants: Readonly<Record<string, unknown>>, issues: string[]): void {
  for (const [name, value] of Object.entries(filterConstants))
    if (!isFilterConstant(value))
      issues.push(`constants.filterConstants.${name}: must be a finite number or a non-empty list of finite numbers`);
}

function indexContract(contract: readonly ExportTable[], issues: string[]): ContractIndex {
  const tables = new Map(contract.map((table) => [table.id, table]));
  const columns = new Map(
    contract.map((table) => [table.id, new Map(table.columns.map((column) => [column.name, column.type]))]),
  );
  const missingTables = sourceTableIds.filter((id) => !tables.has(id));
  if (missingTables.length > 0) issues.push(`export contract: no table ${missingTables.join(', ')}`);
  return { tables, columns };
}

/** Categories by id (the first of a repeated id), checking that no two share an order. */
function indexCategories(categories: readonly (Category | undefined)[], issues: string[]): Map<string, Category> {
  const categoryById = new Map<string, Category>();
  const orders = new Map<number, number>();
  categories.forEach((category, index) => {
    if (!category) return;
    if (!categoryById.has(category.id)) categoryById.set(category.id, category);
    const seen = orders.get(category.order);
    if (seen === undefined) orders.set(category.order, index);
    else
      issues.push(
        `${locate('categories', index, category)}.order: ${category.order} is also used by categories[${seen}]`,
      );
  });
  return categoryById;
}

/** A column's tables, types, display column and source against the contract and the other columns. */
function checkColumn(column: CatalogColumn, at: string, refs: References): void {
  const { contract, columnById, issues } = refs;
  const seenTables = new Set<string>();
  column.tables.forEach((tableId, t) => {
    if (seenTables.has(tableId)) issues.push(`${at}.tables[${t}]: table ${tableId} is listed twice`);
    seenTables.add(tableId);
    const duckType = contract.columns.get(tableId)?.get(column.id);
    if (duckType === undefined) {
      if (!column.joinedFrom)
        issues.push(`${at}.tables[${t}]: "${column.id}" is not a column of table ${tableId}, and it is not joined`);
      return;
    }
    if (column.joinedFrom)
      issues.push(`${at}.joinedFrom: "${column.id}" is a column of table ${tableId}, so it cannot be joined`);
    const expected = columnTypeOf(duckType);
    if (expected !== column.type)
      issues.push(`${at}.type: "${column.type}" does not match ${tableId}.${column.id} ${duckType}`);
  });
  if (!columnById.has(column.displayColumn))
    issues.push(`${at}.displayColumn: "${column.displayColumn}" is not a catalogue column`);
  if (column.isQuery && column.type !== 'string')
    issues.push(`${at}.isQuery: a query-valued column must be a string, not ${column.type}`);
  if (column.aggregate !== undefined && !sqlJoins.includes(column.joinedFrom))
    issues.push(`${at}.aggregate: only a metric joined from ${sqlJoins.join(', ')} has an aggregate`);
  if (column.source) {
    const duckType = contract.columns.get(column.source.table)?.get(column.source.column);
    if (!contract.tables.has(column.source.table))
      issues.push(`${at}.source.table: "${column.source.table}" is not an export table`);
    else if (duckType === undefined)
      issues.push(`${at}.source.column: "${column.source.column}" is not a column of ${column.source.table}`);
    else if (columnTypeOf(duckType) !== column.type)
      issues.push(
        `${at}.type: "${column.type}" does not match ${column.source.table}.${column.source.column} ${duckType}`,
      );
  }
}

/** A report being checked, with its location and its export table. */
interface ReportAt {
  report: ReportDefinition;
  at: string;
  table: ExportTable | undefined;
  tableColumns: Map<string, string>;
}

/** A report's category, severity, content and internal types and sub-row kind against its table. */
function checkReportPlacement({ report, at, tableColumns }: ReportAt, refs: References): void {
  const { issues } = refs;
  const category = refs.categoryById.get(report.category);
  const prefix = report.id.split('/')[0];
  if (prefix !== report.category)
    issues.push(`${at}.category: "${report.category}" does not match the id's prefix "${prefix}"`);
  if (!category) issues.push(`${at}.category: "${report.category}" is not in the catalogue's categories`);
  else if (category.isHidden)
    issues.push(`${at}.category: category "${report.category}" is hidden and lists no reports`);

  if (report.severity === 'NONE' && report.includeTrends)
    issues.push(`${at}.includeTrends: a NONE report has no issues over time, so it must be false`);

  const isLinkTable = linkTables.includes(report.tableId);
  if (isLinkTable !== (report.contentType === 'link'))
    issues.push(
      `${at}.contentType: "${report.contentType}" does not suit table ${report.tableId} (link tables use "link", others do not)`,
    );
  if (report.contentType === 'html' && !HTML_PAGE_COLUMNS.every((column) => tableColumns.has(column)))
    issues.push(
      `${at}.contentType: "html" needs the ${HTML_PAGE_COLUMNS.join(', ')} columns, which table ${report.tableId} lacks; use "none"`,
    );
  if (report.internalType !== 'all' && !tableColumns.has('internal'))
    issues.push(
      `${at}.internalType: "${report.internalType}" needs an internal column, which table ${report.tableId} lacks; use "all"`,
    );
  if (report.subRow && subRowTables[report.subRow] !== report.tableId)
    issues.push(`${at}.subRow: "${report.subRow}" needs table ${subRowTables[report.subRow]}, not ${report.tableId}`);
}

/** A report's key, sub-key and datatable columns: catalogue columns of its table, keys not joined, the table key in. */
function checkReportColumns({ report, at, table, tableColumns }: ReportAt, refs: References): void {
  const { issues } = refs;
  for (const list of ['keyColumns', 'subKeyColumns', 'datatableColumns'] as const) {
    const seen = new Set<string>();
    report[list].forEach((id, i) => {
      if (seen.has(id)) issues.push(`${at}.${list}[${i}]: column "${id}" is listed twice`);
      seen.add(id);
      const column = refs.columnById.get(id);
      if (!column)
        issues.push(
          `${at}.${list}[${i}]: column "${id}" is not in table ${report.tableId} (no catalogue column has that id)`,
        );
      else if (!column.tables.includes(report.tableId))
        issues.push(`${at}.${list}[${i}]: column "${id}" is not in table ${report.tableId}`);
      else if (list !== 'datatableColumns' && !tableColumns.has(id))
        issues.push(`${at}.${list}[${i}]: key column "${id}" must be a column of table ${report.tableId}, not joined`);
    });
  }
  const missingKey = (table?.key ?? []).filter((key) => !report.keyColumns.includes(key));
  if (missingKey.length > 0)
    issues.push(
      `${at}.keyColumns: must include the table key (${table?.key.join(', ')}) so rows are unique; missing ${missingKey.join(', ')}`,
    );
  report.subKeyColumns.forEach((id, i) => {
    if (!report.keyColumns.includes(id)) issues.push(`${at}.subKeyColumns[${i}]: "${id}" is not one of the keyColumns`);
  });
}

/** A report's filter: its placeholders, functions, identifiers and struct fields. */
function checkReportFilter({ report, at, table, tableColumns }: ReportAt, refs: References): void {
  const { issues } = refs;
  const category = refs.categoryById.get(report.category);
  const parts = parseFilter(report.filter);
  for (const problem of parts.problems) issues.push(`${at}.filter: ${problem}`);
  for (const name of parts.placeholders)
    if (!Object.hasOwn(refs.filterConstants, name))
      issues.push(`${at}.filter: placeholder {${name}} is not in filterConstants`);
  for (const name of parts.functions)
    if (!FILTER_FUNCTIONS.has(name)) issues.push(`${at}.filter: function "${name}" is not allowed in filters`);
  for (const name of parts.columns) {
    const joined = refs.columnById.get(name);
    const isJoinedMetric =
      joined !== undefined && sqlJoins.includes(joined.joinedFrom) && joined.tables.includes(report.tableId);
    if (!tableColumns.has(name) && !isJoinedMetric)
      issues.push(`${at}.filter: identifier "${name}" is not a column of table ${report.tableId} or a joined metric`);
    if (name.startsWith('hreflang') && !category?.isHreflangOnly)
      issues.push(
        `${at}.filter: uses hreflang column "${name}", so the report belongs in a hreflang-only category, not "${report.category}"`,
      );
  }
  const structFields = table ? structFieldsOf(table) : new Set<string>();
  for (const name of parts.fields)
    if (!structFields.has(name))
      issues.push(`${at}.filter: field "${name}" is not a struct field of any column of table ${report.tableId}`);
}

function checkReport(report: ReportDefinition, at: string, refs: References): void {
  const checked: ReportAt = {
    report,
    at,
    table: refs.contract.tables.get(report.tableId),
    tableColumns: refs.contract.columns.get(report.tableId) ?? new Map<string, string>(),
  };
  checkReportPlacement(checked, refs);
  checkReportColumns(checked, refs);
  checkReportFilter(checked, refs);
}

/**
 * Validates the catalogue; throws a CatalogError listing every problem found. Layer 2 runs on the entries that
 * pass layer 1, so one broken entry does not hide problems elsewhere. The input is never modified.
 */
export function validateCatalog(catalog: CatalogInput, contract: readonly ExportTable[] = exportTables): void {
  const issues: string[] = [];

  // Layer 1: schemas
  const categories = parseEntries<Category>('categories', catalog.categories, categorySchema.strict(), issues);
  const reports = parseEntries<ReportDefinition>('reports', catalog.reports, reportDefinitionSchema.strict(), issues);
  const columns = parseEntries<CatalogColumn>('columns', catalog.columns, catalogColumnSchema.strict(), issues);
  parseEntries('keyDates', catalog.keyDates ?? [], keyDateSchema.strict(), issues);
  checkFilterConstants(catalog.constants.filterConstants, issues);

  // Layer 2: references
  checkUniqueIds('categories', categories, issues);
  checkUniqueIds('reports', reports, issues);
  checkUniqueIds('columns', columns, issues);
  const contractIndex = indexContract(contract, issues);
  const categoryById = indexCategories(categories, issues);
  const columnById = new Map<string, CatalogColumn>();
  for (const column of columns) if (column && !columnById.has(column.id)) columnById.set(column.id, column);
  const refs: References = {
    contract: contractIndex,
    categoryById,
    columnById,
    filterConstants: catalog.constants.filterConstants,
    issues,
  };
  columns.forEach((column, index) => {
    if (column) checkColumn(column, locate('columns', index, column), refs);
  });
  reports.forEach((report, index) => {
    if (report) checkReport(report, locate('reports', index, report), refs);
  });

  if (issues.length > 0) throw new CatalogError(issues);
}
