import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/duckdb.ts';
import { hasTimeZone, matchType, resolveTypes } from './column-types.ts';

let db: DuckDBInstance;
let conn: DuckDBConnection;

beforeAll(async () => {
  db = await openDatabase();
  conn = await db.connect();
});

afterAll(() => {
  conn.closeSync();
  db.closeSync();
});

async function match(expected: string, actual: string): Promise<string> {
  const types = await resolveTypes(conn, [expected, actual]);
  return matchType(types.get(expected)!, types.get(actual)!);
}

const HOP = (statusType: string): string =>
  `STRUCT(url VARCHAR, status_code ${statusType}, redirects_to VARCHAR, is_js_redirect BOOLEAN, is_meta_redirect BOOLEAN)[]`;

describe('matchType', () => {
  it.each([
    ['VARCHAR', 'VARCHAR'],
    ['INTEGER', 'INTEGER'],
    ['DOUBLE', 'DOUBLE'],
    ['DATE', 'DATE'],
    ['VARCHAR[]', 'VARCHAR[]'],
    [HOP('INTEGER'), HOP('INTEGER')],
    [
      'STRUCT("year" INTEGER, "month" INTEGER, search_volume BIGINT)[]',
      'STRUCT(year INTEGER, month INTEGER, search_volume BIGINT)[]',
    ],
  ])('%s accepts %s as is', async (expected, actual) => {
    expect(await match(expected, actual)).toBe('exact');
  });

  it.each([
    ['SMALLINT', 'TINYINT'],
    ['INTEGER', 'TINYINT'],
    ['INTEGER', 'SMALLINT'],
    ['INTEGER', 'UTINYINT'],
    ['INTEGER', 'USMALLINT'],
    ['BIGINT', 'INTEGER'],
    ['BIGINT', 'UINTEGER'],
    ['DOUBLE', 'FLOAT'],
    ['DOUBLE', 'INTEGER'],
    ['TIMESTAMP', 'TIMESTAMP_S'],
    ['TIMESTAMP', 'TIMESTAMP_MS'],
    ['TIMESTAMP', 'TIMESTAMP_NS'],
    ['TIMESTAMP', 'TIMESTAMPTZ'],
    ['VARCHAR', "ENUM('a', 'b')"],
    ['BIGINT[]', 'INTEGER[]'],
    [HOP('INTEGER'), HOP('SMALLINT')],
  ])('%s accepts the safe widening %s', async (expected, actual) => {
    expect(await match(expected, actual)).toBe('widening');
  });

  it.each([
    ['INTEGER', 'BIGINT'],
    ['INTEGER', 'UINTEGER'],
    ['BIGINT', 'UBIGINT'],
    ['BIGINT', 'HUGEINT'],
    ['INTEGER', 'VARCHAR'],
    ['INTEGER', 'DOUBLE'],
    ['DOUBLE', 'BIGINT'],
    ['DOUBLE', 'DECIMAL(10,2)'],
    ['BOOLEAN', 'INTEGER'],
    ['DATE', 'TIMESTAMP'],
    ['TIMESTAMP', 'DATE'],
    ['VARCHAR', 'BLOB'],
    ['VARCHAR[]', 'VARCHAR'],
    ['VARCHAR', 'VARCHAR[]'],
    ['INTEGER[]', 'BIGINT[]'],
    [HOP('INTEGER'), HOP('BIGINT')],
    [HOP('INTEGER'), 'STRUCT(url VARCHAR, status_code INTEGER)[]'],
    [HOP('INTEGER'), HOP('INTEGER').replace('redirects_to', 'target')],
  ])('%s refuses %s', async (expected, actual) => {
    expect(await match(expected, actual)).toBe('mismatch');
  });
});

describe('hasTimeZone', () => {
  it('finds TIMESTAMP WITH TIME ZONE at any depth', async () => {
    const types = await resolveTypes(conn, ['TIMESTAMPTZ', 'STRUCT(a TIMESTAMPTZ)[]', 'TIMESTAMP']);
    expect(hasTimeZone(types.get('TIMESTAMPTZ')!)).toBe(true);
    expect(hasTimeZone(types.get('STRUCT(a TIMESTAMPTZ)[]')!)).toBe(true);
    expect(hasTimeZone(types.get('TIMESTAMP')!)).toBe(false);
  });
});
