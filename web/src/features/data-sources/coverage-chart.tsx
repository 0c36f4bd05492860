import { useEffect, useRef } from 'react';
import { Text } from '@mantine/core';
import * as Plot from '@observablehq/plot';
import { formatDate, formatNumber } from '../../../../catalog/format.ts';
import type { DataSourceStatus } from '../../../../catalog/data-source-calls.ts';
import { useElementWidth } from '../../lib/use-element-width.ts';
import { coverageSpan, dateTicks } from './date-ticks.ts';
import { rowTicks } from './row-ticks.ts';

const BRAND = 'var(--mantine-color-brand-7)';
const PERIOD = 'var(--mantine-color-brand-2)';
const HEIGHT = 90;
const DAY_MS = 86_400_000;

const utc = (day: string): Date => new Date(`${day}T00:00:00Z`);

/**
 * Rows per day of a source's daily imports as bars, and each import of one total over a period as a band across the
 * period (its rows are not spread over days it does not know).
 */
export function CoverageChart({ source }: { source: DataSourceStatus }) {
  const frameRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(frameRef);
  const { days, periods } = source;

  useEffect(() => {
    const host = frameRef.current;
    if (!host || width < 60 || (days.length === 0 && periods.length === 0)) return;
    const bars = days.map((d) => ({ start: utc(d.date), end: new Date(utc(d.date).getTime() + DAY_MS), rows: d.rows }));
    const bands = periods.map((p) => ({
      start: utc(p.start),
      end: new Date(utc(p.end).getTime() + DAY_MS),
      rows: p.rows,
      label: `${formatDate(p.start)} – ${formatDate(p.end)}\n${formatNumber(p.rows)} rows (totals for the period)`,
    }));
    const { start, end, firstDay } = coverageSpan([...bars, ...bands]);
    const axis = dateTicks(start, end, width - 48, { anchor: firstDay });
    const rows = rowTicks(Math.max(...bars.map((b) => b.rows), ...bands.map((b) => b.rows)));
    const plot = Plot.plot({
      width,
      height: HEIGHT,
      marginLeft: 40,
      marginRight: 8,
      marginTop: 6,
      marginBottom: 20,
      style: { fontSize: '10px', fontFamily: 'inherit', color: 'var(--mantine-color-dark-4)', overflow: 'visible' },
      x: { type: 'utc', label: null, domain: [start, end], ticks: axis.ticks, tickFormat: axis.format },
      y: { label: null, grid: true, domain: [0, rows.at(-1)], ticks: rows, tickFormat: (n: number) => formatNumber(n) },
      marks: [
        Plot.rectY(bands, { x1: 'start', x2: 'end', y: 'rows', fill: PERIOD, stroke: BRAND, strokeOpacity: 0.5 }),
        Plot.rectY(bars, { x1: 'start', x2: 'end', y: 'rows', fill: BRAND, fillOpacity: 0.85, insetLeft: 0.5 }),
        Plot.tip(bands, Plot.pointerX({ x1: 'start', x2: 'end', y: 'rows', title: 'label' })),
        Plot.tip(
          bars,
          Plot.pointerX({
            x1: 'start',
            x2: 'end',
            y: 'rows',
            title: (b: { start: Date; rows: number }) => `${formatDate(b.start)}\n${formatNumber(b.rows)} rows`,
          }),
        ),
      ],
    });
    plot.setAttribute('aria-hidden', 'true');
    host.querySelector('[data-plot]')?.replaceChildren(plot);
    return () => plot.remove();
  }, [days, periods, width]);

  const first = [days[0]?.date, periods[0]?.start].filter(Boolean).sort()[0];
  const last = [days.at(-1)?.date, ...periods.map((p) => p.end)].filter(Boolean).sort().at(-1);
  return (
    <figure style={{ margin: 0, minWidth: 0 }} data-testid="coverage-chart">
      <Text component="figcaption" size="xs" fw={600} c="dark.5" mb={2}>
        Dates covered{first && last ? `: ${formatDate(first)} – ${formatDate(last)}` : ''}
        {periods.length > 0 ? ' (light bands: totals for a period, not per day)' : ''}
      </Text>
      <div ref={frameRef} style={{ height: HEIGHT, position: 'relative' }}>
        <div data-plot />
      </div>
    </figure>
  );
}
