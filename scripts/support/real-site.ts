/**
 * Real websites nobody here wrote, served on 127.0.0.1 by Debian's nginx with a private configuration: the Apache
 * manual (apache2-doc), the Rust documentation (rust-doc), and any directory a test or the benchmark generates.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { debianPackages, ensureDebianPackages } from './debian-packages.ts';
import { freePort, isListening } from './free-port.ts';

export const APACHE_MANUAL_ROOT = '/usr/share/doc/apache2-doc/manual';
export const RUST_DOC_ROOT = '/usr/share/doc/rust-doc/html';

export interface RunningSite {
  /** The site's root URL, ending in a slash. */
  url: string;
  port: number;
  root: string;
  /** Stops nginx (by its pid file) and removes its temp dir; resolves once the port is free. */
  stop(): Promise<void>;
}

export interface NginxOptions {
  /** The directory served at `/`. */
  root: string;
  port?: number;
  /** Extra directives inside the server block, e.g. `location = /moved { return 301 /new/; }`. */
  serverDirectives?: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, ready: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * nginx serving `root` on 127.0.0.1: symlinks followed (Debian's doc packages are full of them), directory
 * indexes as nginx does by default (index.html), `LinkChecker: ok` sent so linkchecker does not throttle itself,
 * no access log. When running as root the worker stays root so temp dirs of the tests' own sites are readable.
 */
export async function startNginx(options: NginxOptions): Promise<RunningSite> {
  ensureDebianPackages([debianPackages.nginx]);
  const root = path.resolve(options.root);
  if (!fs.statSync(root).isDirectory()) throw new Error(`${root} is not a directory`);
  const port = options.port ?? (await freePort());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-nginx-'));
  const pidFile = path.join(dir, 'nginx.pid');
  const config = path.join(dir, 'nginx.conf');
  const temp = (name: string): string => `${name} ${path.join(dir, name.replace(/_path$/, ''))};`;
  fs.writeFileSync(
    config,
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${pidFile};
error_log ${path.join(dir, 'error.log')} warn;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  ${['client_body_temp_path', 'proxy_temp_path', 'fastcgi_temp_path', 'uwsgi_temp_path', 'scgi_temp_path'].map(temp).join('\n  ')}
  sendfile on;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    index index.html;
    disable_symlinks off;
    add_header LinkChecker ok;
    ${options.serverDirectives ?? ''}
  }
}
`,
  );
  try {
    execFileSync('/usr/sbin/nginx', ['-p', dir, '-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`nginx did not start on 127.0.0.1:${port}: ${stderr || String(error)}`);
  }
  await waitFor(`nginx on port ${port}`, () => isListening(port));
  const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    root,
    async stop() {
      if (alive(pid)) process.kill(pid, 'SIGTERM');
      await waitFor(`nginx ${pid} to exit`, () => !alive(pid));
      await waitFor(`port ${port} to be free`, async () => !(await isListening(port)));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
