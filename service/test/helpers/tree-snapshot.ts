import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Every path under `root` (relative, sorted) with a sha256 of each file's bytes: equal snapshots, equal trees. */
export function snapshotTree(root: string): Record<string, string> {
  const snapshot: Record<string, string> = {};
  if (!fs.existsSync(root)) return snapshot;
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(root, full);
      if (entry.isDirectory()) {
        snapshot[`${rel}/`] = 'dir';
        walk(full);
      } else {
        snapshot[rel] = crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex');
      }
    }
  };
  walk(root);
  return snapshot;
}
