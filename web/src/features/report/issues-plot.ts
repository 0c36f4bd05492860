import * as Plot from '@observablehq/plot';
import { CHART_HEIGHT } from '../../../../catalog/constants.ts';
import { keyDates } from '../../../../catalog/index.ts';
import type { KeyDate as KeyDateEntry } from '../../../../catalog/schema.ts';
import { formatDate, formatNumber, toDate } from '../../../../catalog/format.ts';
import { chartDomain, crawlTicks, tickWidth } from './chart-ticks.ts';
import type { Point } from './issues-chart-data.ts';

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

/**
 * The issues line over the zoomed (or whole) crawl range: crawl-dated ticks that fit the width, whole-issue y ticks
 * for small counts, the key dates in range and a tooltip per crawl. Hidden from assistive technology, which reads
 * the chart's table instead.
 */
export function drawIssuesPlot(points: readonly Point[], width: number, zoom: [Date, Date] | null) {
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
  return plot;
}
