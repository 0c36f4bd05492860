/**
 * SQL as text plus bound values. Every value reaches DuckDB as a positional `?` parameter; only identifiers from
 * the catalogue and the export contract (quoted) and numbers the engine validated are ever written into the text.
 */
import { quoteIdent } from '../db/duckdb.ts';

/** A bound value: scalars, or a list of strings (bound as VARCHAR[]). */
export type SqlValue = string | number | boolean | null | readonly string[];

export class SqlFragment {
  constructor(
    readonly sql: string,
    readonly params: readonly SqlValue[] = [],
  ) {}

  get isEmpty(): boolean {
    return this.sql.trim() === '';
  }
}

/** Trusted text: an identifier already quoted, a keyword, or a catalogue expression. */
export const raw = (text: string): SqlFragment => new SqlFragment(text);

export const ident = (name: string): SqlFragment => raw(quoteIdent(name));

/** `"alias"."table"`. */
export const tableRef = (alias: string, table: string): SqlFragment => raw(`${quoteIdent(alias)}.${quoteIdent(table)}`);

/** A non-negative safe integer written into the text (LIMIT, OFFSET, ordinals). */
export function int(value: number): SqlFragment {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a non-negative integer: ${value}`);
  return raw(String(value));
}

/**
 * Template tag: interpolated SqlFragments are spliced in with their params, anything else becomes a `?` bound
 * to that value, so `sql\`url = ${userText}\`` can never inject.
 */
export function sql(strings: TemplateStringsArray, ...values: readonly (SqlValue | SqlFragment)[]): SqlFragment {
  let text = strings[0] ?? '';
  const params: SqlValue[] = [];
  values.forEach((value, i) => {
    if (value instanceof SqlFragment) {
      text += value.sql;
      params.push(...value.params);
    } else {
      text += '?';
      params.push(value);
    }
    text += strings[i + 1] ?? '';
  });
  return new SqlFragment(text, params);
}

export function joinSql(parts: readonly SqlFragment[], separator: string): SqlFragment {
  return new SqlFragment(
    parts.map((p) => p.sql).join(separator),
    parts.flatMap((p) => p.params),
  );
}

/** `(a) AND (b) ...`, or TRUE when there is nothing to combine. */
export function and(parts: readonly (SqlFragment | undefined)[]): SqlFragment {
  const present = parts.filter((p): p is SqlFragment => p !== undefined && !p.isEmpty);
  if (present.length === 0) return raw('TRUE');
  return joinSql(
    present.map((p) => sql`(${p})`),
    ' AND ',
  );
}

/** A stable text for cache keys: the SQL and its bound values. */
export const fragmentKey = (f: SqlFragment): string => `${f.sql}\u0000${JSON.stringify(f.params)}`;
