import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_CRAWLS, DEMO_SITES, generateDemo, type ExportDirs } from '../scripts/fixtures/generate.ts';
import { writeVendorFiles, type VendorImport } from '../scripts/fixtures/vendor-files.ts';
import { loadCrawl, type LoadPhase } from './load/load-crawl.ts';
import { importData, refreshJoins } from './sources/import-data.ts';

/** One step of seeding the demo: a crawl generated, a phase of its load, or a vendor export imported. */
export interface DemoProgress {
  websiteId: string;
  crawlId: number;
  step: 'generated' | Exclude<LoadPhase, 'commit' | 'done'> | 'loaded' | 'imported';
  /** Crawls generated and loaded so far, of `total` (each crawl counts twice). */
  completed: number;
  total: number;
  /** e.g. '2,108 URLs' once generated, the load's own label while loading, the source and its rows once imported. */
  detail: string;
}

export interface SeedDemoOptions {
  /** Crawls per website (the generator's default: 6). */
  crawls?: number;
  onProgress?: (progress: DemoProgress) => void;
}

/** Who the Data sources page says made the demo's imports. */
export const DEMO_IMPORTER = 'demo';

export interface LoadDemoSiteOptions {
  dataDir: string;
  site: ExportDirs;
  /** The website's marketing data as vendor files (vendor-files.ts), imported as staff import theirs. */
  imports: readonly VendorImport[];
  onLoadPhase?: (crawlId: number, phase: LoadPhase, label: string) => void;
  onLoaded?: (crawlId: number, seconds: number) => void;
  onImported?: (crawlId: number, detail: string) => void;
}

/**
 * Loads a website's crawls oldest first (each diffs against its predecessor), importing its vendor files once the
 * oldest is loaded: an import needs a crawl to match URLs against; one refresh after the imports brings their data
 * into that crawl, and every later crawl joins the imported data of its window as it loads.
 */
export async function loadDemoSite(options: LoadDemoSiteOptions): Promise<number> {
  const { dataDir, site } = options;
  let loaded = 0;
  for (const exportDir of site.crawlDirs) {
    const crawlId = Number(path.basename(exportDir));
    const result = await loadCrawl({
      dataDir,
      exportDir,
      onProgress: (p) => options.onLoadPhase?.(crawlId, p.phase, p.label),
    });
    options.onLoaded?.(result.crawlId, result.seconds);
    if (loaded++ > 0) continue;
    for (const { source, files } of options.imports) {
      const imported = await importData({
        dataDir,
        websiteId: site.websiteId,
        source,
        files,
        by: DEMO_IMPORTER,
        isRefreshDeferred: true,
      });
      options.onImported?.(result.crawlId, `${source}: ${imported.rows.toLocaleString('en-GB')} rows`);
    }
    const { refreshFailure } = await refreshJoins(dataDir, { websiteId: site.websiteId });
    if (refreshFailure) throw new Error(`demo imports of ${site.websiteId}: ${refreshFailure}`);
  }
  return loaded;
}

/** Generates the demo websites' exports and vendor files, then loads every crawl and imports every file. */
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
      const { websiteId } = site;
      const phases = new Map<number, LoadPhase>();
      loaded += await loadDemoSite({
        dataDir,
        site,
        imports: await writeVendorFiles(site, exportsDir),
        onLoadPhase: (crawlId, phase, detail) => {
          if (phases.get(crawlId) === phase || phase === 'commit' || phase === 'done') return;
          phases.set(crawlId, phase);
          report({ websiteId, crawlId, step: phase, completed, total, detail });
        },
        onLoaded: (crawlId, seconds) => {
          completed++;
          report({ websiteId, crawlId, step: 'loaded', completed, total, detail: `${seconds.toFixed(1)} s` });
        },
        onImported: (crawlId, detail) => report({ websiteId, crawlId, step: 'imported', completed, total, detail }),
      });
    }
    return loaded;
  } finally {
    fs.rmSync(exportsDir, { recursive: true, force: true });
  }
}
