/**
 * Which Parquet column types the loader accepts for a contract type. Besides an exact match, only widenings
 * that convert every value without loss are accepted (timestamps: to microseconds, TIMESTAMP WITH TIME ZONE
 * read as UTC); everything else is a type error.
 */
import { DuckDBTypeId, type DuckDBConnection, type DuckDBType } from '@duckdb/node-api';

const T = DuckDBTypeId;

export const SAFE_WIDENINGS: Readonly<Partial<Record<DuckDBTypeId, readonly DuckDBTypeId[]>>> = {
  [T.SMALLINT]: [T.TINYINT, T.UTINYINT],
  [T.INTEGER]: [T.TINYINT, T.SMALLINT, T.UTINYINT, T.USMALLINT],
  [T.BIGINT]: [T.TINYINT, T.SMALLINT, T.INTEGER, T.UTINYINT, T.USMALLINT, T.UINTEGER],
  [T.DOUBLE]: [T.FLOAT, T.TINYINT, T.SMALLINT, T.INTEGER, T.UTINYINT, T.USMALLINT, T.UINTEGER],
  [T.TIMESTAMP]: [T.TIMESTAMP_S, T.TIMESTAMP_MS, T.TIMESTAMP_NS, T.TIMESTAMP_TZ],
  [T.VARCHAR]: [T.ENUM],
};

/** exact: read as is; widening: read with a CAST to the contract type; mismatch: refused. */
export type TypeMatch = 'exact' | 'widening' | 'mismatch';

export function matchType(expected: DuckDBType, actual: DuckDBType): TypeMatch {
  if (expected.toString() === actual.toString()) return 'exact';
  if (expected.typeId === T.LIST && actual.typeId === T.LIST) {
    return matchType(expected.valueType, actual.valueType) === 'mismatch' ? 'mismatch' : 'widening';
  }
  if (expected.typeId === T.STRUCT && actual.typeId === T.STRUCT) {
    const names = expected.entryNames;
    if (names.length !== actual.entryNames.length || names.some((n, i) => n !== actual.entryNames[i]))
      return 'mismatch';
    const inner = expected.entryTypes.map((t, i) => matchType(t, actual.entryTypes[i] ?? t));
    if (inner.includes('mismatch')) return 'mismatch';
    return inner.every((m) => m === 'exact') ? 'exact' : 'widening';
  }
  return SAFE_WIDENINGS[expected.typeId]?.includes(actual.typeId) ? 'widening' : 'mismatch';
}

/** Whether a widening needs the session time zone pinned to UTC (TIMESTAMP WITH TIME ZONE anywhere inside). */
export function hasTimeZone(type: DuckDBType): boolean {
  if (type.typeId === T.TIMESTAMP_TZ) return true;
  if (type.typeId === T.LIST || type.typeId === T.ARRAY) return hasTimeZone(type.valueType);
  if (type.typeId === T.STRUCT) return type.entryTypes.some(hasTimeZone);
  return false;
}

/** Resolves SQL type names (as the contract spells them) to DuckDB's own type objects. */
export async function resolveTypes(
  conn: DuckDBConnection,
  sqlTypes: readonly string[],
): Promise<Map<string, DuckDBType>> {
  const distinct = [...new Set(sqlTypes)];
  const resolved = new Map<string, DuckDBType>();
  if (distinct.length === 0) return resolved;
  const result = await conn.run(`SELECT ${distinct.map((t, i) => `NULL::${t} AS c${i}`).join(', ')} LIMIT 0`);
  const types = result.columnTypes();
  distinct.forEach((t, i) => {
    const type = types[i];
    if (type) resolved.set(t, type);
  });
  return resolved;
}
