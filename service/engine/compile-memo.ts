/**
 * Compiled tabs kept by request: compiling is a pure function of the request, so every page of a tab (a page turn,
 * a refresh, a skipCache reload, another analyst on the same tab) reuses its source, filters, order and select list,
 * and only its page is compiled anew. Objects in the request (the report definition, the crawl targets) count by
 * identity: the engine makes a new target when the store changes, so a reloaded crawl never meets a query compiled
 * for its previous data.
 */
import type { LruCache } from './cache.ts';
import { compileRowsOf, type CompiledRows, type CompiledTab } from './compile.ts';
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

/** Every field of a rows request but its page (limit, offset, cursor), objects by identity, as one string. */
export function tabRequestKey(req: RowsRequest): string {
  return JSON.stringify([
    identityOf(req.report),
    identityOf(req.current),
    req.comparison ? identityOf(req.comparison) : null,
    req.dataDateRange.start,
    req.dataDateRange.end,
    req.channel ?? null,
    req.differenceType,
    req.removalReason ?? null,
    req.userFilter ?? null,
    req.urlScope ?? null,
    req.showChecked,
    req.checked ? fragmentKey(req.checked) : null,
    req.isOnlyChecked ?? false,
    req.checklistState ?? null,
    req.orderBy.map((o) => [o.id, o.desc]),
    req.stakeOrder?.visits ?? null,
    req.stakeOrder?.isStored ?? null,
    req.after !== undefined,
  ]);
}

/** The request's tab from the memo, or compiled and kept; a refused tab is not kept. */
export function memoisedTab(
  memo: LruCache<CompiledTab>,
  req: RowsRequest,
  compileTab: (req: RowsRequest) => CompiledTab,
): CompiledTab {
  const key = tabRequestKey(req);
  let tab = memo.get(key);
  if (!tab) {
    tab = compileTab(req);
    memo.set(key, tab);
  }
  return tab;
}

/** The request's page of its tab, the tab from the memo or compiled and kept. */
export function memoisedCompile(
  memo: LruCache<CompiledTab>,
  req: RowsRequest,
  compileTab: (req: RowsRequest) => CompiledTab,
): CompiledRows {
  return compileRowsOf(req, (tabReq) => memoisedTab(memo, tabReq, compileTab));
}
