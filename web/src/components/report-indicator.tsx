import { Loader, ThemeIcon, Tooltip } from '@mantine/core';
import type { ReportIndicatorKind } from '../lib/rank.ts';
import { formatNumber } from '../../../catalog/format.ts';
import { Icon } from './icon.tsx';
import { RankRing } from './rank-ring.tsx';

export interface ReportIndicatorProps {
  kind: ReportIndicatorKind;
  rank?: number;
  rows?: number;
  size?: number;
}

/** A light grey round icon: the lock of NONE reports, or the dash of a count that failed to load. */
function GrayIndicator({
  kind,
  label,
  icon,
  size,
  ...props
}: {
  kind: ReportIndicatorKind;
  label: string;
  icon: string;
  size: number;
}) {
  return (
    <ThemeIcon
      size={size}
      radius="xl"
      variant="light"
      color="gray"
      role="img"
      aria-label={label}
      data-indicator={kind}
      {...props}
    >
      <Icon name={icon} size={size * 0.62} />
    </ThemeIcon>
  );
}

/** Spec §2 per-report indicator: spinner, lock (NONE), green tick (rank 0, no rows) or rank ring; a dash on error. */
export function ReportIndicator({ kind, rank = 0, rows = 0, size = 22 }: ReportIndicatorProps) {
  switch (kind) {
    case 'loading':
      return <Loader size={size - 6} type="oval" aria-label="Loading" data-indicator="loading" m={3} />;
    case 'unavailable':
      return <GrayIndicator kind={kind} label="Count not available" icon="minus" size={size} />;
    case 'locked':
      return (
        <Tooltip label="Reference listing: no severity" withArrow openDelay={300}>
          <GrayIndicator kind={kind} label="Reference listing, no severity" icon="lock" size={size} />
        </Tooltip>
      );
    case 'clean':
      return (
        <ThemeIcon size={size} radius="xl" color="green.7" role="img" aria-label="No issues" data-indicator="clean">
          <Icon name="check" size={size * 0.64} stroke={2.6} />
        </ThemeIcon>
      );
    case 'rank':
      return (
        <span
          data-indicator="rank"
          title={`Rank ${rank} · ${formatNumber(rows)} rows`}
          style={{ display: 'inline-flex' }}
        >
          <RankRing rank={rank} size={size} />
        </span>
      );
  }
}
