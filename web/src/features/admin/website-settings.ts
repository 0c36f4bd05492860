/** The website and segment settings as the administration forms show them. */
import type { Website, WebsiteSegment } from '../../api/types.ts';

export const GOAL_LABELS = { conversion: 'Conversion', ecommerce: 'Ecommerce' } as const;
export const NO_GOAL = 'none';
/** The goal select's options; `none` clears it, as in the CLI. */
export const GOAL_OPTIONS = [
  { value: NO_GOAL, label: 'None' },
  { value: 'conversion', label: GOAL_LABELS.conversion },
  { value: 'ecommerce', label: GOAL_LABELS.ecommerce },
];

export const defaultSegmentOf = (website: Website): WebsiteSegment | undefined =>
  website.segments.find((s) => s.isDefault);
