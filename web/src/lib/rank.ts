/** Rank colour bands of spec §9 (catalogue RANK_BANDS: 0-24, 25-49, 50-74, 75-100; higher is worse). */
import { RANK_BANDS, type BandColour } from '../../../catalog/constants.ts';

/** Mantine shades that read well on white for each band colour. */
const SHADES: Record<BandColour, string> = {
  green: 'green.7',
  yellow: 'yellow.6',
  orange: 'orange.7',
  red: 'red.8',
  gray: 'gray.6',
};

const LABELS: Record<BandColour, string> = {
  green: 'low',
  yellow: 'moderate',
  orange: 'high',
  red: 'severe',
  gray: 'unknown',
};

export interface RankBandStyle {
  colour: BandColour;
  /** A Mantine colour with shade, for rings and bars. */
  color: string;
  label: string;
}

export function clampRank(rank: number): number {
  if (!Number.isFinite(rank)) return 0;
  return Math.min(100, Math.max(0, Math.round(rank)));
}

export function rankBand(rank: number): RankBandStyle {
  const value = clampRank(rank);
  const colour = RANK_BANDS.find((b) => value >= b.min && value <= b.max)?.colour ?? 'gray';
  return { colour, color: SHADES[colour], label: LABELS[colour] };
}

export function bandColor(colour: BandColour): string {
  return SHADES[colour];
}

export type ReportIndicatorKind = 'loading' | 'unavailable' | 'locked' | 'clean' | 'rank';

/**
 * Spec §2: spinner while loading; lock for NONE; green tick at rank 0 and 0 rows; otherwise a rank ring. When the
 * counts failed to load the spinner ends in 'unavailable': no tick or ring claims what is not known.
 */
export function reportIndicatorKind(input: {
  isLoading: boolean;
  isUnavailable?: boolean;
  severity: string;
  rank: number | undefined;
  rows: number | undefined;
}): ReportIndicatorKind {
  if (input.isLoading) return 'loading';
  if (input.isUnavailable) return 'unavailable';
  if (input.severity === 'NONE') return 'locked';
  if ((input.rank ?? 0) === 0 && (input.rows ?? 0) === 0) return 'clean';
  return 'rank';
}
