/**
 * Test helper: the row files a real crawl streamed (nodes, pages, edges, images, sitemaps), read from its work
 * directory under `scratchDir` when the crawl reports that it starts exporting (the files are complete then, and
 * removed once the crawl ends).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CrawlProgress } from '../../crawl/crawl-options.ts';
import { crawlRecords, recordFileOf, type CrawlRecordKind } from '../../crawl/crawl-records.ts';

export type CapturedRecords = Record<CrawlRecordKind, Record<string, unknown>[]>;

export interface RecordsCapture {
  /** The crawl's onProgress. */
  onProgress: (progress: CrawlProgress) => void;
  /** Every progress report, in order. */
  reports: CrawlProgress[];
  /** The rows, once the crawl reported its export phase. */
  records(): CapturedRecords;
}

export function captureRecords(scratchDir: string): RecordsCapture {
  const reports: CrawlProgress[] = [];
  let captured: CapturedRecords | null = null;
  return {
    reports,
    onProgress(progress) {
      reports.push(progress);
      if (progress.phase !== 'exporting' || captured !== null) return;
      const [workDir] = fs.readdirSync(scratchDir).filter((name) => name.startsWith('thc-crawl-'));
      if (workDir === undefined) throw new Error(`no work directory in ${scratchDir}`);
      const rowsOf = (kind: CrawlRecordKind): Record<string, unknown>[] =>
        fs
          .readFileSync(path.join(scratchDir, workDir, recordFileOf(kind)), 'utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      captured = Object.fromEntries(
        (Object.keys(crawlRecords) as CrawlRecordKind[]).map((kind) => [kind, rowsOf(kind)]),
      ) as CapturedRecords;
    },
    records() {
      if (captured === null) throw new Error('the crawl never reported its export phase');
      return captured;
    },
  };
}
