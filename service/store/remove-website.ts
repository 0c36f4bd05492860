/**
 * Deleting a website takes its folder out of the store in one rename (so no sync registers it again, and a reader sees
 * it whole or not at all) into DATA_DIR/deleted, from where it is removed once the deletion has committed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { websiteDir } from './layout.ts';

export const DELETED_DIR = 'deleted';

/** Moves store/<websiteId> to DATA_DIR/deleted; resolves with where it went, undefined when it had no folder. */
export function moveWebsiteAside(dataDir: string, websiteId: string, now: Date): string | undefined {
  const dir = websiteDir(dataDir, websiteId);
  if (!fs.existsSync(dir)) return undefined;
  const trash = path.join(dataDir, DELETED_DIR);
  fs.mkdirSync(trash, { recursive: true, mode: 0o700 });
  const target = path.join(trash, `${websiteId}-${now.getTime()}-${process.pid}`);
  fs.renameSync(dir, target);
  return target;
}
