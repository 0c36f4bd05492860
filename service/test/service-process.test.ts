/**
 * The service as the README starts it (`npm start`), on a fresh data directory without demo data: what it answers
 * anonymously, the modes of what it and the loader CLI write there, and that SIGTERM to the npm process stops it cleanly.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppDb, appDbDir } from '../app-db/db.ts';
import { websiteExists } from '../app-db/websites.ts';
import { ADMIN_TOKEN_FILE } from '../app-db/db.ts';
import { tempDir } from './auth-fixture.ts';
import { makeExport } from './helpers/make-export.ts';
import { startService, type ServiceProcess } from './helpers/service-process.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

let dataDir: string;
let service: ServiceProcess;
let origin: string;
let servicePid: number;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(what: string, seconds: number, probe: () => T | undefined | Promise<T | undefined>) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} within ${seconds} s; the service said:\n${service.output()}`);
    await sleep(100);
  }
}

/** The admin CLI, which hands its command to the running service. */
const admin = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
  });

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const isPortFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

const modesBelow = (dir: string): Record<string, string> =>
  Object.fromEntries(
    fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((name) => {
      const mode = fs.statSync(path.join(dir, name)).mode & 0o777;
      return [name, mode.toString(8)];
    }),
  );

/** Left readable by an older build or another umask: the start takes the permissions off. */
const LEFT_READABLE = { file: 'outbox/old.eml', folder: 'outbox' };

beforeAll(async () => {
  dataDir = path.join(tempDir('thc-process-'), 'data');
  fs.mkdirSync(path.join(dataDir, LEFT_READABLE.folder), { recursive: true, mode: 0o755 });
  fs.writeFileSync(path.join(dataDir, LEFT_READABLE.file), 'x', { mode: 0o666 });
  fs.chmodSync(dataDir, 0o755);
  // PORT=0: the service takes a free port and names it in admin.token, the hand-over file of the admin CLI.
  service = await startService({ env: { DATA_DIR: dataDir, PORT: '0' }, viaNpm: true });
  const handOver = await waitFor('no hand-over', 10, () => {
    const file = path.join(dataDir, ADMIN_TOKEN_FILE);
    return fs.existsSync(file)
      ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { url: string; pid: number })
      : undefined;
  });
  origin = handOver.url;
  servicePid = handOver.pid;
});

afterAll(() => {
  for (const pid of [servicePid, service?.process.pid])
    if (pid !== undefined && isRunning(pid)) process.kill(pid, 'SIGKILL');
});

describe('npm start', () => {
  it('answers /api/health with readiness only, but to an admin', async () => {
    const response = await fetch(`${origin}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    await admin('website', 'add', '--id', 'shop', '--name', 'Shop', '--domain', 'shop.example');
    const password = ['--password', 'long-enough-pass'];
    await admin('user', 'add', '--email', 'admin@shop.example', ...password, '--role', 'ADMIN');
    await admin('user', 'add', '--email', 'client@shop.example', ...password, '--role', 'CLIENT', '--website', 'shop');
    const healthAs = async (email: string): Promise<unknown> => {
      const login = await fetch(`${origin}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'long-enough-pass' }),
      });
      expect(login.status).toBe(200);
      const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
      return (await fetch(`${origin}/api/health`, { headers: { cookie } })).json();
    };
    expect(await healthAs('client@shop.example')).toEqual({ status: 'ok' });
    expect(await healthAs('admin@shop.example')).toEqual({ status: 'ok', websites: 0, crawls: 0 });
  });

  it('keeps the data directory private: folders 0700, files 0600, the app database and loaded crawls included', async () => {
    // The test above wrote through the running service, so the embedded app database has its files and lock; a crawl
    // loaded by the loader CLI meanwhile puts the store's files there.
    const made = await makeExport({
      manifest: { websiteId: 'shop', crawlId: 1, crawledAt: '2025-03-01T09:00:00.000Z' },
    });
    try {
      await run(process.execPath, ['--import', 'tsx', 'scripts/load-crawl.ts', made.dir, '--data-dir', dataDir], {
        cwd: ROOT,
      });
    } finally {
      fs.rmSync(made.dir, { recursive: true, force: true });
    }
    expect((fs.statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
    const modes = modesBelow(dataDir);
    const names = Object.keys(modes);
    expect(names).toEqual(
      expect.arrayContaining([ADMIN_TOKEN_FILE, 'app-db.lock', 'app-db/PG_VERSION', LEFT_READABLE.file]),
    );
    expect(names.filter((n) => n.startsWith('app-db/')).length).toBeGreaterThan(900);
    expect(names.filter((n) => n.startsWith('store/shop/1/')).length).toBeGreaterThan(3);
    for (const [name, mode] of Object.entries(modes))
      expect({ name, mode }).toEqual({
        name,
        mode: fs.statSync(path.join(dataDir, name)).isDirectory() ? '700' : '600',
      });
  });

  it('stops on SIGTERM to the npm process: the request in flight is answered, the service exits, its port is free within 5 s, the store reopens', async () => {
    const port = Number(new URL(origin).port);
    expect(isRunning(servicePid)).toBe(true);
    // A sign-in whose body has not arrived yet when SIGTERM does.
    const body = JSON.stringify({ email: 'admin@shop.example', password: 'not-the-password' });
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
    );
    await sleep(300);
    const stopped = service.stop('SIGTERM');
    const started = Date.now();
    await sleep(300);
    socket.write(body);
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toContain('Invalid email or password');
    await waitFor('the service did not stop and free its port', 5, async () =>
      !isRunning(servicePid) && (await isPortFree(port)) ? true : undefined,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await stopped).toBe(0);
    expect(fs.existsSync(path.join(dataDir, ADMIN_TOKEN_FILE))).toBe(false);
    const appDb = await AppDb.open(appDbDir(dataDir));
    try {
      expect(await websiteExists(appDb, 'shop')).toBe(true);
    } finally {
      await appDb.close();
    }
  });
});
