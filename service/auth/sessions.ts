/**
 * Server-side sessions. The cookie carries a random token; the database keeps only its SHA-256, so a copy of
 * the app database signs nobody in. Each session has its own CSRF token, sent back by the client in `x-csrf-token`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Sql } from '../app-db/sql.ts';
import { isInternalRole, seesAllWebsites, type Role } from '../app-db/model.ts';

export const SESSION_COOKIE = 'thc_session';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface AuthContext {
  userId: number;
  email: string;
  role: Role;
  isInternal: boolean;
  seesAllWebsites: boolean;
  /** Websites a CLIENT or STAFF user is bound to (an ADMIN sees all and has none listed). */
  websites: ReadonlySet<string>;
  csrfToken: string;
  tokenHash: string;
}

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
const newToken = (): string => randomBytes(32).toString('base64url');

export async function createSession(
  tx: Sql,
  userId: number,
  now: Date,
  ttlMs = SESSION_TTL_MS,
): Promise<{ token: string; csrfToken: string; expiresAt: Date }> {
  const token = newToken();
  const csrfToken = newToken();
  const expiresAt = new Date(now.getTime() + ttlMs);
  // Expired and revoked sessions are of no further use; a login is a good moment to sweep them.
  await tx.run('DELETE FROM sessions WHERE expires_at < ? OR revoked_at < ?', [now, now]);
  await tx.run('INSERT INTO sessions VALUES (?, ?, ?, ?, ?, NULL)', [
    hashToken(token),
    userId,
    csrfToken,
    now,
    expiresAt,
  ]);
  return { token, csrfToken, expiresAt };
}

/** The live session a cookie token names, with its user; undefined when unknown, expired or revoked. */
export async function findSession(sql: Sql, token: string, now: Date): Promise<AuthContext | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const tokenHash = hashToken(token);
  // Cached until the next write to the app database; expiry is checked here, not in SQL, so the read stays cacheable.
  const [row] = await sql.cached<{
    user_id: number;
    email: string;
    role: Role;
    csrf_token: string;
    expires_at: Date;
    websites: string[];
  }>(
    `SELECT s.user_id, u.email, u.role, s.csrf_token, s.expires_at,
            array_agg(w.website_id ORDER BY w.website_id) FILTER (WHERE w.website_id IS NOT NULL) AS websites
     FROM sessions s
     JOIN users u ON u.id = s.user_id
     LEFT JOIN user_websites w ON w.user_id = u.id
     WHERE s.token_hash = ? AND s.revoked_at IS NULL
     GROUP BY s.user_id, u.email, u.role, s.csrf_token, s.expires_at`,
    [tokenHash],
  );
  if (!row || !(row.expires_at.getTime() > now.getTime())) return undefined;
  const isAll = seesAllWebsites(row.role);
  return {
    userId: row.user_id,
    email: row.email,
    role: row.role,
    isInternal: isInternalRole(row.role),
    seesAllWebsites: isAll,
    websites: new Set(isAll ? [] : (row.websites ?? [])),
    csrfToken: row.csrf_token,
    tokenHash,
  };
}

export async function revokeSession(sql: Sql, tokenHash: string, now: Date): Promise<void> {
  await sql.run('UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL', [now, tokenHash]);
}

export function isSameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
