import { VisuallyHidden } from '@mantine/core';
import { formatNumber } from '../../../../catalog/format.ts';
import type { Point } from './issues-chart-data.ts';

/** The chart's figures as a table for screen readers, since the plot itself is hidden from them. */
export function IssuesChartTable({ points }: { points: readonly Point[] }) {
  return (
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
  );
}
