import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_CRAWLS, DEMO_SITES, generateDemo } from '../scripts/fixtures/generate.ts';
import { loadCrawl, type LoadPhase } from './load/load-crawl.ts';

/** One step of seeding the demo: a crawl generated, or a phase of its load. */
export interface DemoProgress {
  websiteId: string;
  crawlId: number;
  step: 'generated' | Exclude<LoadPhase, 'commit' | 'done'> | 'loaded';
  /** Crawls generated and loaded so far, of `total` (each crawl counts twice). */
  completed: number;
  total: number;
  /** e.g. '2,108 URLs' once generated, the load's own label while loading. */
  detail: string;
}

export interface SeedDemoOptions {
  /** Crawls per website (the generator's default: 6). */
  crawls?: number;
  onProgress?: (progress: DemoProgress) => void;
}

/** Generates the demo websites' exports and loads every crawl, oldest first so each diffs against its predecessor. */
export async function seedDemo(dataDir: string, options: SeedDemoOptions = {}): Promise<number> {
  const exportsDir = path.join(dataDir, 'demo-exports');
  fs.rmSync(exportsDir, { recursive: true, force: true });
  const report = options.onProgress ?? (() => undefined);
  const total = 2 * DEMO_SITES.length * (options.crawls ?? DEFAULT_CRAWLS);
  let completed = 0;
  try {
    const sites = await generateDemo({
      outDir: exportsDir,
      crawls: options.crawls,
      onCrawl: ({ websiteId, crawlId, stats }) => {
        completed++;
        report({
          websiteId,
          crawlId,
          step: 'generated',
          completed,
          total,
          detail: `${stats.urls.toLocaleString('en-GB')} URLs`,
        });
      },
    });
    let loaded = 0;
    for (const site of sites) {
      for (const exportDir of site.crawlDirs) {
        const crawlId = Number(path.basename(exportDir));
        let phase: LoadPhase | undefined;
        const result = await loadCrawl({
          dataDir,
          exportDir,
          onProgress: (p) => {
            if (p.phase === phase || p.phase === 'commit' || p.phase === 'done') return;
            phase = p.phase;
            report({ websiteId: site.websiteId, crawlId, step: p.phase, completed, total, detail: p.label });
          },
        });
        completed++;
        report({
          websiteId: site.websiteId,
          crawlId: result.crawlId,
          step: 'loaded',
          completed,
          total,
          detail: `${result.seconds.toFixed(1)} s`,
        });
        loaded++;
      }
    }
    return loaded;
  } finally {
    fs.rmSync(exportsDir, { recursive: true, force: true });
  }
}
