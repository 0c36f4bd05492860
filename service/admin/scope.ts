/**
 * Whether an actor may run a command, checked in the command's transaction. Something outside a STAFF user's reach
 * is refused exactly as something that does not exist (404, the same message), so the refusal leaks nothing; what
 * they can see but only an ADMIN may do is refused with 403 and the reason.
 */
import type { Sql } from '../app-db/sql.ts';
import { AppDataError } from '../app-db/errors.ts';
import { findUserByEmail, websitesOfUser } from '../app-db/users.ts';
import type { AdminCommand } from './commands.ts';
import { isAdminActor, managesUser, managesWebsite, type Actor } from './actor.ts';

const noWebsite = (id: string): AppDataError => new AppDataError(`Website ${id} does not exist`, 404);
const noUser = (email: string): AppDataError => new AppDataError(`No user has the email ${email}`, 404);
export const noSession = (id: number): AppDataError => new AppDataError(`No live session has the id ${id}`, 404);
const ONLY_ADMIN_WEBSITES = 'Only ADMIN users add, archive, restore or delete websites';
const ONLY_CLIENTS = 'STAFF users manage CLIENT users only; ask an ADMIN';

function requireWebsites(actor: Actor, ids: readonly string[]): void {
  for (const id of ids) if (!managesWebsite(actor, id)) throw noWebsite(id);
}

/** The user a command names, when the actor manages them; refused as unknown otherwise. */
async function requireManagedUser(tx: Sql, actor: Actor, email: string): Promise<void> {
  const user = await findUserByEmail(tx, email);
  if (!user) return; // the command itself says the user does not exist
  if (!managesUser(actor, { role: user.role, websites: await websitesOfUser(tx, user.id) })) throw noUser(email);
}

/** The email of the live session's user, or undefined when there is no such session. */
export async function sessionUserEmail(tx: Sql, id: number): Promise<string | undefined> {
  const [row] = await tx.all<{ email: string }>(
    'SELECT u.email FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ? AND s.revoked_at IS NULL',
    [id],
  );
  return row?.email;
}

export async function checkScope(tx: Sql, actor: Actor, cmd: AdminCommand): Promise<void> {
  if (isAdminActor(actor)) return;
  if (actor.role !== 'STAFF') throw new AppDataError('Not found', 404);
  switch (cmd.command) {
    case 'website add':
      throw new AppDataError(ONLY_ADMIN_WEBSITES, 403);
    case 'website archive':
    case 'website restore':
    case 'website delete':
      requireWebsites(actor, [cmd.id]);
      throw new AppDataError(ONLY_ADMIN_WEBSITES, 403);
    case 'website set':
      return requireWebsites(actor, [cmd.id]);
    case 'segment add':
    case 'segment set':
    case 'segment remove':
    case 'module set':
    case 'module remove':
      return requireWebsites(actor, [cmd.website]);
    case 'user add':
    case 'user invite':
      if (cmd.role !== 'CLIENT') throw new AppDataError(ONLY_CLIENTS, 403);
      return requireWebsites(actor, cmd.websites);
    case 'user set':
      await requireManagedUser(tx, actor, cmd.email);
      if (cmd.role !== undefined && cmd.role !== 'CLIENT') throw new AppDataError(ONLY_CLIENTS, 403);
      return requireWebsites(actor, cmd.websites ?? []);
    case 'user bind':
    case 'user unbind':
      await requireManagedUser(tx, actor, cmd.email);
      return requireWebsites(actor, cmd.websites);
    case 'user remove':
    case 'user password':
    case 'user disable':
    case 'user enable':
    case 'user reset-password':
      return requireManagedUser(tx, actor, cmd.email);
    case 'session revoke': {
      const email = await sessionUserEmail(tx, cmd.id);
      if (email === undefined) throw noSession(cmd.id);
      if (email === actor.email) return;
      const user = await findUserByEmail(tx, email);
      if (!user || !managesUser(actor, { role: user.role, websites: await websitesOfUser(tx, user.id) }))
        throw noSession(cmd.id);
      return;
    }
    case 'audit list':
      throw new AppDataError('Only ADMIN users read the audit log', 403);
    case 'user list':
    case 'website list':
    case 'session list':
      // Each lists only what the actor manages (lists.ts).
      return;
  }
}
