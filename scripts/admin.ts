/**
 * npm run admin -- <command> [options]   (npm run admin -- help lists the commands)
 *
 * Opens the app database and runs the command itself: always with DATABASE_URL (a PostgreSQL server any number of
 * processes share), and with the embedded database in DATA_DIR when no service holds it. When the running service
 * holds the embedded one, it hands the command to the service instead, over loopback with the token the service
 * wrote to DATA_DIR/admin.token. Exit 0 done, 1 failed, 2 bad usage; one line on failure.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ADMIN_USAGE, UsageError, parseAdminArgs, type AdminCommand } from '../service/admin/commands.ts';
import { runAdminCommand } from '../service/admin/run-command.ts';
import {
  ADMIN_TOKEN_FILE,
  AppDb,
  appDbDir,
  appDbLocation,
  isLockedError,
  isServerLocation,
} from '../service/app-db/db.ts';
import { copyAppState } from '../service/app-db/copy.ts';
import { AppDataError } from '../service/app-db/errors.ts';
import { readConfig } from '../service/config.ts';
import { makeDataDirPrivate } from '../service/data-dir.ts';
import { moveWebsiteAside } from '../service/store/remove-website.ts';

class Failure extends Error {}

async function viaService(dataDir: string, command: AdminCommand): Promise<string> {
  let handOver: { url: string; token: string };
  try {
    handOver = JSON.parse(fs.readFileSync(path.join(dataDir, ADMIN_TOKEN_FILE), 'utf8')) as typeof handOver;
  } catch {
    throw new Failure(
      `${appDbLocation(dataDir)} is in use by another process, and no running service left ${ADMIN_TOKEN_FILE} to hand the command to`,
    );
  }
  let response: Response;
  try {
    response = await fetch(`${handOver.url}/api/admin/cli`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': handOver.token },
      body: JSON.stringify({ command }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new Failure(
      `the service at ${handOver.url} did not answer: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const body = (await response.json().catch(() => ({}))) as { output?: string; error?: string };
  if (response.ok && typeof body.output === 'string') return body.output;
  if (response.status === 400) throw new UsageError(body.error ?? 'bad usage');
  throw new Failure(body.error ?? `the service answered ${response.status}`);
}

const APP_DB_USAGE = `  app-db migrate-to postgres://USER@HOST:PORT/DB
                                             copy DATA_DIR's embedded app database into an empty PostgreSQL database
                                             (stop the service first; then start every replica with DATABASE_URL)`;

/** `app-db migrate-to URL`: the embedded app database of DATA_DIR, copied whole into a PostgreSQL server's. */
async function appDbCommand(argv: string[]): Promise<number> {
  const [command, url, ...rest] = argv;
  if (command !== 'migrate-to' || !url || rest.length > 0 || !isServerLocation(url)) {
    console.error(`admin: app-db: expected migrate-to postgres://… (got ${argv.join(' ') || 'nothing'})`);
    return 2;
  }
  const { dataDir } = readConfig();
  makeDataDirPrivate(dataDir);
  const source = appDbDir(dataDir);
  if (!fs.existsSync(path.join(source, 'PG_VERSION'))) {
    console.error(`admin: ${source} holds no app database to migrate`);
    return 1;
  }
  let from: AppDb | undefined;
  let to: AppDb | undefined;
  try {
    from = await AppDb.open(source);
    to = await AppDb.open(url);
    const counts = await copyAppState(from, to);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const detail = Object.entries(counts)
      .map(([table, n]) => `${table} ${n}`)
      .join(', ');
    console.log(`Copied ${total} rows from ${source} to ${new URL(url).host}${new URL(url).pathname} (${detail})`);
    return 0;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    console.error(`admin: ${isLockedError(error) ? `${reason}: stop the service first` : reason}`);
    return 1;
  } finally {
    await from?.close();
    await to?.close();
  }
}

async function main(argv: string[]): Promise<number> {
  if (argv.length === 1 && ['help', '--help', '-h'].includes(argv[0]!)) {
    console.log(`${ADMIN_USAGE}\n${APP_DB_USAGE}`);
    return 0;
  }
  if (argv[0] === 'app-db') return appDbCommand(argv.slice(1));
  let command: AdminCommand;
  try {
    command = parseAdminArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`admin: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const { dataDir, port } = readConfig();
  makeDataDirPrivate(dataDir);
  try {
    let output: string;
    let appDb: AppDb | undefined;
    try {
      appDb = await AppDb.open(appDbLocation(dataDir));
    } catch (error) {
      if (!isLockedError(error)) throw error;
    }
    if (appDb) {
      // Only the commands that email a link load the mailer (nodemailer), so the others start as fast as before.
      const isMailing = command.command === 'user invite' || command.command === 'user reset-password';
      const mailing = isMailing ? await import('../service/jobs/mailer.ts') : undefined;
      const settings = mailing?.readMailSettings(process.env, dataDir, port);
      const mailer = settings && mailing?.createMailer(settings);
      const now = new Date();
      try {
        output = await runAdminCommand(
          {
            appDb,
            now,
            mail: mailer && settings && { mailer, publicUrl: settings.publicUrl },
            // A running replica notices the store folder gone at its next store poll.
            store: { moveAside: (websiteId) => moveWebsiteAside(dataDir, websiteId, now) },
          },
          command,
        );
      } finally {
        mailer?.close();
        await appDb.close();
      }
    } else {
      output = await viaService(dataDir, command);
    }
    console.log(output);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`admin: ${error.message}`);
      return 2;
    }
    if (error instanceof AppDataError || error instanceof Failure) {
      console.error(`admin: ${error.message}`);
      return 1;
    }
    console.error(`admin: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
