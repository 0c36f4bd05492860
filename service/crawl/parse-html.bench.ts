/**
 * Micro-benchmark of the crawler's HTML parser on real documentation sites, beside htmlparser2 alone (entities
 * decoded, empty callbacks) as the floor. CPU time, so other processes on the machine count less.
 *   node --import tsx service/crawl/parse-html.bench.ts [ROOT...]   (default: the Apache manual and rust-doc)
 */
import fs from 'node:fs';
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { parseHtml } from './parse-html.ts';

const ROUNDS = 3;
/** rust-doc holds 500 MB of HTML: every sixth file keeps the benchmark's memory small. */
const MAX_FILES = 6000;

function htmlFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) htmlFiles(file, out);
    else if (entry.isFile() && /\.html(\.[\w-]+)?$/.test(entry.name)) out.push(file);
  }
  return out;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

const roots = process.argv.slice(2);
for (const root of roots.length > 0 ? roots : ['/usr/share/doc/apache2-doc/manual', '/usr/share/doc/rust-doc/html']) {
  const all = htmlFiles(root).sort();
  const step = Math.ceil(all.length / MAX_FILES);
  const files = all.filter((_file, i) => i % step === 0);
  const pages = files.map((file) => ({
    url: `http://127.0.0.1:8080/${path.relative(root, file)}`,
    bytes: fs.readFileSync(file),
  }));
  const kb = pages.reduce((sum, page) => sum + page.bytes.length, 0) / pages.length / 1000;
  const report = (what: string, ms: number) =>
    console.log(
      `${root} ${what}: ${pages.length} pages of ${kb.toFixed(1)} KB on average, ` +
        `${((ms * 1000) / pages.length).toFixed(0)} µs CPU a page, ${((kb * pages.length) / ms).toFixed(1)} MB/s`,
    );
  for (let round = 0; round < ROUNDS; round++) {
    let started = cpuMs();
    for (const page of pages) new Parser({ onopentag() {}, ontext() {} }).end(page.bytes.toString('utf8'));
    report('htmlparser2 alone', cpuMs() - started);
    started = cpuMs();
    for (const page of pages) parseHtml(page.bytes, page.url);
    report('parseHtml', cpuMs() - started);
  }
}
