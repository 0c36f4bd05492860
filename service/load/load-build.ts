/**
 * A load being built on disk under its website's lock: the folders and files it created, so that a load that
 * fails before it is published leaves nothing behind, and a process that must exit now can drop it at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  CURRENT_FILE,
  PARTIAL_SUFFIX,
  WEBSITE_FILE,
  crawlDir,
  storeDir,
  websiteDir,
  writeFileAtomic,
} from '../store/layout.ts';
import { acquireLoadLock, acquireSharedLoadLock, type LoadLock, type SharedLoadLock } from './load-lock.ts';
import { removeIfEmpty, websiteFromStartUrl } from './store-files.ts';
import { fsyncDir } from '../store/fsync.ts';

const activeBuilds = new Set<LoadBuild>();

/**
 * For a process that must exit now (a second Ctrl-C, a stuck query): removes every unfinished load's directory
 * and lock synchronously. Anything it misses is removed by the next load of that website.
 */
export function abandonActiveLoadsSync(): void {
  for (const build of activeBuilds) build.abandonSync();
  activeBuilds.clear();
}

/** A step after publishing: a failure there must not fail the load; whatever is left, the next load removes. */
export function afterCommit(step: () => void): void {
  try {
    step();
  } catch {
    /* see the caller */
  }
}

export class LoadBuild {
  readonly websitePath: string;
  readonly crawlPath: string;
  #lock: LoadLock | undefined;
  #sharedLock: SharedLoadLock | undefined;
  /** The load directory being built: `<loadId>.partial`, or `<loadId>` between the rename and CURRENT. */
  #buildDir: string | undefined;
  readonly #createdDirs: string[] = [];
  #hasWrittenWebsite = false;
  #isCommitted = false;

  constructor(
    readonly dataDir: string,
    readonly websiteId: string,
    readonly crawlId: number,
  ) {
    this.websitePath = websiteDir(dataDir, websiteId);
    this.crawlPath = crawlDir(dataDir, websiteId, crawlId);
    activeBuilds.add(this);
  }

  /** The website's load lock, and with a shared app database its advisory lock, which keeps other hosts out. */
  async lockWebsite(databaseUrl: string | undefined): Promise<void> {
    fs.mkdirSync(this.dataDir, { recursive: true });
    this.#makeDir(storeDir(this.dataDir));
    this.#makeDir(this.websitePath);
    this.#lock = acquireLoadLock(this.websitePath, this.websiteId);
    if (databaseUrl) this.#sharedLock = await acquireSharedLoadLock(databaseUrl, this.websitePath, this.websiteId);
  }

  startPartialDir(loadId: string): string {
    this.#makeDir(this.crawlPath);
    const partialDir = path.join(this.crawlPath, `${loadId}${PARTIAL_SUFFIX}`);
    fs.mkdirSync(partialDir);
    this.#buildDir = partialDir;
    return partialDir;
  }

  /** Renames the finished partial load to `<loadId>/`: complete on disk, not yet live. */
  moveIntoPlace(partialDir: string, loadId: string): string {
    const loadDir = path.join(this.crawlPath, loadId);
    fs.renameSync(partialDir, loadDir);
    this.#buildDir = loadDir;
    fsyncDir(this.crawlPath);
    return loadDir;
  }

  /** A website's first load describes it from the crawl's start URL. */
  writeWebsiteFileIfMissing(startUrl: string): void {
    const websiteFile = path.join(this.websitePath, WEBSITE_FILE);
    if (fs.existsSync(websiteFile)) return;
    writeFileAtomic(websiteFile, `${JSON.stringify(websiteFromStartUrl(this.websiteId, startUrl), null, 2)}\n`);
    this.#hasWrittenWebsite = true;
    fsyncDir(this.websitePath);
  }

  /** Rewrites CURRENT to name the new load: from here it is live. */
  publish(loadId: string): void {
    writeFileAtomic(path.join(this.crawlPath, CURRENT_FILE), loadId);
    this.#isCommitted = true;
    afterCommit(() => fsyncDir(this.crawlPath));
  }

  /** Removes what an unpublished load wrote (its database is closed by now). */
  undo(): void {
    if (this.#isCommitted) return;
    if (this.#buildDir) fs.rmSync(this.#buildDir, { recursive: true, force: true });
    if (this.#hasWrittenWebsite) fs.rmSync(path.join(this.websitePath, WEBSITE_FILE), { force: true });
  }

  /** Releases the locks, telling other hosts of a published load, and removes the folders an unpublished one made. */
  async finish(): Promise<void> {
    this.#lock?.release();
    if (this.#isCommitted) await this.#sharedLock?.announce();
    await this.#sharedLock?.release();
    activeBuilds.delete(this);
    if (!this.#isCommitted) {
      for (const dir of this.#createdDirs.reverse()) removeIfEmpty(dir);
    }
  }

  abandonSync(): void {
    if (!this.#isCommitted && this.#buildDir) fs.rmSync(this.#buildDir, { recursive: true, force: true });
    this.#lock?.release();
  }

  #makeDir(dir: string): void {
    if (fs.existsSync(dir)) return;
    fs.mkdirSync(dir);
    this.#createdDirs.push(dir);
    fsyncDir(path.dirname(dir));
  }
}
