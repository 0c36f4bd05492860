/**
 * What became of a checked row (issue 30 §2), as the report table's Checklist state column says it:
 *
 * - **checked**: checked at the crawl shown (no later crawl has looked at it yet);
 * - **not fixed yet**: checked at an older crawl and still listed by this one; staff see who checked it and when,
 *   clients see it as checked;
 * - **verified**: the crawl removed it with reason fixed (catalog/removal-reasons.ts), naming the verifying crawl;
 * - **left**: the crawl removed it for another reason, which it names (gone, not crawled, report changed).
 */
/** The report table's row column carrying the state. */
export const CHECKLIST_STATE_COLUMN = 'checklist_state';

export const CHECKLIST_STATES = ['checked', 'not fixed yet', 'verified', 'left'] as const;
export type ChecklistState = (typeof CHECKLIST_STATES)[number];

/** The state a Checklist state cell's text starts with. */
export function checklistStateOf(text: string | null | undefined): ChecklistState | undefined {
  if (!text) return undefined;
  return [...CHECKLIST_STATES].sort((a, b) => b.length - a.length).find((state) => text.startsWith(state));
}
