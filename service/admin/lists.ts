/**
 * What an actor sees of the administration: the websites, users and live sessions they manage, and (ADMIN only) the
 * audit log. The dashboard's lists and the CLI's `… list` commands read the same functions.
 */
import type { Sql } from '../app-db/sql.ts';
import type { Segment, User, Website } from '../app-db/model.ts';
import { listUsers } from '../app-db/users.ts';
import { listWebsites } from '../app-db/websites.ts';
import { listAdminLog, type AdminLogEntry } from '../app-db/admin-log.ts';
import { listLiveSessions, type LiveSession } from '../auth/sessions.ts';
import { isAdminActor, managesUser, type Actor } from './actor.ts';

export function visibleWebsites(sql: Sql, actor: Actor): Promise<Website[]> {
  return listWebsites(sql, isAdminActor(actor) ? undefined : [...actor.websites]);
}

export async function visibleUsers(sql: Sql, actor: Actor): Promise<User[]> {
  return (await listUsers(sql)).filter((u) => managesUser(actor, u));
}

/** Live sessions of the users the actor manages, and their own. */
export async function visibleSessions(sql: Sql, actor: Actor, now: Date): Promise<LiveSession[]> {
  const sessions = await listLiveSessions(sql, now);
  if (isAdminActor(actor)) return sessions;
  const managed = new Set((await visibleUsers(sql, actor)).map((u) => u.id));
  return sessions.filter((s) => managed.has(s.userId) || s.email === actor.email);
}

export const auditLog = (sql: Sql): Promise<AdminLogEntry[]> => listAdminLog(sql);

export const segmentSummary = (s: Segment): string =>
  `${s.name}; scope ${s.urlScope ?? 'whole site'}; hreflang ${s.isHreflang ? 'on' : 'off'}; AI ${s.isAi ? 'on' : 'off'}; goal ${s.goalType ?? 'none'}`;

/** The CLI's `… list` answers: one line per entry, tab-separated. */
export async function listText(
  sql: Sql,
  actor: Actor,
  what: 'user list' | 'website list' | 'session list' | 'audit list',
  now: Date,
): Promise<string> {
  switch (what) {
    case 'user list': {
      const users = await visibleUsers(sql, actor);
      if (users.length === 0) return 'No users';
      return users
        .map((u) => [u.email, u.role, u.websites.join(',') || '-', ...(u.isDisabled ? ['disabled'] : [])].join('\t'))
        .join('\n');
    }
    case 'website list': {
      const websites = await visibleWebsites(sql, actor);
      if (websites.length === 0) return 'No websites';
      return websites
        .map((w) =>
          [
            `${w.id}\t${w.name}\t${w.domain}${w.isArchived ? '\tarchived' : ''}`,
            ...w.segments.map((s) => `  segment ${s.id}${s.isDefault ? ' (default)' : ''}: ${segmentSummary(s)}`),
            ...w.modules.map((m) => `  module ${m.module}: ${m.isActive ? 'active' : `inactive (${m.reason})`}`),
          ].join('\n'),
        )
        .join('\n');
    }
    case 'session list': {
      const sessions = await visibleSessions(sql, actor, now);
      if (sessions.length === 0) return 'No one is signed in';
      return sessions
        .map((s) => [s.id, s.email, s.createdAt.toISOString(), s.address ?? '-', s.userAgent ?? '-'].join('\t'))
        .join('\n');
    }
    case 'audit list': {
      const entries = await auditLog(sql);
      if (entries.length === 0) return 'No changes yet';
      return entries.map((e) => [e.at.toISOString(), e.actor, e.action, e.target, e.detail].join('\t')).join('\n');
    }
  }
}
