import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { appDbDir } from '../app-db/db.ts';
import { tempDir } from './auth-fixture.ts';
import { makeExport } from './helpers/make-export.ts';
import { killServices, startService } from './helpers/service-process.ts';
import { databaseFor } from '../../scripts/support/postgres-server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function node(script: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** In the `postgres` project the CLI works on a database of the data dir's own on the run's server. */
const serverUrl = inject('postgresUrl');

async function admin(dataDir: string, args: string[]): Promise<Run> {
  const databaseUrl = serverUrl ? await databaseFor(serverUrl, dataDir) : undefined;
  const child = node('scripts/admin.ts', args, {
    DATA_DIR: dataDir,
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

afterEach(killServices);

/** The hand-over the service publishes once it listens; fails early if the service dies. */
async function handOverOf(service: ChildProcess, tokenFile: string, log: () => string): Promise<{ url: string }> {
  const deadline = Date.now() + 60_000;
  while (!fs.existsSync(tokenFile)) {
    if (service.exitCode !== null || Date.now() > deadline)
      throw new Error(`no admin.token; the service ${service.exitCode === null ? 'still runs' : 'exited'}: ${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return JSON.parse(fs.readFileSync(tokenFile, 'utf8')) as { url: string };
}

describe('admin CLI', () => {
  it('works on the app database directly when no service runs, with exit codes 0, 1 and 2', async () => {
    const dataDir = tempDir();
    const added = await admin(dataDir, [
      'website',
      'add',
      '--id',
      'shop',
      '--name',
      'Shop',
      '--domain',
      'shop.example',
    ]);
    expect(added).toMatchObject({ code: 0, stderr: '' });
    expect(added.stdout).toMatch(/^Added website shop/);
    expect(
      await admin(dataDir, [
        'user',
        'add',
        '--email',
        'c@shop.example',
        '--password',
        'client-pass',
        '--role',
        'CLIENT',
        '--website',
        'shop',
      ]),
    ).toMatchObject({ code: 0, stdout: 'Added CLIENT c@shop.example (websites: shop)\n' });
    expect(await admin(dataDir, ['user', 'list'])).toMatchObject({ code: 0, stdout: 'c@shop.example\tCLIENT\tshop\n' });

    const failed = await admin(dataDir, ['user', 'remove', '--email', 'nobody@shop.example']);
    expect(failed).toEqual({ code: 1, stdout: '', stderr: 'admin: No user has the email nobody@shop.example\n' });
    const usage = await admin(dataDir, ['user', 'add', '--email', 'x@shop.example']);
    expect(usage).toEqual({ code: 2, stdout: '', stderr: 'admin: user add: --password is required\n' });
    expect((await admin(dataDir, ['frobnicate'])).code).toBe(2);
    const help = await admin(dataDir, ['help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('segment add --website ID --id SEG --name N');
    // The embedded database exactly when there is no server.
    expect(fs.existsSync(appDbDir(dataDir))).toBe(!serverUrl);
  });

  it('knows the website of a loaded crawl before the service has ever started', async () => {
    const dataDir = tempDir();
    const made = await makeExport();
    try {
      const databaseUrl = serverUrl ? await databaseFor(serverUrl, dataDir) : undefined;
      const load = node('scripts/load-crawl.ts', [made.dir, '--data-dir', dataDir], {
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      });
      let out = '';
      load.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      load.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      expect(await new Promise((resolve) => load.on('close', resolve))).toBe(0);
      expect(out).toContain('registered website "acme-shoes"');
    } finally {
      fs.rmSync(made.dir, { recursive: true, force: true });
    }
    expect(fs.existsSync(path.join(dataDir, 'admin.token'))).toBe(false);
    if (!serverUrl) expect(fs.statSync(appDbDir(dataDir)).mode & 0o777).toBe(0o700);

    const list = await admin(dataDir, ['website', 'list']);
    expect(list).toMatchObject({ code: 0, stderr: '' });
    expect(list.stdout).toMatch(/^acme-shoes\tExample\texample\.com\n {2}segment all \(default\): All pages;/);
    const email = 'client@acme-shoes.example';
    const args = ['user', 'add', '--email', email, '--password', 'client-pass', '--role', 'CLIENT', '--website'];
    expect(await admin(dataDir, [...args, 'acme-shoes'])).toEqual({
      code: 0,
      stdout: `Added CLIENT ${email} (websites: acme-shoes)\n`,
      stderr: '',
    });
  });

  it("runs the API guide's command to enable AI, which changes only the AI setting of the segment", async () => {
    const guide = fs.readFileSync(path.join(ROOT, 'docs/api.md'), 'utf8');
    const section = guide.slice(guide.indexOf('## AI suggestions'));
    const example = /`npm run admin -- (segment [^`]*--ai[^`]*)`/.exec(section)?.[1];
    expect(example).toBeDefined();
    const args = example!.split(' ').map((arg) => (arg === 'ID' ? 'shop' : arg));
    const dataDir = tempDir();
    expect(
      (await admin(dataDir, ['website', 'add', '--id', 'shop', '--name', 'Shop', '--domain', 'shop.example'])).code,
    ).toBe(0);
    expect(
      (
        await admin(dataDir, [
          'segment',
          'set',
          '--website',
          'shop',
          '--id',
          'all',
          '--goal',
          'ecommerce',
          '--hreflang',
        ])
      ).code,
    ).toBe(0);

    expect(await admin(dataDir, args)).toMatchObject({ code: 0, stderr: '' });
    const list = await admin(dataDir, ['website', 'list']);
    expect(list.stdout).toContain(
      'segment all (default): All pages; scope whole site; hreflang on; AI on; goal ecommerce',
    );
    const again = await admin(dataDir, [
      'segment',
      'add',
      '--website',
      'shop',
      '--id',
      'all',
      '--name',
      'All pages',
      '--ai',
    ]);
    expect(again).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'admin: Website shop already has a segment all; change it with `segment set --website shop --id all` and the options to change\n',
    });
  });

  // Over a server every process opens the database itself: there is nothing to hand over.
  it.skipIf(serverUrl)('hands commands to the running service, which holds the embedded app database', async () => {
    const dataDir = tempDir();
    const service = await startService({ env: { DATA_DIR: dataDir } });
    const tokenFile = path.join(dataDir, 'admin.token');
    const handOver = await handOverOf(service.process, tokenFile, service.output);
    expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);

    expect(
      await admin(dataDir, ['website', 'add', '--id', 'shop', '--name', 'Shop', '--domain', 'shop.example']),
    ).toMatchObject({
      code: 0,
    });
    const added = await admin(dataDir, [
      'user',
      'add',
      '--email',
      'staff@agency.example',
      '--password',
      'staff-pass',
      '--role',
      'STAFF',
    ]);
    expect(added).toEqual({ code: 0, stdout: 'Added STAFF staff@agency.example\n', stderr: '' });
    expect(
      await admin(dataDir, [
        'user',
        'add',
        '--email',
        'staff@agency.example',
        '--password',
        'staff-pass',
        '--role',
        'STAFF',
      ]),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr: 'admin: User staff@agency.example already exists\n',
    });
    expect(
      (await admin(dataDir, ['module', 'set', '--website', 'shop', '--module', 'uptime-report', '--flag'])).code,
    ).toBe(2);

    // The service sees the change at once: the new user signs in.
    const login = await fetch(`${handOver.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'staff@agency.example', password: 'staff-pass' }),
    });
    expect(login.status).toBe(200);

    await service.stop();
    expect(fs.existsSync(tokenFile)).toBe(false);
    expect(await admin(dataDir, ['user', 'list'])).toMatchObject({
      code: 0,
      stdout: 'staff@agency.example\tSTAFF\t-\n',
    });
  });
});
