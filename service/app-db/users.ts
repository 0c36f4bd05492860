import type { Sql } from './sql.ts';
import { AppDataError } from './errors.ts';
import { websiteExists } from './websites.ts';
import { seesAllWebsites, type Role, type User } from './model.ts';

export interface UserRow {
  id: number;
  email: string;
  role: Role;
  password_hash: string;
  disabled_at: Date | null;
}

export async function findUserByEmail(sql: Sql, email: string): Promise<UserRow | undefined> {
  const [row] = await sql.all<UserRow>(
    'SELECT id, email, role, password_hash, disabled_at FROM users WHERE email = ?',
    [email.toLowerCase()],
  );
  return row;
}

export async function websitesOfUser(sql: Sql, userId: number): Promise<string[]> {
  const rows = await sql.all<{ website_id: string }>(
    'SELECT website_id FROM user_websites WHERE user_id = ? ORDER BY website_id',
    [userId],
  );
  return rows.map((r) => r.website_id);
}

export async function requireUser(sql: Sql, email: string): Promise<UserRow> {
  const user = await findUserByEmail(sql, email);
  if (!user) throw new AppDataError(`No user has the email ${email}`, 404);
  return user;
}

function requireBindable(role: Role): void {
  if (seesAllWebsites(role))
    throw new AppDataError(`${role} users see every website; only CLIENT and STAFF users are bound to websites`);
}

async function requireWebsites(sql: Sql, websiteIds: readonly string[]): Promise<void> {
  for (const id of websiteIds)
    if (!(await websiteExists(sql, id))) throw new AppDataError(`Website ${id} does not exist`, 404);
}

export interface NewUser {
  email: string;
  passwordHash: string;
  role: Role;
  websites: readonly string[];
}

export async function addUser(tx: Sql, user: NewUser, now: Date): Promise<User> {
  if (await findUserByEmail(tx, user.email)) throw new AppDataError(`User ${user.email} already exists`, 409);
  if (user.role === 'CLIENT' && user.websites.length === 0)
    throw new AppDataError('A CLIENT must be bound to at least one website (--website ID)');
  if (user.websites.length > 0) requireBindable(user.role);
  await requireWebsites(tx, user.websites);
  const [row] = await tx.all<{ id: number }>(
    'INSERT INTO users (email, password_hash, role, created_at) VALUES (?, ?, ?, ?) RETURNING id',
    [user.email.toLowerCase(), user.passwordHash, user.role, now],
  );
  const id = row!.id;
  for (const websiteId of new Set(user.websites))
    await tx.run('INSERT INTO user_websites VALUES (?, ?)', [id, websiteId]);
  await tx.changed('sessions');
  return {
    id,
    email: user.email.toLowerCase(),
    role: user.role,
    websites: [...new Set(user.websites)].sort(),
    isDisabled: false,
  };
}

/**
 * Gives a user a role and, when `websites` is given, exactly those websites (an ADMIN's bindings go: it sees all);
 * the same rules as `user add`. Resolves with the user as they now are.
 */
export async function changeUser(
  tx: Sql,
  email: string,
  changes: { role?: Role; websites?: readonly string[] },
): Promise<User> {
  const user = await requireUser(tx, email);
  const role = changes.role ?? user.role;
  const websites = seesAllWebsites(role) ? [] : [...new Set(changes.websites ?? (await websitesOfUser(tx, user.id)))];
  if (changes.websites && changes.websites.length > 0) requireBindable(role);
  if (role === 'CLIENT' && websites.length === 0)
    throw new AppDataError('A CLIENT must be bound to at least one website (--website ID)');
  await requireWebsites(tx, websites);
  await tx.run('UPDATE users SET role = ? WHERE id = ?', [role, user.id]);
  await tx.run('DELETE FROM user_websites WHERE user_id = ?', [user.id]);
  for (const websiteId of websites) await tx.run('INSERT INTO user_websites VALUES (?, ?)', [user.id, websiteId]);
  await tx.changed('sessions');
  return { id: user.id, email: user.email, role, websites: websites.sort(), isDisabled: user.disabled_at !== null };
}

/** Disables a user (their sessions are signed out) or enables them again. */
export async function setDisabled(tx: Sql, email: string, isDisabled: boolean, now: Date): Promise<void> {
  const user = await requireUser(tx, email);
  await tx.run('UPDATE users SET disabled_at = ? WHERE id = ?', [isDisabled ? now : null, user.id]);
  if (isDisabled) await revokeSessionsOf(tx, user.id, now);
  await tx.changed('sessions');
}

export async function revokeSessionsOf(tx: Sql, userId: number, now: Date): Promise<void> {
  await tx.run('UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL', [now, userId]);
  await tx.changed('sessions');
}

export async function removeUser(tx: Sql, email: string): Promise<void> {
  const user = await requireUser(tx, email);
  await tx.run('DELETE FROM sessions WHERE user_id = ?', [user.id]);
  await tx.run('DELETE FROM password_tokens WHERE user_id = ?', [user.id]);
  await tx.run('DELETE FROM notifications WHERE user_id = ?', [user.id]);
  await tx.run('DELETE FROM notification_settings WHERE user_id = ?', [user.id]);
  await tx.run('DELETE FROM user_websites WHERE user_id = ?', [user.id]);
  await tx.run('DELETE FROM users WHERE id = ?', [user.id]);
  await tx.changed('sessions');
}

/** Sets a new password hash and signs the user out everywhere. */
export async function setPasswordHash(tx: Sql, email: string, passwordHash: string, now: Date): Promise<void> {
  const user = await requireUser(tx, email);
  await tx.run('UPDATE users SET password_hash = ? WHERE id = ?', [passwordHash, user.id]);
  await revokeSessionsOf(tx, user.id, now);
}

export async function bindUser(tx: Sql, email: string, websiteIds: readonly string[]): Promise<void> {
  const user = await requireUser(tx, email);
  requireBindable(user.role);
  await requireWebsites(tx, websiteIds);
  for (const websiteId of new Set(websiteIds))
    await tx.run('INSERT INTO user_websites VALUES (?, ?) ON CONFLICT DO NOTHING', [user.id, websiteId]);
  await tx.changed('sessions');
}

export async function unbindUser(tx: Sql, email: string, websiteIds: readonly string[]): Promise<void> {
  const user = await requireUser(tx, email);
  const bound = await websitesOfUser(tx, user.id);
  const remaining = bound.filter((id) => !websiteIds.includes(id));
  if (user.role === 'CLIENT' && remaining.length === 0)
    throw new AppDataError('A CLIENT must stay bound to at least one website; remove the user instead');
  for (const websiteId of websiteIds)
    await tx.run('DELETE FROM user_websites WHERE user_id = ? AND website_id = ?', [user.id, websiteId]);
  await tx.changed('sessions');
}

export async function listUsers(sql: Sql): Promise<User[]> {
  const rows = await sql.all<{ id: number; email: string; role: Role; websites: string[]; disabled_at: Date | null }>(
    `SELECT u.id, u.email, u.role, u.disabled_at,
            array_agg(w.website_id ORDER BY w.website_id) FILTER (WHERE w.website_id IS NOT NULL) AS websites
     FROM users u LEFT JOIN user_websites w ON w.user_id = u.id
     GROUP BY u.id, u.email, u.role, u.disabled_at ORDER BY u.email`,
  );
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: r.role,
    websites: r.websites ?? [],
    isDisabled: r.disabled_at !== null,
  }));
}

/** The CLIENT users bound to a website: the people told when one of its crawls is approved. */
export async function clientsOfWebsite(sql: Sql, websiteId: string): Promise<{ id: number; email: string }[]> {
  return sql.all(
    `SELECT u.id, u.email FROM users u JOIN user_websites w ON w.user_id = u.id
     WHERE w.website_id = ? AND u.role = 'CLIENT' AND u.disabled_at IS NULL ORDER BY u.email`,
    [websiteId],
  );
}
