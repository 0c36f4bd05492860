/** The importers, one per vendor format, and which one reads a file: decided by its content, never its name. */
import fs from 'node:fs';
import { dataSource, type DataSourceId } from '../../catalog/data-sources.ts';
import { ImportError } from './import-error.ts';
import type { Importer, SourceFile } from './importer.ts';
import { analyticsGa4Api } from './importers/analytics-ga4-api.ts';
import { analyticsGa4Report } from './importers/analytics-ga4-report.ts';
import { googleAdsReport } from './importers/google-ads-report.ts';
import { keywordPlannerStats } from './importers/keyword-planner-stats.ts';
import { microsoftAdsReport } from './importers/microsoft-ads-report.ts';
import { trendsMultiTimeline } from './importers/trends-multi-timeline.ts';
import { searchConsoleApi } from './importers/search-console-api.ts';
import { searchConsoleBulk } from './importers/search-console-bulk.ts';
import { searchConsolePerformance } from './importers/search-console-performance.ts';

export const importers: readonly Importer[] = [
  searchConsoleBulk,
  searchConsolePerformance,
  searchConsoleApi,
  analyticsGa4Report,
  analyticsGa4Api,
  googleAdsReport,
  microsoftAdsReport,
  keywordPlannerStats,
  trendsMultiTimeline,
];

const HEAD_BYTES = 64 * 1024;

export function openSourceFile(name: string, file: string): SourceFile {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ImportError(`${name}: ${code === 'ENOENT' ? 'not found' : `unreadable (${code ?? 'error'})`}`);
  }
  try {
    if (!fs.fstatSync(fd).isFile()) throw new ImportError(`${name}: not a file`);
    const head = Buffer.alloc(HEAD_BYTES);
    const size = fs.readSync(fd, head, 0, HEAD_BYTES, 0);
    return { name, path: file, head: head.subarray(0, size) };
  } finally {
    fs.closeSync(fd);
  }
}

/** The importer of a file given as `source`; refuses a file of no known format or of another source. */
export function importerOf(file: SourceFile, source: DataSourceId): Importer {
  const found = importers.find((i) => i.detect(file));
  if (!found) {
    const known = importers.filter((i) => i.source === source).map((i) => i.format);
    throw new ImportError(
      `${file.name}: not a format import-data reads for ${source} (${known.join('; ') || 'none yet'})`,
    );
  }
  if (found.source !== source)
    throw new ImportError(`${file.name}: a ${found.format} (${dataSource(found.source).title}), not a ${source} file`);
  return found;
}
