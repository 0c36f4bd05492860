/**
 * Server-side sessions. The cookie carries a random token; the database keeps only its SHA-256, so a copy of
 * the app database signs nobody in. Each session has its own CSRF token, sent back by the client in `x-csrf-token`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Sql } from '../app-db/sql.ts';
import { isInternalRole, seesAllWebsites, type Role } from '../app-db/model.ts';

export const SESSION_COOKIE = 'thc_session';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** A signed-in caller; shared by the requests of one session until its rows change, so never changed. */
export interface AuthContext {
  readonly userId: number;
  readonly email: string;
  readonly role: Role;
  readonly isInternal: boolean;
  readonly seesAllWebsites: boolean;
  /** Websites a CLIENT or STAFF user is bound to (an ADMIN sees all and has none listed). */
  readonly websites: ReadonlySet<string>;
  readonly csrfToken: string;
  readonly tokenHash: string;
}

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Hashes of the tokens seen lately, as every request looks its session up by one; bounded, as tokens come from clients. */
const tokenHashes = new Map<string, string>();
const MAX_TOKEN_HASHES = 10_000;

function hashOfToken(token: string): string {
  let tokenHash = tokenHashes.get(token);
  if (tokenHash === undefined) {
    if (tokenHashes.size >= MAX_TOKEN_HASHES) tokenHashes.clear();
    tokenHash = hashToken(token);
    tokenHashes.set(token, tokenHash);
  }
  return tokenHash;
}

/** The context made of a cached session row, kept with it: the row stays the same object until a write it reads. */
const contexts = new WeakMap<object, AuthContext>();
const newToken = (): string => randomBytes(32).toString('base64url');

/** Where a session was opened from, for the list of who is signed in where. */
export interface SessionOrigin {
  address?: string;
  userAgent?: string;
}

export async function createSession(
  tx: Sql,
  userId: number,
  now: Date,
  ttlMs = SESSION_TTL_MS,
  origin: SessionOrigin = {},
): Promise<{ token: string; csrfToken: string; expiresAt: Date }> {
  const token = newToken();
  const csrfToken = newToken();
  const expiresAt = new Date(now.getTime() + ttlMs);
  // Expired and revoked sessions are of no further use; a login is a good moment to sweep them.
  await tx.run('DELETE FROM sessions WHERE expires_at < ? OR revoked_at < ?', [now, now]);
  await tx.run(
    `INSERT INTO sessions (token_hash, user_id, csrf_token, created_at, expires_at, address, user_agent)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [
      hashToken(token),
      userId,
      csrfToken,
      now,
      expiresAt,
      origin.address ?? null,
      origin.userAgent?.slice(0, 300) ?? null,
    ],
  );
  // A new token has no answer in memory, but the sweep above may have removed ones that have.
  await tx.changed('sessions');
  return { token, csrfToken, expiresAt };
}

/** The live session a cookie token names, with its user; undefined when unknown, expired or revoked. */
export async function findSession(sql: Sql, token: string, now: Date): Promise<AuthContext | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const tokenHash = hashOfToken(token);
  // A CLIENT no longer sees an archived website; a disabled user has no session.
  // Cached until the sessions topic changes; expiry is checked here, not in SQL, so the read stays cacheable.
  const [row] = await sql.cached<{
    user_id: number;
    email: string;
    role: Role;
    csrf_token: string;
    expires_at: Date;
    websites: string[];
  }>(
    'sessions',
    `SELECT s.user_id, u.email, u.role, s.csrf_token, s.expires_at,
            array_agg(w.website_id ORDER BY w.website_id) FILTER (WHERE w.website_id IS NOT NULL) AS websites
     FROM sessions s
     JOIN users u ON u.id = s.user_id
     LEFT JOIN user_websites w ON w.user_id = u.id
       AND (u.role <> 'CLIENT' OR w.website_id NOT IN (SELECT id FROM websites WHERE archived_at IS NOT NULL))
     WHERE s.token_hash = ? AND s.revoked_at IS NULL AND u.disabled_at IS NULL
     GROUP BY s.user_id, u.email, u.role, s.csrf_token, s.expires_at`,
    [tokenHash],
  );
  if (!row || !(row.expires_at.getTime() > now.getTime())) return undefined;
  const known = contexts.get(row);
  if (known) return known;
  const isAll = seesAllWebsites(row.role);
  const context: AuthContext = {
    userId: row.user_id,
    email: row.email,
    role: row.role,
    isInternal: isInternalRole(row.role),
    seesAllWebsites: isAll,
    websites: new Set(isAll ? [] : (row.websites ?? [])),
    csrfToken: row.csrf_token,
    tokenHash,
  };
  contexts.set(row, context);
  return context;
}

export async function revokeSession(sql: Sql, tokenHash: string, now: Date): Promise<void> {
  await sql.run('UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL', [now, tokenHash]);
  await sql.changed('sessions');
}

export function isSameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** One live session in the list of who is signed in where. */
export interface LiveSession {
  id: number;
  userId: number;
  email: string;
  role: Role;
  createdAt: Date;
  expiresAt: Date;
  address: string | null;
  userAgent: string | null;
}

/** The sessions not expired nor revoked, newest first. */
export async function listLiveSessions(sql: Sql, now: Date): Promise<LiveSession[]> {
  return sql.all<LiveSession>(
    `SELECT s.id, s.user_id AS "userId", u.email, u.role, s.created_at AS "createdAt", s.expires_at AS "expiresAt",
            s.address, s.user_agent AS "userAgent"
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.revoked_at IS NULL AND s.expires_at > ? AND u.disabled_at IS NULL
     ORDER BY s.created_at DESC, s.id DESC`,
    [now],
  );
}

/** Signs one session out; resolves with its user's email, or undefined when no live session has that id. */
export async function revokeSessionById(tx: Sql, id: number, now: Date): Promise<string | undefined> {
  const [row] = await tx.all<{ email: string }>(
    `UPDATE sessions s SET revoked_at = ? FROM users u
     WHERE s.id = ? AND s.revoked_at IS NULL AND s.expires_at > ? AND u.id = s.user_id RETURNING u.email`,
    [now, id, now],
  );
  await tx.changed('sessions');
  return row?.email;
}
