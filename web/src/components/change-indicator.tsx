import { Group, Text } from '@mantine/core';
import { formatChange, formatNumber } from '../../../catalog/format.ts';
import { Icon } from './icon.tsx';

export interface ChangeIndicatorProps {
  value: number | undefined;
  /** For issue counts a rise is bad; for scores a rise is good. */
  isRiseGood?: boolean;
  size?: 'xs' | 'sm';
  /** Spoken context, e.g. 'since 3 Mar 2025'. */
  context?: string;
}

/** +12 / -3 against the comparison crawl, coloured by whether the change is an improvement. */
export function ChangeIndicator({ value, isRiseGood = false, size = 'xs', context }: ChangeIndicatorProps) {
  if (value === undefined) {
    return (
      <Text size={size} c="dimmed" aria-label="No comparison">
        –
      </Text>
    );
  }
  if (value === 0) {
    return (
      <Text size={size} c="dimmed" aria-label={`No change${context ? ` ${context}` : ''}`} data-change="0">
        No change
      </Text>
    );
  }
  const isGood = value > 0 === isRiseGood;
  const color = isGood ? '#1e6b2f' : '#a61e1e';
  return (
    <Group
      gap={2}
      wrap="nowrap"
      c={color}
      aria-label={`${value > 0 ? 'Up' : 'Down'} ${formatNumber(Math.abs(value))}${context ? ` ${context}` : ''}`}
      data-change={value}
      role="img"
    >
      <Icon name={value > 0 ? 'arrow-up' : 'arrow-down'} size={size === 'xs' ? 12 : 14} stroke={2.4} />
      <Text size={size} fw={600} c={color} span aria-hidden>
        {formatChange(value)}
      </Text>
    </Group>
  );
}
