import fs from 'node:fs';
import path from 'node:path';
import { generateDemo } from '../scripts/fixtures/generate.ts';
import { loadCrawl } from './load/load-crawl.ts';

/** Generates the demo websites' exports and loads every crawl, oldest first so each diffs against its predecessor. */
export async function seedDemo(dataDir: string): Promise<number> {
  const exportsDir = path.join(dataDir, 'demo-exports');
  fs.rmSync(exportsDir, { recursive: true, force: true });
  try {
    const sites = await generateDemo({ outDir: exportsDir });
    let loaded = 0;
    for (const site of sites) {
      for (const exportDir of site.crawlDirs) {
        await loadCrawl({ dataDir, exportDir });
        loaded++;
      }
    }
    return loaded;
  } finally {
    fs.rmSync(exportsDir, { recursive: true, force: true });
  }
}
