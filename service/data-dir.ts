/**
 * DATA_DIR holds password hashes and session tokens (the embedded app database in app-db/), the admin CLI's token,
 * the outgoing mail and the loaded crawls: only the service's user may read it. The processes that write there (the
 * service, the loader CLI, the admin CLI; a crawl run's worker inherits the service's) run with umask 077, so what
 * they create is 0600 (files) and 0700 (folders), whatever the file's creator asks for (DuckDB asks for 0644). What
 * an older build, another umask or a copied-in file left readable is tightened at start by one walk of DATA_DIR
 * (a stat per entry: well under a second for tens of thousands of files).
 */
import fs from 'node:fs';
import path from 'node:path';

const GROUP_AND_OTHER = 0o077;

/** The umask of every process that writes to DATA_DIR. */
export function useDataDirUmask(): void {
  process.umask(GROUP_AND_OTHER);
}

/** Sets the umask, creates DATA_DIR (0700) and takes group and other permissions off everything in it. */
export function makeDataDirPrivate(dataDir: string): void {
  useDataDirUmask();
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  makePrivate(dataDir);
}

/**
 * Folders to 0700 and files to 0600 (0700 when executable) at and below `dir`, where group or other have any
 * permission; symbolic links are neither followed nor changed. Returns how many entries it changed. Entries removed
 * meanwhile (a load finishing) are skipped.
 */
export function makePrivate(dir: string): number {
  let changed = 0;
  const tighten = (entry: string, stats: fs.Stats): void => {
    if ((stats.mode & GROUP_AND_OTHER) === 0) return;
    const mode = stats.isDirectory() || (stats.mode & 0o100) !== 0 ? 0o700 : 0o600;
    ignoreMissing(() => fs.chmodSync(entry, mode));
    changed++;
  };
  const visit = (folder: string): void => {
    const entries = ignoreMissing(() => fs.readdirSync(folder, { withFileTypes: true })) ?? [];
    for (const entry of entries) {
      if (entry.isSymbolicLink()) continue;
      const full = path.join(folder, entry.name);
      const stats = ignoreMissing(() => fs.lstatSync(full));
      if (!stats) continue;
      tighten(full, stats);
      if (stats.isDirectory()) visit(full);
    }
  };
  // DATA_DIR itself may be a link to where the data lives.
  const top = fs.statSync(dir);
  tighten(dir, top);
  if (top.isDirectory()) visit(dir);
  return changed;
}

function ignoreMissing<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
