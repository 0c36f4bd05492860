/**
 * Debian packages the tests, the browser tests and the benchmark need: each is installed with apt-get when the
 * file it provides is missing and we run as root (apt-get update once per process); otherwise a clear error.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export interface DebianPackage {
  /** The apt package name. */
  name: string;
  /** A file or directory the package installs: present means installed. */
  provides: string;
}

export const debianPackages = {
  chromium: { name: 'chromium', provides: '/usr/bin/chromium' },
  /** The rendered crawl's browser (service/crawl/render/render-pool.ts), Chromium otherwise. */
  chromiumHeadlessShell: { name: 'chromium-headless-shell', provides: '/usr/lib/chromium/chromium-headless-shell' },
  nginx: { name: 'nginx-light', provides: '/usr/sbin/nginx' },
  apacheManual: { name: 'apache2-doc', provides: '/usr/share/doc/apache2-doc/manual/en/index.html' },
  rustDoc: { name: 'rust-doc', provides: '/usr/share/doc/rust-doc/html/index.html' },
  linkchecker: { name: 'linkchecker', provides: '/usr/bin/linkchecker' },
  wget: { name: 'wget', provides: '/usr/bin/wget' },
  xmllint: { name: 'libxml2-utils', provides: '/usr/bin/xmllint' },
  postgresql: { name: 'postgresql', provides: '/usr/lib/postgresql' },
} as const satisfies Record<string, DebianPackage>;

let updated = false;

/** Installs the missing ones; throws naming the packages when that is not possible. */
export function ensureDebianPackages(packages: readonly DebianPackage[]): void {
  const missing = packages.filter((p) => !fs.existsSync(p.provides));
  if (missing.length === 0) return;
  const names = missing.map((p) => p.name);
  if (process.getuid?.() !== 0) {
    throw new Error(
      `missing Debian packages: ${names.join(', ')} (${missing.map((p) => p.provides).join(', ')} not found); ` +
        `install them as root with apt-get install -y ${names.join(' ')} and run again`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  console.log(`Installing ${names.join(', ')} with apt-get…`);
  if (!updated) execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  updated = true;
  execFileSync('apt-get', ['install', '-y', ...names], { stdio: 'inherit', env });
  const still = missing.filter((p) => !fs.existsSync(p.provides));
  if (still.length > 0) {
    throw new Error(`apt-get finished but ${still.map((p) => p.provides).join(', ')} is still missing`);
  }
}
