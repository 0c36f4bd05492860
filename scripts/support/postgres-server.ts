/**
 * A real PostgreSQL server for tests: Debian's `postgresql` package (installed with apt-get when missing), a
 * cluster in a temp dir started on a loopback port, as the postgres user when we run as root (the server refuses
 * to run as root), with trust authentication for loopback connections only.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { debianPackages, ensureDebianPackages } from './debian-packages.ts';
import { freePort } from './free-port.ts';

export interface PostgresServer {
  /** postgres://… of the server's `postgres` database. */
  url: string;
  /** Stops the server as a crash would, keeping its files and port for `restart`. */
  halt(): void;
  /** Starts a halted server again, on the same port with the same data. */
  restart(): void;
  stop(): void;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error(`no PostgreSQL server binaries under ${root}`);
  return path.join(root, versions[0]!, 'bin');
}

export async function startPostgres(): Promise<PostgresServer> {
  ensureDebianPackages([debianPackages.postgresql]);
  const bin = binDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-postgres-'));
  const isRoot = process.getuid?.() === 0;
  const asServerUser = (command: string, args: string[]): void => {
    const [file, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
    execFileSync(file, argv, { stdio: 'pipe', cwd: dir });
  };
  if (isRoot) {
    const { uid, gid } = userIds('postgres');
    fs.chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  asServerUser(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () =>
    asServerUser(path.join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  const halt = () => asServerUser(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
  start();
  let isRunning = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    halt() {
      halt();
      isRunning = false;
    },
    restart() {
      start();
      isRunning = true;
    },
    stop() {
      try {
        if (isRunning) halt();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function userIds(name: string): { uid: number; gid: number } {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`no user ${name} in /etc/passwd`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** The URL of a database on the server given by `serverUrl`, one per `key`, created when missing. */
export async function databaseFor(serverUrl: string, key: string): Promise<string> {
  const name = `thc_${createHash('sha256').update(key).digest('hex').slice(0, 20)}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
