import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button, Group, Paper, Text, Title, VisuallyHidden } from '@mantine/core';
import * as Plot from '@observablehq/plot';
import { CHART_HEIGHT } from '../../../../catalog/constants.ts';
import { keyDates } from '../../../../catalog/index.ts';
import type { KeyDate as KeyDateEntry } from '../../../../catalog/schema.ts';
import type { TrendPoint } from '../../api/types.ts';
import { formatDate, formatNumber, pluralise, toDate } from '../../../../catalog/format.ts';
import { Icon } from '../../components/icon.tsx';
import { downloadCsv } from '../../lib/csv.ts';
import { useElementWidth } from '../../lib/use-element-width.ts';
import { chartDomain, crawlTicks, tickWidth } from './chart-ticks.ts';
import { issuesChartCsv, pointsOf, type Point } from './issues-chart-data.ts';

interface KeyDate {
  date: Date;
  label: string;
  kind: KeyDateEntry['kind'];
}

const BRAND = 'var(--mantine-color-brand-7)';
const MARGIN_LEFT = 52;
// The x scale's inset: the newest crawl's label, centred on the right end, spills this much less into the margin.
const X_INSET = 14;

/** Every kind gets a colour, so an event of a new kind cannot go undrawn (the Record fails to compile instead). */
const KEY_DATE_COLOURS: Record<KeyDateEntry['kind'], { rule: string; text: string }> = {
  'search-engine-update': { rule: 'var(--mantine-color-orange-6)', text: 'var(--mantine-color-orange-9)' },
  calendar: { rule: 'var(--mantine-color-grape-6)', text: 'var(--mantine-color-grape-9)' },
};

const KEY_DATES: KeyDate[] = keyDates
  .map((k) => ({ date: toDate(k.date), label: k.label, kind: k.kind }))
  .filter((k): k is KeyDate => k.date !== null);

/** A dashed rule and a label per event, coloured by kind. */
function keyDateMarks(visible: readonly KeyDate[]): Plot.Markish[] {
  return (Object.keys(KEY_DATE_COLOURS) as KeyDate['kind'][]).flatMap((kind) => {
    const events = visible.filter((k) => k.kind === kind);
    const colours = KEY_DATE_COLOURS[kind];
    return [
      Plot.ruleX(events, { x: 'date', stroke: colours.rule, strokeDasharray: '4,3' }),
      Plot.text(events, {
        x: 'date',
        text: 'label',
        frameAnchor: 'top',
        dy: -12,
        fill: colours.text,
        fontSize: 10,
        textAnchor: 'middle',
        ariaDescription: 'key dates',
      }),
    ];
  });
}

/** 'Issues over time': a 250px line of issues per crawl, ticked at the crawl dates, drag to zoom, key dates (spec §2). */
export function IssuesChart({
  trends,
  fileStem,
  isLoading,
  error,
}: {
  trends: TrendPoint[];
  fileStem: string;
  isLoading: boolean;
  /** The failed summary's error state, shown in place of the chart. */
  error: ReactNode;
}) {
  const frameRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(frameRef);
  const plotRef = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState<[Date, Date] | null>(null);
  const [brush, setBrush] = useState<{ from: number; to: number } | null>(null);
  const points = useMemo(() => pointsOf(trends), [trends]);

  useEffect(() => {
    const host = plotRef.current;
    if (!host || width < 50 || points.length === 0) return;
    const domain = chartDomain(
      points.map((p) => p.date),
      zoom,
    );
    const visibleKeyDates = KEY_DATES.filter((k) => k.date >= domain[0] && k.date <= domain[1]);
    const maxIssues = Math.max(...points.map((p) => p.issues), 0);
    // Small counts get one tick per whole issue; d3's defaults would repeat rounded labels (0, 0.5 → '1', '1').
    const yTicks = maxIssues <= 6 ? Array.from({ length: Math.max(maxIssues, 1) + 1 }, (_, i) => i) : 5;
    const tickTexts = new Map(points.map((p) => [p.date.getTime(), p.tick]));
    const widthOf = (d: Date) => tickWidth(tickTexts.get(d.getTime()) ?? formatDate(d));
    // Room for half of the newest crawl's label, which sits at the right end.
    const marginRight = Math.max(30, Math.ceil(widthOf(points[points.length - 1]!.date) / 2) - X_INSET);
    const ticks = crawlTicks(
      points.map((p) => p.date),
      domain,
      width - MARGIN_LEFT - marginRight - 2 * X_INSET,
      widthOf,
    );
    const plot = Plot.plot({
      width,
      height: CHART_HEIGHT,
      marginLeft: MARGIN_LEFT,
      marginRight,
      marginTop: 22,
      marginBottom: 40,
      style: { fontSize: '11px', fontFamily: 'inherit', color: 'var(--mantine-color-dark-4)', overflow: 'visible' },
      x: {
        type: 'utc',
        domain,
        inset: X_INSET,
        label: null,
        ticks,
        tickFormat: (d: Date) => tickTexts.get(d.getTime()) ?? formatDate(d),
      },
      y: {
        label: 'Issues',
        grid: true,
        domain: [0, maxIssues <= 6 ? Math.max(maxIssues, 1) + 0.5 : maxIssues * 1.1],
        nice: maxIssues > 6,
        ticks: yTicks,
        tickFormat: (n: number) => (Number.isInteger(n) ? formatNumber(n) : ''),
      },
      marks: [
        Plot.gridX(ticks, { stroke: 'var(--mantine-color-gray-3)', strokeOpacity: 1 }),
        ...keyDateMarks(visibleKeyDates),
        Plot.ruleY([0], { stroke: 'var(--mantine-color-gray-5)' }),
        Plot.lineY(points, { x: 'date', y: 'issues', stroke: BRAND, strokeWidth: 2.25, clip: true }),
        Plot.dot(points, { x: 'date', y: 'issues', fill: BRAND, r: 4, clip: true }),
        Plot.tip(
          points,
          Plot.pointerX({
            x: 'date',
            y: 'issues',
            title: (p: Point) => `${p.label}\n${formatNumber(p.issues)} issues`,
          }),
        ),
      ],
    });
    // axe: Plot labels <g> elements without a role (aria-prohibited-attr); a group role makes the label valid.
    plot.querySelectorAll('g[aria-label]').forEach((g) => g.setAttribute('role', 'group'));
    plot.setAttribute('aria-hidden', 'true');
    host.replaceChildren(plot);

    const scale = plot.scale('x');
    const svg = plot instanceof SVGSVGElement ? plot : plot.querySelector('svg');
    if (!svg || !scale?.invert) return () => plot.remove();
    let start: number | null = null;
    const offset = (event: PointerEvent) => event.clientX - svg.getBoundingClientRect().left;
    const down = (event: PointerEvent) => {
      start = offset(event);
      setBrush({ from: start, to: start });
    };
    const move = (event: PointerEvent) => {
      if (start !== null) setBrush({ from: start, to: offset(event) });
    };
    const up = (event: PointerEvent) => {
      if (start === null) return;
      const end = offset(event);
      const [a, b] = [Math.min(start, end), Math.max(start, end)];
      start = null;
      setBrush(null);
      if (b - a < 8) return;
      const from = scale.invert!(a) as Date;
      const to = scale.invert!(b) as Date;
      if (to.getTime() - from.getTime() > 3_600_000) setZoom([from, to]);
    };
    svg.addEventListener('pointerdown', down);
    svg.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    return () => {
      svg.removeEventListener('pointerdown', down);
      svg.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      plot.remove();
    };
  }, [points, width, zoom]);

  const download = () => {
    downloadCsv(`${fileStem}_issues_over_time`, issuesChartCsv(points));
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="issues-over-time">
      <Group justify="space-between" mb="xs" wrap="wrap" gap="xs">
        <div>
          <Title order={3} fz="md" id="issues-over-time">
            Issues over time
          </Title>
          {points.length > 0 ? (
            <Text size="xs" c="dark.3" data-testid="chart-subtitle">
              {points.length === 1
                ? 'Issues found by the last crawl'
                : `Issues found by each of the last ${pluralise(points.length, 'crawl')} · drag across the chart to zoom`}
            </Text>
          ) : null}
        </div>
        <Group gap="xs">
          {zoom ? (
            <Button
              size="compact-sm"
              variant="default"
              onClick={() => setZoom(null)}
              leftSection={<Icon name="zoom-out" size={14} />}
            >
              Reset zoom
            </Button>
          ) : null}
          <Button
            size="compact-sm"
            variant="default"
            onClick={download}
            disabled={points.length === 0}
            leftSection={<Icon name="download" size={14} />}
          >
            Download data
          </Button>
        </Group>
      </Group>
      {error}
      <div
        ref={frameRef}
        style={{
          position: 'relative',
          height: CHART_HEIGHT,
          cursor: 'crosshair',
          userSelect: 'none',
          display: error ? 'none' : undefined,
        }}
        data-testid="issues-chart"
      >
        {points.length === 0 ? (
          <Text size="sm" c="dark.3" ta="center" pt={100}>
            {isLoading ? 'Loading…' : 'No crawls to chart yet.'}
          </Text>
        ) : null}
        <div ref={plotRef} />
        {brush ? (
          <div
            aria-hidden
            style={{
              position: 'absolute',
              top: 22,
              bottom: 40,
              left: Math.min(brush.from, brush.to),
              width: Math.abs(brush.to - brush.from),
              background: 'rgb(11 103 135 / 0.12)',
              border: '1px solid rgb(11 103 135 / 0.4)',
              pointerEvents: 'none',
            }}
          />
        ) : null}
      </div>
      <VisuallyHidden>
        <table>
          <caption>Issues per crawl</caption>
          <thead>
            <tr>
              <th scope="col">Crawl</th>
              <th scope="col">Issues</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.date.getTime()}>
                <td>{p.label}</td>
                <td>{formatNumber(p.issues)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </Paper>
  );
}
