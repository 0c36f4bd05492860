/**
 * The browser tests' data, prepared once before any service starts (scripts/run-e2e.ts copies it to each group's
 * data directory): the demo websites, one big crawl for the export tests, and the same-day website's crawls.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MANIFEST_FILE } from '../../catalog/export-contract.ts';
import { generateSite } from '../../scripts/fixtures/generate.ts';
import { seedDemo } from '../../service/demo.ts';
import { loadCrawl } from '../../service/load/load-crawl.ts';
import { WEBSITE_FILE, listLiveCrawls, websiteDir } from '../../service/store/layout.ts';
import { extra, websites } from './helpers.ts';

/**
 * Names the website as the tests know it before its first load, which would otherwise name it after its crawl's
 * (Northwind's) and leave three websites called "Northwind Outfitters" in every picker.
 */
function writeWebsiteFile(dataDir: string, website: { id: string; name: string; domain: string }): void {
  const dir = websiteDir(dataDir, website.id);
  fs.mkdirSync(dir, { recursive: true });
  const { id, name, domain } = website;
  fs.writeFileSync(path.join(dir, WEBSITE_FILE), `${JSON.stringify({ id, name, domain }, null, 2)}\n`);
}

/** Writes one crawl of Northwind's profile at `extra.big.urls` URLs under the big website's id and loads it. */
export async function loadBigSite(dataDir: string, log: (line: string) => void): Promise<void> {
  if (listLiveCrawls(dataDir).some((crawl) => crawl.websiteId === extra.big.id)) return;
  const started = performance.now();
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-e2e-big-'));
  try {
    const site = await generateSite({ outDir, site: websites.northwind.id, urls: extra.big.urls, crawls: 1 });
    const generated = performance.now();
    writeWebsiteFile(dataDir, extra.big);
    for (const exportDir of site.crawlDirs) {
      const file = path.join(exportDir, MANIFEST_FILE);
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      fs.writeFileSync(file, JSON.stringify({ ...manifest, websiteId: extra.big.id }));
      await loadCrawl({ dataDir, exportDir });
    }
    const seconds = (to: number, from: number) => ((to - from) / 1000).toFixed(1);
    log(
      `e2e: big website ${extra.big.id} (${extra.big.urls.toLocaleString('en-GB')} URLs): generated in ` +
        `${seconds(generated, started)} s, loaded in ${seconds(performance.now(), generated)} s`,
    );
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * Loads the same-day website's crawls: a small generated site whose manifests are given the crawl times of
 * `extra.sameDay`, the partial one marked as a stopped crawl's export is.
 */
export async function loadSameDaySite(dataDir: string): Promise<void> {
  if (listLiveCrawls(dataDir).some((crawl) => crawl.websiteId === extra.sameDay.id)) return;
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-e2e-same-day-'));
  try {
    const wanted = extra.sameDay.crawls;
    const site = await generateSite({ outDir, site: websites.northwind.id, urls: 300, crawls: wanted.length });
    writeWebsiteFile(dataDir, extra.sameDay);
    for (const exportDir of site.crawlDirs) {
      const file = path.join(exportDir, MANIFEST_FILE);
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      const crawl: { crawledAt: string; partialReason?: string } = wanted.find((c) => c.crawlId === manifest.crawlId)!;
      const partial = crawl.partialReason ? { stoppedEarly: true, partialReason: crawl.partialReason } : {};
      fs.writeFileSync(
        file,
        JSON.stringify({ ...manifest, websiteId: extra.sameDay.id, crawledAt: crawl.crawledAt, ...partial }),
      );
      await loadCrawl({ dataDir, exportDir });
    }
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

/** Everything the service and the global setup would otherwise generate, written into an empty data directory. */
export async function prepareE2eData(dataDir: string, log: (line: string) => void): Promise<void> {
  if (listLiveCrawls(dataDir).length === 0) {
    const started = performance.now();
    const loaded = await seedDemo(dataDir);
    log(
      `e2e: demo websites (${loaded} crawls) generated and loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  await loadBigSite(dataDir, log);
  await loadSameDaySite(dataDir);
}
