import { RingProgress, Text } from '@mantine/core';
import { clampRank, rankBand } from '../lib/rank.ts';

export interface RankRingProps {
  rank: number;
  size?: number;
  /** Shows the number inside the ring (large rings only). */
  withLabel?: boolean;
}

/** The report's rank 0-100 as a ring coloured by its band (spec §9). */
export function RankRing({ rank, size = 22, withLabel = false }: RankRingProps) {
  const value = clampRank(rank);
  const band = rankBand(value);
  const thickness = Math.max(2.5, Math.round(size / 9));
  return (
    <RingProgress
      size={size}
      thickness={thickness}
      roundCaps={value > 0 && value < 100}
      rootColor="gray.2"
      sections={[{ value: Math.max(value, 2), color: band.color }]}
      role="img"
      aria-label={`Rank ${value} of 100, ${band.label}`}
      data-rank={value}
      data-band={band.colour}
      label={
        withLabel ? (
          <Text ta="center" fw={700} fz={size >= 48 ? 'sm' : 'xs'} c="dark.7" aria-hidden>
            {value}
          </Text>
        ) : undefined
      }
      style={{ flex: 'none' }}
    />
  );
}
