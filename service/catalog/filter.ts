/**
 * Report filters, read crudely but safely: enough to name every column, struct field, function and `{NAME}`
 * placeholder a filter uses, so the catalogue can be checked against the export contract before any SQL runs.
 */
/** SQL words a filter may use that are not column names (compared case-insensitively). */
export const FILTER_KEYWORDS: ReadonlySet<string> = new Set([
  'and',
  'or',
  'not',
  'in',
  'is',
  'null',
  'between',
  'true',
  'false',
  'like',
  'ilike',
  'distinct',
  'from',
  'lambda',
  'case',
  'when',
  'then',
  'else',
  'end',
]);

/** Functions a filter may call (compared case-insensitively). */
export const FILTER_FUNCTIONS: ReadonlySet<string> = new Set([
  'coalesce',
  'len',
  'list_filter',
  'list_contains',
  'lower',
  'upper',
  'length',
  'starts_with',
  'ends_with',
  'contains',
]);

export interface FilterParts {
  /** Identifiers naming columns of the row (source-table or joined columns). */
  columns: string[];
  /** Struct fields read with a dot, as in `x.is_js_redirect`. */
  fields: string[];
  /** Functions called, lower-cased. */
  functions: string[];
  /** `{NAME}` placeholders, in order of first use. */
  placeholders: string[];
  /** What makes the filter unsafe or unreadable; empty when it is fine. */
  problems: string[];
}

const STRING_LITERAL = /'(?:[^']|'')*'/g;
const QUOTED_IDENTIFIER = /"((?:[^"]|"")*)"/g;
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const LAMBDA_PARAMS = /\blambda\s+([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*:/gi;
const ARROW_PARAMS = /(?:\(\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*\)|\b([A-Za-z_]\w*))\s*->(?!>)/g;
/** Numbers first, so that the exponent of `1e5` is not read as an identifier. */
const TOKEN = /(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)|([A-Za-z_][A-Za-z0-9_]*)/g;

const unique = (items: string[]): string[] => [...new Set(items)];

/** The `{NAME}` placeholders of a filter, in order of first use. */
export function filterPlaceholders(filter: string): string[] {
  return unique([...filter.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ''));
}

export function parseFilter(filter: string): FilterParts {
  const problems: string[] = [];
  const columns: string[] = [];
  const fields: string[] = [];
  const functions: string[] = [];

  let text = filter.replace(STRING_LITERAL, "''");
  if (text.replace(/''/g, '').includes("'")) problems.push('unterminated string literal');
  text = text.replace(QUOTED_IDENTIFIER, (_, name: string) => {
    columns.push(name.replace(/""/g, '"'));
    return ' ';
  });
  if (text.includes('"')) problems.push('unterminated quoted identifier');
  if (/;|--|\/\*/.test(text)) problems.push('a filter is one expression: no ";" and no comments');

  const placeholders = filterPlaceholders(text);
  text = text.replace(PLACEHOLDER, ' 0 ');
  if (/[{}]/.test(text)) problems.push('a "{" or "}" that is not part of a {NAME} placeholder');

  const bound = new Set<string>();
  for (const m of text.matchAll(LAMBDA_PARAMS)) for (const p of (m[1] ?? '').split(',')) bound.add(p.trim());
  for (const m of text.matchAll(ARROW_PARAMS)) for (const p of (m[1] ?? m[2] ?? '').split(',')) bound.add(p.trim());

  for (const m of text.matchAll(TOKEN)) {
    const word = m[2];
    if (word === undefined) continue;
    const before = text.slice(0, m.index).trimEnd();
    const after = text.slice(m.index + word.length).trimStart();
    const lower = word.toLowerCase();
    if (before.endsWith('.')) fields.push(word);
    else if (FILTER_KEYWORDS.has(lower)) continue;
    else if (after.startsWith('(')) functions.push(lower);
    else if (!bound.has(word)) columns.push(word);
  }

  return {
    columns: unique(columns),
    fields: unique(fields),
    functions: unique(functions),
    placeholders,
    problems,
  };
}

type FilterConstants = Readonly<Record<string, number | readonly number[]>>;

const sqlNumber = (name: string, value: number): string => {
  if (!Number.isFinite(value)) throw new Error(`filter constant ${name} is not a finite number`);
  return String(value);
};

/**
 * Replaces every `{NAME}` with its constant as a SQL literal: a number, or a comma-separated list for use inside
 * `IN (...)`. The values come from the catalogue, never from a request.
 */
export function expandFilter(filter: string, constants: FilterConstants): string {
  return filter.replace(PLACEHOLDER, (_, name: string) => {
    if (!Object.hasOwn(constants, name)) throw new Error(`filter constant {${name}} is not defined`);
    const value = constants[name];
    if (typeof value === 'number') return sqlNumber(name, value);
    if (Array.isArray(value) && value.length > 0) return value.map((v: number) => sqlNumber(name, v)).join(', ');
    throw new Error(`filter constant ${name} must be a number or a non-empty list of numbers`);
  });
}
