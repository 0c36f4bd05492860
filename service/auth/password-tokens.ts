/**
 * One-time links to set a password: an invitation (a user added without a password) or a reset. The link carries a
 * random token; the database keeps only its SHA-256, as for sessions. A token works once, until it expires, and a
 * newer link for the same user replaces the older.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from '../app-db/sql.ts';
import { AppDataError } from '../app-db/errors.ts';
import { revokeSessionsOf } from '../app-db/users.ts';
import { escapeHtml, type MailMessage } from '../mail-message.ts';

export type PasswordTokenKind = 'invite' | 'reset';
export const PASSWORD_TOKEN_TTL_MS: Record<PasswordTokenKind, number> = {
  invite: 7 * 24 * 60 * 60 * 1000,
  reset: 24 * 60 * 60 * 1000,
};
/** The dashboard's page that takes the token (web/src/features/admin/set-password-page.tsx). */
export const SET_PASSWORD_PATH = '/set-password';
/** What an invited user's password hash holds until they choose one: no password verifies against it. */
export const NO_PASSWORD_YET = 'none';

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export async function createPasswordToken(
  tx: Sql,
  userId: number,
  kind: PasswordTokenKind,
  now: Date,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.run('DELETE FROM password_tokens WHERE user_id = $1 OR expires_at < $2', [userId, now]);
  await tx.run(
    'INSERT INTO password_tokens (token_hash, user_id, kind, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [hashToken(token), userId, kind, now, new Date(now.getTime() + PASSWORD_TOKEN_TTL_MS[kind])],
  );
  return token;
}

export const INVALID_PASSWORD_LINK =
  'This link is not valid: it was used already, has expired or was replaced by a newer one. Ask for a new link.';

/** Sets the password a link was sent for and signs the user out everywhere; resolves with their email. */
export async function usePasswordToken(tx: Sql, token: string, passwordHash: string, now: Date): Promise<string> {
  const [row] = await tx.all<{ user_id: number; email: string }>(
    `SELECT t.user_id, u.email FROM password_tokens t JOIN users u ON u.id = t.user_id
     WHERE t.token_hash = $1 AND t.used_at IS NULL AND t.expires_at > $2 AND u.disabled_at IS NULL`,
    [hashToken(token), now],
  );
  if (!row) throw new AppDataError(INVALID_PASSWORD_LINK, 400);
  await tx.run('UPDATE password_tokens SET used_at = $1 WHERE token_hash = $2', [now, hashToken(token)]);
  await tx.run('UPDATE users SET password_hash = $1 WHERE id = $2', [passwordHash, row.user_id]);
  await revokeSessionsOf(tx, row.user_id, now);
  await tx.changed('sessions');
  return row.email;
}

export const passwordLink = (publicUrl: string, token: string): string =>
  `${publicUrl}${SET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;

export function passwordLinkMessage(m: {
  kind: PasswordTokenKind;
  email: string;
  link: string;
  now: Date;
}): MailMessage {
  const isInvite = m.kind === 'invite';
  const subject = isInvite
    ? 'You are invited to the Technical Health Check'
    : 'Reset your Technical Health Check password';
  const lead = isInvite
    ? `You have been given an account (${m.email}) on the Technical Health Check. Choose your password here:`
    : `A password reset was asked for ${m.email}. Choose a new password here:`;
  const validity = isInvite ? 'The link works once, for 7 days.' : 'The link works once, for 24 hours.';
  return {
    to: m.email,
    subject,
    text: ['Hello,', '', lead, '', m.link, '', validity, '', 'Technical Health Check'].join('\n'),
    html: [
      '<p>Hello,</p>',
      `<p>${escapeHtml(lead)}</p>`,
      `<p><a href="${escapeHtml(m.link)}">${isInvite ? 'Choose your password' : 'Choose a new password'}</a></p>`,
      `<p>${validity}</p>`,
      '<p>Technical Health Check</p>',
    ].join('\n'),
    fileStem: `${m.now.toISOString()}-${m.kind}-${m.email}`,
  };
}
