/**
 * Compiled rows queries kept by request: compiling is a pure function of the request, so a page asked for again
 * (a refresh, a skipCache reload, another analyst on the same tab) reuses its SQL instead of building it anew.
 * Objects in the request (the report definition, the crawl targets) count by identity: the engine makes a new
 * target when the store changes, so a reloaded crawl never meets a query compiled for its previous data.
 */
import type { LruCache } from './cache.ts';
import type { CompiledRows } from './compile.ts';
import type { RowsRequest } from './rows-request.ts';
import { fragmentKey } from './sql.ts';

const identities = new WeakMap<object, number>();
let lastIdentity = 0;

function identityOf(value: object): number {
  let id = identities.get(value);
  if (id === undefined) {
    id = ++lastIdentity;
    identities.set(value, id);
  }
  return id;
}

/** Every field of a rows request, objects by identity, as one string. */
export function rowsRequestKey(req: RowsRequest): string {
  return JSON.stringify([
    identityOf(req.report),
    identityOf(req.current),
    req.comparison ? identityOf(req.comparison) : null,
    req.dataDateRange.start,
    req.dataDateRange.end,
    req.channel ?? null,
    req.differenceType,
    req.userFilter ?? null,
    req.urlScope ?? null,
    req.showChecked,
    req.checked ? fragmentKey(req.checked) : null,
    req.orderBy.map((o) => [o.id, o.desc]),
    req.limit,
    req.offset,
    req.after ?? null,
  ]);
}

/** The compiled query of the request, from the memo or compiled and kept; a refused request is not kept. */
export function memoisedCompile(
  memo: LruCache<CompiledRows>,
  req: RowsRequest,
  compile: (req: RowsRequest) => CompiledRows,
): CompiledRows {
  const key = rowsRequestKey(req);
  const known = memo.get(key);
  if (known) return known;
  const compiled = compile(req);
  memo.set(key, compiled);
  return compiled;
}
