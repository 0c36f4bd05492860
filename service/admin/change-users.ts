/** The user and session commands' changes, each in the caller's transaction (run-command.ts adds the audit row). */
import type { Sql } from '../app-db/sql.ts';
import { AppDataError } from '../app-db/errors.ts';
import {
  addUser,
  bindUser,
  changeUser,
  removeUser,
  requireUser,
  setDisabled,
  setPasswordHash,
  unbindUser,
} from '../app-db/users.ts';
import { revokeSessionById } from '../auth/sessions.ts';
import { NO_PASSWORD_YET, createPasswordToken, type PasswordTokenKind } from '../auth/password-tokens.ts';
import type { AdminCommand } from './commands.ts';
import { noSession } from './scope.ts';

export interface Change {
  /** The one line the CLI prints and the dashboard shows. */
  output: string;
  /** What changed, for the audit log. */
  target: string;
  /** A one-time password link to email once the transaction has committed. */
  passwordLink?: { kind: PasswordTokenKind; email: string; token: string };
}

export type UserCommand = Extract<AdminCommand, { command: `user ${string}` | 'session revoke' }>;

const websitesText = (websites: readonly string[]): string =>
  websites.length ? ` (websites: ${websites.join(', ')})` : '';

/** `passwordHash`: the hashed --password of `user add` and `user password`, hashed before the transaction. */
export async function changeUsers(
  tx: Sql,
  cmd: Exclude<UserCommand, { command: 'user list' }>,
  now: Date,
  passwordHash: string | undefined,
): Promise<Change> {
  switch (cmd.command) {
    case 'user add': {
      const user = await addUser(tx, { ...cmd, passwordHash: passwordHash! }, now);
      return { output: `Added ${user.role} ${user.email}${websitesText(user.websites)}`, target: user.email };
    }
    case 'user invite': {
      const user = await addUser(tx, { ...cmd, passwordHash: NO_PASSWORD_YET }, now);
      const token = await createPasswordToken(tx, user.id, 'invite', now);
      return {
        output: `Invited ${user.role} ${user.email}${websitesText(user.websites)}: a link to choose a password was emailed`,
        target: user.email,
        passwordLink: { kind: 'invite', email: user.email, token },
      };
    }
    case 'user set': {
      const user = await changeUser(tx, cmd.email, cmd);
      return { output: `${user.email} is now ${user.role}${websitesText(user.websites)}`, target: user.email };
    }
    case 'user disable':
    case 'user enable': {
      const isDisabled = cmd.command === 'user disable';
      await setDisabled(tx, cmd.email, isDisabled, now);
      return {
        output: isDisabled ? `Disabled ${cmd.email}; their sessions were signed out` : `Enabled ${cmd.email}`,
        target: cmd.email,
      };
    }
    case 'user reset-password': {
      const user = await requireUser(tx, cmd.email);
      if (user.disabled_at !== null) throw new AppDataError(`${cmd.email} is disabled; enable them first`, 409);
      const token = await createPasswordToken(tx, user.id, 'reset', now);
      return {
        output: `Emailed ${cmd.email} a one-time link to choose a new password`,
        target: cmd.email,
        passwordLink: { kind: 'reset', email: user.email, token },
      };
    }
    case 'user remove':
      await removeUser(tx, cmd.email);
      return { output: `Removed ${cmd.email}`, target: cmd.email };
    case 'user password':
      await setPasswordHash(tx, cmd.email, passwordHash!, now);
      return { output: `Changed the password of ${cmd.email}; their sessions were signed out`, target: cmd.email };
    case 'user bind':
      await bindUser(tx, cmd.email, cmd.websites);
      return { output: `Bound ${cmd.email} to ${cmd.websites.join(', ')}`, target: cmd.email };
    case 'user unbind':
      await unbindUser(tx, cmd.email, cmd.websites);
      return { output: `Unbound ${cmd.email} from ${cmd.websites.join(', ')}`, target: cmd.email };
    case 'session revoke': {
      const email = await revokeSessionById(tx, cmd.id, now);
      if (email === undefined) throw noSession(cmd.id);
      return { output: `Signed out session ${cmd.id} of ${email}`, target: email };
    }
  }
}
