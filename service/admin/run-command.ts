/**
 * Runs an admin command as an actor: the scope check, the change and its audit row in one transaction, then what
 * waits for the commit (the one-time password link's email, the deleted website's store folder). The CLI, the CLI's
 * hand-over to the service and the dashboard all come through here, so they share every check.
 */
import fs from 'node:fs';
import type { AppDb } from '../app-db/db.ts';
import { writeAdminLog } from '../app-db/admin-log.ts';
import { hashPassword } from '../auth/password.ts';
import { passwordLink, passwordLinkMessage } from '../auth/password-tokens.ts';
import type { Mailer } from '../jobs/mailer.ts';
import type { AdminCommand } from './commands.ts';
import { CLI_ACTOR, type Actor } from './actor.ts';
import { checkScope } from './scope.ts';
import { listText } from './lists.ts';
import { changeUsers, type Change } from './change-users.ts';
import { changeWebsites, type StoreRemoval } from './change-websites.ts';

export interface AdminContext {
  appDb: AppDb;
  now: Date;
  /** Who runs it; the admin CLI when absent. */
  actor?: Actor;
  /** Where invitation and reset links go; without it those commands are refused. */
  mail?: { mailer: Mailer; publicUrl: string };
  /** Removes a deleted website's crawls; without it they stay in the store (and come back at the next sync). */
  store?: StoreRemoval & {
    /** Called after the commit, e.g. to rescan the store. */
    afterRemoval?(): Promise<void>;
  };
}

const LIST_COMMANDS = new Set(['user list', 'website list', 'session list', 'audit list']);
type ListCommand = Extract<AdminCommand, { command: 'user list' | 'website list' | 'session list' | 'audit list' }>;
const isList = (cmd: AdminCommand): cmd is ListCommand => LIST_COMMANDS.has(cmd.command);

/** Resolves with what to print, or throws AppDataError (exit 1 / its HTTP status). */
export async function runAdminCommand(context: AdminContext, cmd: AdminCommand): Promise<string> {
  const { appDb, now, mail } = context;
  const actor = context.actor ?? CLI_ACTOR;
  if (isList(cmd)) {
    await appDb.transaction((tx) => checkScope(tx, actor, cmd));
    return listText(appDb, actor, cmd.command, now);
  }
  if ((cmd.command === 'user invite' || cmd.command === 'user reset-password') && !mail)
    throw new Error('No mailer to send the link with');
  const passwordHash = 'password' in cmd ? await hashPassword(cmd.password) : undefined;
  const change: Change & { movedStore?: string } = await appDb.transaction(async (tx) => {
    await checkScope(tx, actor, cmd);
    const done =
      cmd.command.startsWith('user ') || cmd.command === 'session revoke'
        ? await changeUsers(tx, cmd as Parameters<typeof changeUsers>[1], now, passwordHash)
        : await changeWebsites(tx, cmd as Parameters<typeof changeWebsites>[1], now, context.store);
    await writeAdminLog(tx, {
      at: now,
      actor: actor.email,
      action: cmd.command,
      target: done.target,
      detail: done.output,
    });
    return done;
  });
  if (change.movedStore) {
    fs.rmSync(change.movedStore, { recursive: true, force: true });
    await context.store?.afterRemoval?.();
  }
  if (change.passwordLink && mail) {
    const { kind, email, token } = change.passwordLink;
    try {
      await mail.mailer.send(passwordLinkMessage({ kind, email, link: passwordLink(mail.publicUrl, token), now }));
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      return `${change.output.replace(/: a link .*|Emailed .*/, '')}; the email with the link could not be sent (${reason}): send a new link with user reset-password`;
    }
  }
  return change.output;
}
