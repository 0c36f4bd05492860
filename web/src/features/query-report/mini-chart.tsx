import { useEffect, useRef } from 'react';
import { Text } from '@mantine/core';
import * as Plot from '@observablehq/plot';
import { format as formatDateFns } from 'date-fns';
import { formatDate } from '../../../../catalog/format.ts';
import type { DatedValue } from './query-report-model.ts';
import { useElementWidth } from '../../lib/use-element-width.ts';
import { axisTicks } from './axis-ticks.ts';

const BRAND = 'var(--mantine-color-brand-7)';

interface MiniChartProps {
  title: string;
  points: readonly DatedValue[];
  /** A value in a tip, and on the axis with the decimals that keep its ticks apart (axis-ticks.ts). */
  formatValue: (value: number, decimals?: number) => string;
  /** Counts: whole ticks only. */
  isWhole?: boolean;
  /** Bars per month (keyword planner) instead of a line per day. */
  isMonthly?: boolean;
  /** Search positions: lower is better, so the axis runs downwards. */
  isReversed?: boolean;
  height?: number;
  testId?: string;
}

/** A small Observable Plot chart of one measure over time, with a tip per point. */
export function MiniChart({
  title,
  points,
  formatValue,
  isMonthly = false,
  isReversed = false,
  isWhole = false,
  height = 100,
  testId,
}: MiniChartProps) {
  const frameRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(frameRef);

  useEffect(() => {
    const host = frameRef.current;
    if (!host || width < 60 || points.length === 0) return;
    const label = (d: Date) => formatDateFns(d, isMonthly ? "MMM ''yy" : 'd MMM');
    const tip = (p: DatedValue) =>
      `${isMonthly ? formatDateFns(p.date, 'MMM yyyy') : formatDate(p.date)}\n${formatValue(p.value)}`;
    const axis = axisTicks(
      points.map((p) => p.value),
      (n, decimals) => formatValue(n, decimals),
      { isWhole, fromZero: !isReversed },
    );
    const plot = Plot.plot({
      width,
      height,
      marginLeft: 46,
      marginRight: 10,
      marginTop: 8,
      marginBottom: 20,
      style: { fontSize: '10px', fontFamily: 'inherit', color: 'var(--mantine-color-dark-4)', overflow: 'visible' },
      x: isMonthly
        ? { type: 'band', label: null, tickFormat: label, padding: 0.15, ticks: evenly(points, width) }
        : { type: 'utc', label: null, ticks: dayTicks(points, width), tickFormat: label },
      y: {
        label: null,
        grid: true,
        domain: axis.ticks.length > 1 ? [axis.ticks[0], axis.ticks.at(-1)] : undefined,
        ticks: axis.ticks,
        reverse: isReversed,
        tickFormat: (n: number) => formatValue(n, axis.decimals),
      },
      marks: isMonthly
        ? [
            Plot.barY(points, { x: 'date', y: 'value', fill: BRAND, fillOpacity: 0.85 }),
            Plot.tip(points, Plot.pointerX({ x: 'date', y: 'value', title: tip })),
          ]
        : [
            Plot.lineY(points, { x: 'date', y: 'value', stroke: BRAND, strokeWidth: 1.75 }),
            ...(points.length <= 31 ? [Plot.dot(points, { x: 'date', y: 'value', fill: BRAND, r: 2 })] : []),
            Plot.tip(points, Plot.pointerX({ x: 'date', y: 'value', title: tip })),
          ],
    });
    plot.querySelectorAll('g[aria-label]').forEach((g) => g.setAttribute('role', 'group'));
    plot.setAttribute('aria-hidden', 'true');
    const svgHost = host.querySelector('[data-plot]');
    svgHost?.replaceChildren(plot);
    return () => plot.remove();
  }, [points, width, height, formatValue, isMonthly, isReversed, isWhole]);

  return (
    <figure style={{ margin: 0, minWidth: 0 }} data-testid={testId}>
      <Text component="figcaption" size="xs" fw={600} c="dark.5" mb={2}>
        {title}
      </Text>
      <div ref={frameRef} style={{ height, position: 'relative' }}>
        <div data-plot />
      </div>
    </figure>
  );
}

/** Every nth month as a tick, so labels never overlap on a narrow chart. */
function evenly(points: readonly DatedValue[], width: number): Date[] {
  const step = Math.max(1, Math.ceil(points.length / Math.max(1, Math.floor(width / 48))));
  return points.filter((_, i) => i % step === 0).map((p) => p.date);
}

/** A few points (trends are weekly) get a tick each; longer series get one per ~80px. */
function dayTicks(points: readonly DatedValue[], width: number): Date[] | number {
  const count = Math.max(2, Math.floor(width / 80));
  return points.length <= count ? points.map((p) => p.date) : count;
}
