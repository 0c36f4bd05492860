/**
 * Checklist items: a row of a report (url plus the report's sub-keys) marked as dealt with. An item is checked
 * from its start crawl on, until it is unchecked at a later crawl, which closes it: it is checked at crawl C when
 * start_crawl_id <= C and (end_crawl_id IS NULL or end_crawl_id > C). Closed items stay, so who checked and
 * unchecked what, and when, is kept.
 */
import type { Sql } from './sql.ts';

export interface ChecklistKey {
  url: string;
  subKeys: string[];
}

export interface ChecklistItem extends ChecklistKey {
  id: number;
  startCrawlId: number;
  checkedBy: string;
  checkedAt: Date;
}

interface ItemRow {
  id: number;
  url: string;
  sub_keys: string[];
  start_crawl_id: number;
  checked_by: string;
  checked_at: Date;
}

const CHECKED_AT = `website_id = ? AND report_id = ? AND start_crawl_id <= ? AND (end_crawl_id IS NULL OR end_crawl_id > ?)`;

/** The items checked for a report at a crawl, one per key (the earliest check wins). */
export async function checkedItemsAt(
  sql: Sql,
  websiteId: string,
  reportId: string,
  crawlId: number,
): Promise<ChecklistItem[]> {
  const rows = await sql.all<ItemRow>(
    `SELECT DISTINCT ON (url, sub_keys) id, url, sub_keys, start_crawl_id, checked_by, checked_at
     FROM checklist_items WHERE ${CHECKED_AT}
     ORDER BY url, sub_keys, start_crawl_id, id`,
    [websiteId, reportId, crawlId, crawlId],
  );
  return rows.map((r) => ({
    id: r.id,
    url: r.url,
    subKeys: r.sub_keys,
    startCrawlId: r.start_crawl_id,
    checkedBy: r.checked_by,
    checkedAt: r.checked_at,
  }));
}

export async function checkedKeysAt(
  sql: Sql,
  websiteId: string,
  reportId: string,
  crawlId: number,
): Promise<ChecklistKey[]> {
  const rows = await sql.cached<{ url: string; sub_keys: string[] }>(
    'checklist',
    `SELECT DISTINCT url, sub_keys FROM checklist_items WHERE ${CHECKED_AT} ORDER BY url, sub_keys`,
    [websiteId, reportId, crawlId, crawlId],
  );
  return rows.map((r) => ({ url: r.url, subKeys: r.sub_keys }));
}

export interface ChecklistChange {
  websiteId: string;
  reportId: string;
  crawlId: number;
  setChecked: readonly ChecklistKey[];
  setUnchecked: readonly ChecklistKey[];
  by: string;
  now: Date;
}

/** Applies one save at a crawl; checking a checked item or unchecking an unchecked one changes nothing. */
export async function saveChecklist(tx: Sql, change: ChecklistChange): Promise<{ checked: number; unchecked: number }> {
  const { websiteId, reportId, crawlId, by, now } = change;
  let checked = 0;
  let unchecked = 0;
  for (const item of change.setChecked) {
    const open = await tx.all(`SELECT 1 FROM checklist_items WHERE ${CHECKED_AT} AND url = ? AND sub_keys = ?`, [
      websiteId,
      reportId,
      crawlId,
      crawlId,
      item.url,
      item.subKeys,
    ]);
    if (open.length > 0) continue;
    await tx.run(
      `INSERT INTO checklist_items (website_id, report_id, url, sub_keys, start_crawl_id, checked_by, checked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [websiteId, reportId, item.url, item.subKeys, crawlId, by, now],
    );
    checked += 1;
  }
  for (const item of change.setUnchecked) {
    const closed = await tx.all<{ id: number }>(
      `UPDATE checklist_items SET end_crawl_id = ?, unchecked_by = ?, unchecked_at = ?
       WHERE ${CHECKED_AT} AND url = ? AND sub_keys = ? RETURNING id`,
      [crawlId, by, now, websiteId, reportId, crawlId, crawlId, item.url, item.subKeys],
    );
    if (closed.length > 0) unchecked += 1;
  }
  await tx.changed('checklist');
  return { checked, unchecked };
}
