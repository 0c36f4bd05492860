/**
 * npm run test:e2e: makes sure Debian's chromium is installed (apt-get when missing and running as root), builds
 * the web app, prepares the demo data once, then runs Playwright (playwright.config.ts) against the real service on
 * a free port with a copy of that data; extra arguments (e.g. one spec file) go to `playwright test`. Without
 * arguments the spec files run in chunks, two at a time (scripts/support/e2e-groups.ts); E2E_GROUPS=1 runs them as one.
 */
import fs from 'node:fs';
import { debianPackages, ensureDebianPackages } from './support/debian-packages.ts';
import { LaneQueue, buildWeb, e2eGroups, e2eJobs, prepareE2eTemplate } from './support/e2e-groups.ts';

try {
  ensureDebianPackages([debianPackages.chromium]);
} catch (error) {
  console.error(
    `${error instanceof Error ? error.message : String(error)} (Playwright uses it, never a downloaded browser)`,
  );
  process.exit(1);
}

const built = await buildWeb();
if (built !== 0) process.exit(built);

const planned = e2eGroups(process.argv.slice(2));
const template = await prepareE2eTemplate((line) => console.log(line));
try {
  const queue = new LaneQueue(e2eJobs(planned, () => Promise.resolve(template)));
  await Promise.all([queue.lane(), queue.lane()]);
  if (queue.failed.length > 0) console.error(`${queue.failed.join(', ')} failed (each summary is above)`);
  process.exitCode = queue.failed.length > 0 ? 1 : 0;
} finally {
  fs.rmSync(template, { recursive: true, force: true });
}
