/**
 * The rendered-crawl bench's site: `pages` shells written to a directory for nginx, each with the links of its page
 * in the raw HTML (so a crawl that does not render reaches the same pages) and one React bundle that renders the page
 * itself (title, description, heading, text, the same links). Both crawls then fetch the same URLs, and the
 * difference in time is the browser's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleApp } from '../../scripts/support/bundle-app.ts';
import { pageHref, treeLinks } from './site-tree.ts';

function shell(i: number, pages: number): string {
  const links = treeLinks(i, pages);
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Loading</title>` +
    `<meta name="description" content="Loading the app"></head><body><div id="root"></div>` +
    `<nav>${links.map((n) => `<a href="${pageHref(n)}">Page ${n}</a>`).join(' ')}</nav>` +
    `<script src="/app.js"></script></body></html>`
  );
}

/** Writes the site into a new temporary directory; `remove` deletes it. */
export async function writeRenderedSite(pages: number): Promise<{ root: string; remove(): void }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-bench-rendered-'));
  fs.mkdirSync(path.join(root, 'page'));
  fs.writeFileSync(
    path.join(root, 'app.js'),
    await bundleApp(path.join(import.meta.dirname, 'rendered-site-app.tsx'), { PAGES: String(pages) }),
  );
  fs.writeFileSync(path.join(root, 'index.html'), shell(0, pages));
  for (let i = 1; i < pages; i++) fs.writeFileSync(path.join(root, 'page', `${i}.html`), shell(i, pages));
  return { root, remove: () => fs.rmSync(root, { recursive: true, force: true }) };
}
