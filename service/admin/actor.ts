/**
 * Who runs an admin command, and what they may manage. The admin CLI on the server may do anything; so may an ADMIN.
 * A STAFF user manages the websites bound to them and the CLIENT users of those websites only (a client bound to a
 * website of someone else's is not theirs to change); only an ADMIN manages STAFF and ADMIN users.
 */
import type { Role, User } from '../app-db/model.ts';

export interface Actor {
  email: string;
  role: Role;
  /** The websites bound to a STAFF user (an ADMIN's are not listed: it sees every website). */
  websites: ReadonlySet<string>;
}

/** The admin CLI on the server (through the app database itself or the service's loopback hand-over). */
export const CLI_ACTOR: Actor = { email: 'cli', role: 'ADMIN', websites: new Set() };

export const isAdminActor = (actor: Actor): boolean => actor.role === 'ADMIN';

export const managesWebsite = (actor: Actor, websiteId: string): boolean =>
  isAdminActor(actor) || (actor.role === 'STAFF' && actor.websites.has(websiteId));

/** Whether `actor` may change `user`: an ADMIN anyone, a STAFF user the clients of their own websites only. */
export function managesUser(actor: Actor, user: Pick<User, 'role' | 'websites'>): boolean {
  if (isAdminActor(actor)) return true;
  return (
    actor.role === 'STAFF' &&
    user.role === 'CLIENT' &&
    user.websites.length > 0 &&
    user.websites.every((id) => actor.websites.has(id))
  );
}
