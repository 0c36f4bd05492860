/**
 * Generated crawls as the tests and the browser tests' data need them, made once per code version (fixture-cache.ts)
 * rather than by each test file: the default demo (both websites, six crawls each) takes a minute or more to generate
 * on two busy cores and as long again to load, and even a site of 200 URLs takes the generator 10-20 s of CPU.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_CRAWLS,
  DEFAULT_SEED,
  generateDemo,
  generateSite,
  type ExportDirs,
  type GenerateSiteOptions,
} from '../../../scripts/fixtures/generate.ts';
import { writeVendorFiles } from '../../../scripts/fixtures/vendor-files.ts';
import { loadDemoSite } from '../../demo.ts';
import { cachedFixture } from './fixture-cache.ts';

const SITES_FILE = 'sites.json';
const EXPORTS = 'exports';
const DATA = 'data';

/** The sites' crawl dirs relative to `dir`, so that an entry can be renamed into place and still be read. */
function writeSites(dir: string, sites: readonly ExportDirs[]): void {
  const relative = sites.map((s) => ({ ...s, crawlDirs: s.crawlDirs.map((d) => path.relative(dir, d)) }));
  fs.writeFileSync(path.join(dir, SITES_FILE), JSON.stringify(relative, null, 2));
}

function readSites(dir: string): ExportDirs[] {
  const sites = JSON.parse(fs.readFileSync(path.join(dir, SITES_FILE), 'utf8')) as ExportDirs[];
  return sites.map((s) => ({ ...s, crawlDirs: s.crawlDirs.map((d) => path.join(dir, d)) }));
}

/** The demo's crawl exports as the generator writes them (source tables included); read-only. */
export async function demoExports(): Promise<ExportDirs[]> {
  const inputs = { crawls: DEFAULT_CRAWLS, seed: DEFAULT_SEED };
  const dir = await cachedFixture('demo-exports', inputs, async (scratch) => {
    writeSites(scratch, await generateDemo({ outDir: path.join(scratch, EXPORTS), ...inputs }));
  });
  return readSites(dir);
}

export interface LoadedDemoFixture {
  /** The exports after their marketing tables went to vendor files (scripts/fixtures/vendor-files.ts). */
  sites: ExportDirs[];
  /** A data dir as `npm start` seeds the demo (service/demo.ts): every crawl loaded, every vendor file imported. */
  dataDir: string;
}

/**
 * The demo loaded as scripts/fixtures/golden.ts's generateAndLoadDemo and service/demo.ts's seedDemo load it (the
 * same loadDemoSite over the same vendor files); read-only: copy `dataDir` before opening an app on it.
 */
export async function loadedDemo(): Promise<LoadedDemoFixture> {
  const generated = await demoExports();
  const dir = await cachedFixture('demo-loaded', { crawls: DEFAULT_CRAWLS, seed: DEFAULT_SEED }, async (scratch) => {
    const exportDir = path.join(scratch, EXPORTS);
    const sites: ExportDirs[] = generated.map((site) => ({
      ...site,
      crawlDirs: site.crawlDirs.map((d) => path.join(exportDir, site.websiteId, path.basename(d))),
    }));
    generated.forEach((site, i) =>
      site.crawlDirs.forEach((d, j) => fs.cpSync(d, sites[i]!.crawlDirs[j]!, { recursive: true })),
    );
    const dataDir = path.join(scratch, DATA);
    for (const site of sites) await loadDemoSite({ dataDir, site, imports: await writeVendorFiles(site, exportDir) });
    writeSites(scratch, sites);
  });
  return { sites: readSites(dir), dataDir: path.join(dir, DATA) };
}

/** generateSite's exports (without `onCrawl`), copied into `outDir` for the caller to change as it likes. */
export async function copyOfGeneratedSite(options: Omit<GenerateSiteOptions, 'onCrawl'>): Promise<ExportDirs> {
  const { outDir, ...inputs } = options;
  const dir = await cachedFixture(
    'site',
    { seed: DEFAULT_SEED, crawls: DEFAULT_CRAWLS, ...inputs },
    async (scratch) => {
      writeSites(scratch, [await generateSite({ ...inputs, outDir: path.join(scratch, EXPORTS) })]);
    },
  );
  const [site] = readSites(dir);
  fs.cpSync(path.join(dir, EXPORTS), outDir, { recursive: true });
  return {
    ...site!,
    crawlDirs: site!.crawlDirs.map((d) => path.join(outDir, path.relative(path.join(dir, EXPORTS), d))),
  };
}
