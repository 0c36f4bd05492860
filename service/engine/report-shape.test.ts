import { describe, expect, it } from 'vitest';
import { dataSourceIds, dataSources } from '../../catalog/data-sources.ts';
import { exportTables } from '../../catalog/export-contract.ts';
import { catalog } from '../../catalog/index.ts';
import { ENGINE_SOURCE_TABLES, metricRelation, reportRowsLive, shapeOf, subRowExpression } from './report-shape.ts';
import { stakeUrlRelation } from './stakes.ts';

describe('ENGINE_SOURCE_TABLES', () => {
  it("is exactly the source tables the reports', metrics' and stakes' SQL reads", () => {
    const tables = new Set<string>(exportTables.map((t) => t.id));
    const range = { start: '2026-10-01', end: '2026-10-28' };
    const sqls = [
      ...catalog.reports.flatMap((report) => {
        const shape = shapeOf(report);
        const rows = reportRowsLive(shape, {
          alias: 'crawl',
          metrics: { range },
          tables,
          connected: new Set(dataSourceIds),
        });
        return [rows.sql, subRowExpression(shape, 'crawl')?.sql ?? ''];
      }),
      ...(['search_console', 'analytics', 'ads'] as const).map(
        (f) => metricRelation('crawl', f, { range }, tables).sql,
      ),
      stakeUrlRelation('crawl', tables, range).sql,
    ];
    const read = new Set(sqls.flatMap((text) => [...text.matchAll(/"crawl"\."(\w+)"/g)].map((m) => m[1]!)));
    const sourceTables = new Set<string>(dataSources.flatMap((s) => s.tables));
    expect([...read].filter((t) => sourceTables.has(t)).sort()).toEqual([...ENGINE_SOURCE_TABLES].sort());
    // So an import of these alone leaves every precomputed report as it was (write-crawl.ts).
    expect([...sourceTables].filter((t) => !ENGINE_SOURCE_TABLES.has(t)).sort()).toEqual([
      'keyword_planner',
      'search_console_site',
      'trends',
    ]);
  });
});
