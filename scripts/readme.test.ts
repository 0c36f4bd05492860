/**
 * The README is the front door (issue 28): what the product is, the two commands, a tour with its two screenshots,
 * then a link to every deeper page; and no relative link in it or in docs/ leads nowhere.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoDir = path.resolve(import.meta.dirname, '..');
const readme = fs.readFileSync(path.join(repoDir, 'README.md'), 'utf8');
const docs = fs
  .readdirSync(path.join(repoDir, 'docs'))
  .filter((file) => file.endsWith('.md'))
  .map((file) => `docs/${file}`);

/** Relative link targets of a Markdown file, without their #anchor, resolved against the repository. */
function relativeLinks(file: string): { target: string; resolved: string }[] {
  const text = fs.readFileSync(path.join(repoDir, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'))
    .map((target) => ({ target, resolved: path.join(path.dirname(file), target.split('#')[0]!) }));
}

describe('README.md', () => {
  it('opens with what the product is, the two commands, then a tour with two screenshots', () => {
    const headings = [...readme.matchAll(/^##? (.+)$/gm)].map((m) => m[1]);
    expect(headings.slice(0, 4)).toEqual(['Technical Health Check', 'Quick start', 'Tests', 'A tour']);
    expect(readme.split('\n## ')[0]).toMatch(/crawl-audit module/);
    expect(readme).toContain('```sh\nnpm install && npm start\n```');
    expect(readme).toContain('```sh\nnpm test\n```');
    const tour = readme.slice(readme.indexOf('## A tour'), readme.indexOf('\n## ', readme.indexOf('## A tour') + 1));
    const images = [...tour.matchAll(/!\[[^\]]+\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(images).toEqual(['docs/screenshots/overview.png', 'docs/screenshots/report.png']);
    for (const image of images) expect(fs.statSync(path.join(repoDir, image)).size).toBeGreaterThan(10_000);
  });

  it('links every page of docs/ and the benchmark, and stays a front page, not a history', () => {
    const linked = new Set(relativeLinks('README.md').map((l) => l.resolved));
    for (const page of [...docs, 'bench/README.md', 'bench/results.md', 'bench/history.md'])
      expect(linked, page).toContain(page);
    expect(readme.split('\n').length).toBeLessThan(200);
  });

  it('has no relative link, in the README or in docs/, that leads nowhere', () => {
    const broken = ['README.md', ...docs, 'bench/README.md'].flatMap((file) =>
      relativeLinks(file)
        .filter((link) => !fs.existsSync(path.join(repoDir, link.resolved)))
        .map((link) => `${file}: ${link.target}`),
    );
    expect(broken).toEqual([]);
  });
});
