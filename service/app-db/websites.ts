import type { Sql } from './sql.ts';
import { ALL_TOPICS } from './cached-topics.ts';
import { AppDataError } from './errors.ts';
import {
  DEFAULT_SEGMENT,
  THC_MODULE,
  moduleNames,
  moduleRequirements,
  type GoalType,
  type ModuleName,
  type ModuleStatus,
  type Segment,
  type Website,
} from './model.ts';

export interface WebsiteIdentity {
  id: string;
  name: string;
  domain: string;
}

export async function websiteExists(sql: Sql, websiteId: string): Promise<boolean> {
  const rows = await sql.cached('websites', 'SELECT 1 FROM websites WHERE id = ?', [websiteId]);
  return rows.length > 0;
}

/**
 * Registers a website unless known: it gets the default segment (the whole site) and the technical health check
 * module manager. Resolves true when it was new. Replicas syncing the same store at once register it once: the
 * later insert waits for the earlier transaction and then does nothing.
 */
export async function ensureWebsite(tx: Sql, website: WebsiteIdentity, now: Date): Promise<boolean> {
  if (await websiteExists(tx, website.id)) return false;
  const inserted = await tx.all('INSERT INTO websites VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id', [
    website.id,
    website.name,
    website.domain,
    now,
  ]);
  if (inserted.length === 0) return false;
  await tx.run(
    `INSERT INTO website_segments (website_id, id, name, url_scope, is_default) VALUES (?, ?, ?, NULL, true)`,
    [website.id, DEFAULT_SEGMENT.id, DEFAULT_SEGMENT.name],
  );
  await tx.run('INSERT INTO module_managers (website_id, module) VALUES (?, ?)', [website.id, THC_MODULE]);
  await tx.changed('websites');
  return true;
}

export async function addWebsite(tx: Sql, website: WebsiteIdentity, now: Date): Promise<void> {
  if (!(await ensureWebsite(tx, website, now))) throw new AppDataError(`Website ${website.id} already exists`, 409);
}

export async function requireWebsite(sql: Sql, websiteId: string): Promise<void> {
  if (!(await websiteExists(sql, websiteId))) throw new AppDataError(`Website ${websiteId} does not exist`, 404);
}

interface SegmentRow {
  website_id: string;
  id: string;
  name: string;
  url_scope: string | null;
  is_hreflang: boolean;
  is_ai: boolean;
  goal_type: GoalType | null;
  is_default: boolean;
}

const toSegment = (r: SegmentRow): Segment => ({
  id: r.id,
  name: r.name,
  urlScope: r.url_scope,
  isHreflang: r.is_hreflang,
  isAi: r.is_ai,
  goalType: r.goal_type,
  isDefault: r.is_default,
});

interface ModuleRow {
  website_id: string;
  module: string;
  setup_id: string | null;
  flag: boolean;
}

/** Every module with whether it is active on the website and, when not, why (spec §2's 'module inactive' panel). */
export function moduleStatuses(rows: readonly ModuleRow[]): ModuleStatus[] {
  return moduleNames.map((module): ModuleStatus => {
    const row = rows.find((r) => r.module === module);
    if (!row) return { module, isActive: false, reason: 'missing-module' };
    const requirement = moduleRequirements[module];
    const isSetUp =
      requirement === 'none' || (requirement === 'setup-id' ? Boolean(row.setup_id?.trim()) : row.flag === true);
    return isSetUp ? { module, isActive: true } : { module, isActive: false, reason: 'missing-setup-id' };
  });
}

/**
 * Websites with their segments (default first) and module statuses; `ids` narrows the list, and archived websites
 * are left out unless `withArchived` (what internal users see).
 */
export async function listWebsites(
  sql: Sql,
  ids?: readonly string[],
  { withArchived = true }: { withArchived?: boolean } = {},
): Promise<Website[]> {
  const websites = await sql.all<WebsiteIdentity & { archived_at: Date | null }>(
    'SELECT id, name, domain, archived_at FROM websites ORDER BY id',
  );
  const segments = await sql.all<SegmentRow>('SELECT * FROM website_segments ORDER BY is_default DESC, name, id');
  const modules = await sql.all<ModuleRow>('SELECT * FROM module_managers');
  return websites
    .filter((w) => (!ids || ids.includes(w.id)) && (withArchived || w.archived_at === null))
    .map(({ archived_at, ...w }) => ({
      ...w,
      segments: segments.filter((s) => s.website_id === w.id).map(toSegment),
      modules: moduleStatuses(modules.filter((m) => m.website_id === w.id)),
      isArchived: archived_at !== null,
    }));
}

/** A segment of a website; report calls name one by `segmentId`. */
export async function getSegment(sql: Sql, websiteId: string, segmentId: string): Promise<Segment | undefined> {
  const [row] = await sql.cached<SegmentRow>(
    'websites',
    'SELECT * FROM website_segments WHERE website_id = ? AND id = ?',
    [websiteId, segmentId],
  );
  return row && toSegment(row);
}

export type SegmentInput = Omit<Segment, 'isDefault'>;

/** Adds a segment; an id the website already has is refused (`segment set` changes it). */
export async function addSegment(tx: Sql, websiteId: string, segment: SegmentInput): Promise<void> {
  await requireWebsite(tx, websiteId);
  if (await getSegment(tx, websiteId, segment.id))
    throw new AppDataError(
      `Website ${websiteId} already has a segment ${segment.id}; change it with \`segment set --website ${websiteId} --id ${segment.id}\` and the options to change`,
      409,
    );
  await tx.run(
    `INSERT INTO website_segments (website_id, id, name, url_scope, is_hreflang, is_ai, goal_type, is_default)
     VALUES (?, ?, ?, ?, ?, ?, ?, false)`,
    [websiteId, segment.id, segment.name, segment.urlScope, segment.isHreflang, segment.isAi, segment.goalType],
  );
  await tx.changed('websites');
}

/** The settings `changeSegment` may change; an absent key keeps its value. */
export type SegmentChanges = Partial<Omit<SegmentInput, 'id'>>;

/** Changes only the settings given of an existing segment; resolves with the segment as it now is. */
export async function changeSegment(
  tx: Sql,
  websiteId: string,
  segmentId: string,
  changes: SegmentChanges,
): Promise<Segment> {
  await requireWebsite(tx, websiteId);
  const existing = await getSegment(tx, websiteId, segmentId);
  if (!existing) throw new AppDataError(`Website ${websiteId} has no segment ${segmentId}`, 404);
  const next: Segment = {
    ...existing,
    ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
  };
  if (existing.isDefault && next.urlScope !== null)
    throw new AppDataError('The default segment covers the whole site and takes no --url-scope');
  await tx.run(
    `UPDATE website_segments SET name = ?, url_scope = ?, is_hreflang = ?, is_ai = ?, goal_type = ?
     WHERE website_id = ? AND id = ?`,
    [next.name, next.urlScope, next.isHreflang, next.isAi, next.goalType, websiteId, segmentId],
  );
  await tx.changed('websites');
  return next;
}

export async function removeSegment(tx: Sql, websiteId: string, segmentId: string): Promise<void> {
  await requireWebsite(tx, websiteId);
  const segment = await getSegment(tx, websiteId, segmentId);
  if (!segment) throw new AppDataError(`Website ${websiteId} has no segment ${segmentId}`, 404);
  if (segment.isDefault) throw new AppDataError('The default segment cannot be removed');
  await tx.run('DELETE FROM website_segments WHERE website_id = ? AND id = ?', [websiteId, segmentId]);
  await tx.changed('websites');
}

export async function setModule(
  tx: Sql,
  websiteId: string,
  module: ModuleName,
  setup: { setupId: string | null; flag: boolean },
): Promise<void> {
  await requireWebsite(tx, websiteId);
  await tx.run(
    `INSERT INTO module_managers (website_id, module, setup_id, flag) VALUES (?, ?, ?, ?)
     ON CONFLICT (website_id, module) DO UPDATE SET setup_id = excluded.setup_id, flag = excluded.flag`,
    [websiteId, module, setup.setupId, setup.flag],
  );
}

export async function removeModule(tx: Sql, websiteId: string, module: ModuleName): Promise<void> {
  await requireWebsite(tx, websiteId);
  const rows = await tx.all('SELECT 1 FROM module_managers WHERE website_id = ? AND module = ?', [websiteId, module]);
  if (rows.length === 0) throw new AppDataError(`Website ${websiteId} has no ${module} module`, 404);
  await tx.run('DELETE FROM module_managers WHERE website_id = ? AND module = ?', [websiteId, module]);
}

/** Renames a website or changes its domain (what is not given stays). */
export async function changeWebsite(
  tx: Sql,
  websiteId: string,
  changes: Partial<Omit<WebsiteIdentity, 'id'>>,
): Promise<void> {
  await requireWebsite(tx, websiteId);
  if (changes.name !== undefined) await tx.run('UPDATE websites SET name = ? WHERE id = ?', [changes.name, websiteId]);
  if (changes.domain !== undefined)
    await tx.run('UPDATE websites SET domain = ? WHERE id = ?', [changes.domain, websiteId]);
  await tx.changed('websites');
}

/** Archives a website (its crawls stay; its clients stop seeing it) or restores it. */
export async function setArchived(tx: Sql, websiteId: string, isArchived: boolean, now: Date): Promise<void> {
  await requireWebsite(tx, websiteId);
  await tx.run('UPDATE websites SET archived_at = ? WHERE id = ?', [isArchived ? now : null, websiteId]);
  // A client's session reads its websites without the archived ones.
  await tx.changed('websites', 'sessions');
}

/** The app tables that hold rows of a website, children first; the website's row goes last. */
const WEBSITE_CHILD_TABLES = [
  'user_websites',
  'website_segments',
  'module_managers',
  'crawl_registry',
  'approval_log',
  'mail_log',
  'checklist_items',
  'crawl_settings',
  'crawl_runs',
  'notifications',
] as const;

/** Deletes a website's rows from the app database; refused while one of its crawls is queued or running. */
export async function deleteWebsiteRows(tx: Sql, websiteId: string): Promise<void> {
  await requireWebsite(tx, websiteId);
  const active = await tx.all(
    "SELECT 1 FROM crawl_runs WHERE website_id = ? AND status IN ('queued', 'running', 'loading')",
    [websiteId],
  );
  if (active.length > 0)
    throw new AppDataError(`A crawl of ${websiteId} is queued or running; cancel it before deleting the website`, 409);
  for (const table of WEBSITE_CHILD_TABLES) await tx.run(`DELETE FROM ${table} WHERE website_id = ?`, [websiteId]);
  await tx.run('DELETE FROM websites WHERE id = ?', [websiteId]);
  await tx.changed(...ALL_TOPICS);
}
