import { useEffect, useRef } from 'react';
import { Text } from '@mantine/core';
import * as Plot from '@observablehq/plot';
import { format as formatDateFns } from 'date-fns';
import { formatDate } from '../../../../catalog/format.ts';
import type { DatedValue, PeriodValue } from './query-report-model.ts';
import { useElementWidth } from '../../lib/use-element-width.ts';
import { axisTicks } from './axis-ticks.ts';

const BRAND = 'var(--mantine-color-brand-7)';
const NO_PERIODS: readonly PeriodValue[] = [];
const middleOf = (p: PeriodValue) => new Date((p.start.getTime() + p.end.getTime()) / 2);

interface MiniChartProps {
  title: string;
  points: readonly DatedValue[];
  /** Totals over a period: a light band across its days with a flat line at the total, labelled, no daily dots. */
  periods?: readonly PeriodValue[];
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
  periods = NO_PERIODS,
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
    if (!host || width < 60 || points.length + periods.length === 0) return;
    const label = (d: Date) => formatDateFns(d, isMonthly ? "MMM ''yy" : 'd MMM');
    const tip = (p: DatedValue) =>
      `${isMonthly ? formatDateFns(p.date, 'MMM yyyy') : formatDate(p.date)}\n${formatValue(p.value)}`;
    const axis = axisTicks(
      [...points, ...periods].map((p) => p.value),
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
        : { type: 'utc', label: null, ticks: dayTicks(points, periods, width), tickFormat: label },
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
            ...periodMarks(periods, (p) => `${p.label}\n${formatValue(p.value)}`),
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
  }, [points, periods, width, height, formatValue, isMonthly, isReversed, isWhole]);

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

/** A few points (trends are weekly) get a tick each; longer series, and periods, get one per ~80px. */
function dayTicks(points: readonly DatedValue[], periods: readonly PeriodValue[], width: number): Date[] | number {
  const count = Math.max(2, Math.floor(width / 80));
  return points.length <= count && periods.length === 0 ? points.map((p) => p.date) : count;
}

/** A period's band spans the chart's height across its days; its total is a flat line with its label above. */
function periodMarks(periods: readonly PeriodValue[], tip: (p: PeriodValue) => string): Plot.Markish[] {
  if (periods.length === 0) return [];
  return [
    Plot.rect(periods, { x1: 'start', x2: 'end', fill: BRAND, fillOpacity: 0.12, className: 'period-band' }),
    Plot.ruleY(periods, {
      x1: 'start',
      x2: 'end',
      y: 'value',
      stroke: BRAND,
      strokeWidth: 2,
      className: 'period-total',
    }),
    Plot.text(periods, {
      x: middleOf,
      y: 'value',
      text: 'label',
      dy: -7,
      fill: 'currentColor',
      className: 'period-label',
    }),
    Plot.tip(periods, Plot.pointerX({ x: middleOf, y: 'value', title: tip })),
  ];
}
