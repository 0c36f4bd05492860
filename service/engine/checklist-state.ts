/**
 * The Checklist state of a row (catalog/checklist-states.ts) as SQL over "r": read from the checked rows' relation
 * (checkedKeysRelation) and, on the Removed tab, the row's removal reason.
 */
import { keyMatch } from './row-source.ts';
import { REASON_COLUMN } from './removal-reasons.ts';
import type { ReportShape } from './report-shape.ts';
import type { ChecklistStateOptions } from './rows-request.ts';
import { ident, int, raw, sql, type SqlFragment } from './sql.ts';

export function checklistStateSql(
  shape: ReportShape,
  options: ChecklistStateOptions & { checked: SqlFragment | undefined },
  isRemoved: boolean,
): SqlFragment {
  if (!options.checked) return raw('NULL::VARCHAR');
  const reason = sql`"r".${ident(REASON_COLUMN)}`;
  const notFixed = options.isStaff
    ? sql`'not fixed yet: checked by ' || "ck"."_ck_by" || ' on ' || "ck"."_ck_at"`
    : sql`'checked'`;
  const state = isRemoved
    ? sql`CASE WHEN ${reason} = 'fixed' THEN 'verified by ' || ${options.crawlLabel} ELSE 'left: ' || ${reason} END`
    : sql`CASE WHEN "ck"."_ck_start" < ${int(options.crawlId)} THEN ${notFixed} ELSE 'checked' END`;
  return sql`(SELECT ${state} FROM (${options.checked}) "ck" WHERE ${keyMatch(shape, 'ck', 'r')} LIMIT 1)`;
}
