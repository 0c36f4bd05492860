import { useMemo, useRef, type ReactNode } from 'react';
import { Paper, Text } from '@mantine/core';
import { CHART_HEIGHT } from '../../../../catalog/constants.ts';
import type { TrendPoint } from '../../api/types.ts';
import { downloadCsv } from '../../lib/csv.ts';
import { useElementWidth } from '../../lib/use-element-width.ts';
import { BrushSelection } from './brush-selection.tsx';
import { issuesChartCsv, pointsOf } from './issues-chart-data.ts';
import { IssuesChartHeader } from './issues-chart-header.tsx';
import { IssuesChartTable } from './issues-chart-table.tsx';
import { useIssuesPlot } from './use-issues-plot.ts';

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
  const points = useMemo(() => pointsOf(trends), [trends]);
  const { plotRef, zoom, resetZoom, brush } = useIssuesPlot(points, width);

  const download = () => {
    downloadCsv(`${fileStem}_issues_over_time`, issuesChartCsv(points));
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="issues-over-time">
      <IssuesChartHeader
        crawlCount={points.length}
        isZoomed={zoom !== null}
        onResetZoom={resetZoom}
        onDownload={download}
      />
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
        {brush ? <BrushSelection brush={brush} /> : null}
      </div>
      <IssuesChartTable points={points} />
    </Paper>
  );
}
