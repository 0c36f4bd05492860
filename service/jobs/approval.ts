/**
 * Crawl approval, manual or automatic, and the one email per CLIENT user and crawl it triggers.
 *
 * Mail goes through mail_log as an outbox: approving inserts one row per client in the same transaction, and
 * delivery marks rows sent. A crash or an SMTP failure leaves rows queued for the next delivery pass (after the
 * next approval, at start-up and every few minutes); the primary key (website, crawl, user) means once per crawl.
 * Before sending, a process claims the row for a while (claimed_until), so replicas delivering at the same time
 * send each message once.
 */
import type { AppDb, Sql } from '../app-db/db.ts';
import type { CrawlState, CrawlStates } from '../app-db/crawls.ts';
import { AppDataError } from '../app-db/errors.ts';
import { clientsOfWebsite } from '../app-db/users.ts';
import { MailDelivery } from './mail-delivery.ts';
import type { MailSettings, Mailer } from './mailer.ts';
import { escapeHtml } from '../mail-message.ts';

export type ApprovalKind = 'manual' | 'automatic';
export const AUTO_APPROVER = 'auto-approval';
const MAX_ATTEMPTS = 5;
/** Longer than an SMTP send may take; a claim left by a process that died lapses after it. */
const MAIL_CLAIM_MS = 5 * 60 * 1000;

export interface Approval {
  websiteId: string;
  crawlId: number;
  state: CrawlState;
  /** False when the crawl was approved already (approving is idempotent). */
  isNew: boolean;
}

export type Clock = () => Date;

interface Logger {
  error(message: string): void;
}

export class Approvals extends MailDelivery {
  /**
   * How many fixes a crawl verified (checked rows it removed as fixed), for the email; the service sets it once its
   * report engine exists. Without it, or when it fails, the email says nothing about fixes.
   */
  verifiedFixesOf: ((websiteId: string, crawlId: number) => Promise<number | undefined>) | undefined;

  constructor(
    private readonly appDb: AppDb,
    private readonly states: CrawlStates,
    private readonly mailer: Mailer,
    private readonly mail: MailSettings,
    private readonly clock: Clock,
    private readonly logger: Logger = console,
    /** The crawl's label (catalog/crawl-label.ts) for the email; the date recorded at load when it gives none. */
    private readonly labelOf: (websiteId: string, crawlId: number) => string | undefined = () => undefined,
  ) {
    super(logger);
  }

  /**
   * Approves one crawl for a signed-in internal user; resolves with the crawl's state either way. `isMailed: false`
   * approves without emailing the clients (the demo's history, which nobody waits to hear about).
   */
  async approve(
    websiteId: string,
    crawlId: number,
    approvedBy: string,
    { isMailed = true }: { isMailed?: boolean } = {},
  ): Promise<Approval> {
    const now = this.clock();
    const approval = await this.appDb.transaction(async (tx): Promise<Approval> => {
      if (await approveInTransaction(tx, websiteId, crawlId, 'manual', approvedBy, now, isMailed))
        return { websiteId, crawlId, state: { moduleState: 'APPROVED', approvedAt: now, approvedBy }, isNew: true };
      const [row] = await tx.all<{ approved_at: Date | null; approved_by: string | null }>(
        'SELECT approved_at, approved_by FROM crawl_registry WHERE website_id = $1 AND crawl_id = $2',
        [websiteId, crawlId],
      );
      if (!row) throw new AppDataError(`Crawl ${crawlId} of ${websiteId} is not registered`, 404);
      return {
        websiteId,
        crawlId,
        state: { moduleState: 'APPROVED', approvedAt: row.approved_at, approvedBy: row.approved_by },
        isNew: false,
      };
    });
    this.states.set(websiteId, crawlId, approval.state);
    if (approval.isNew && isMailed) this.deliverSoon();
    return approval;
  }

  /**
   * Approves every crawl still pending that was loaded by `scheduledFor` and is still in the store (`isLive`), and
   * records the run, in one transaction. Resolves with the approved crawls, or undefined when that scheduled run
   * has happened already. The run's job_runs row is claimed first: a replica running the same job at the same time
   * waits on that row until this transaction ends, then finds the run taken.
   */
  async approveScheduled(
    job: string,
    scheduledFor: Date,
    isLive: (websiteId: string, crawlId: number) => boolean,
  ): Promise<{ websiteId: string; crawlId: number }[] | undefined> {
    const now = this.clock();
    const approved = await this.appDb.transaction(async (tx) => {
      const claimed = await tx.all(
        'INSERT INTO job_runs VALUES ($1, $2, $3, 0) ON CONFLICT (job, scheduled_for) DO NOTHING RETURNING job',
        [job, scheduledFor, now],
      );
      if (claimed.length === 0) return undefined;
      const pending = await tx.all<{ website_id: string; crawl_id: number }>(
        `SELECT website_id, crawl_id FROM crawl_registry
         WHERE module_state = 'PENDING' AND loaded_at <= $1 ORDER BY website_id, crawl_id`,
        [scheduledFor],
      );
      const live: typeof pending = [];
      for (const c of pending.filter((p) => isLive(p.website_id, p.crawl_id)))
        if (await approveInTransaction(tx, c.website_id, c.crawl_id, 'automatic', AUTO_APPROVER, now, true))
          live.push(c);
      await tx.run('UPDATE job_runs SET approved_count = $1 WHERE job = $2 AND scheduled_for = $3', [
        live.length,
        job,
        scheduledFor,
      ]);
      return live.map((c) => ({ websiteId: c.website_id, crawlId: c.crawl_id }));
    });
    if (!approved) return undefined;
    for (const c of approved)
      this.states.set(c.websiteId, c.crawlId, { moduleState: 'APPROVED', approvedAt: now, approvedBy: AUTO_APPROVER });
    if (approved.length > 0) this.deliverSoon();
    return approved;
  }

  protected async deliverPass(): Promise<void> {
    const queued = await this.appDb.all<{
      website_id: string;
      crawl_id: number;
      user_id: number;
      email: string;
      name: string;
      domain: string;
      crawled_friendly: string;
    }>(
      `SELECT m.website_id, m.crawl_id, m.user_id, m.email, w.name, w.domain, c.crawled_friendly
       FROM mail_log m
       JOIN crawl_registry c ON c.website_id = m.website_id AND c.crawl_id = m.crawl_id
       JOIN websites w ON w.id = m.website_id
       WHERE m.sent_at IS NULL AND m.attempts < $1
       ORDER BY m.queued_at, m.website_id, m.crawl_id, m.email`,
      [MAX_ATTEMPTS],
    );
    for (const q of queued) {
      const key = [q.website_id, q.crawl_id, q.user_id];
      const now = this.clock();
      const claimed = await this.appDb.all(
        `UPDATE mail_log SET claimed_until = $1
         WHERE website_id = $2 AND crawl_id = $3 AND user_id = $4 AND sent_at IS NULL
           AND (claimed_until IS NULL OR claimed_until < $5) RETURNING 1`,
        [new Date(now.getTime() + MAIL_CLAIM_MS), ...key, now],
      );
      if (claimed.length === 0) continue;
      const link = overviewLink(this.mail.publicUrl, q.website_id, q.crawl_id);
      const verified = await this.verifiedFixesOf?.(q.website_id, q.crawl_id).catch((error: unknown) => {
        this.logger.error(`verified fixes of ${q.website_id} crawl ${q.crawl_id}: ${String(error)}`);
        return undefined;
      });
      try {
        await this.mailer.send({
          to: q.email,
          ...approvalMessage({
            websiteName: q.name,
            domain: q.domain,
            date: this.labelOf(q.website_id, q.crawl_id) ?? q.crawled_friendly,
            link,
            verified,
          }),
          fileStem: `${this.clock().toISOString()}-${q.website_id}-${q.crawl_id}-${q.user_id}`,
        });
        await this.appDb.run(
          'UPDATE mail_log SET sent_at = $1, attempts = attempts + 1, last_error = NULL, claimed_until = NULL WHERE website_id = $2 AND crawl_id = $3 AND user_id = $4',
          [this.clock(), ...key],
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.logger.error(`mail to ${q.email} about ${q.website_id} crawl ${q.crawl_id} failed: ${message}`);
        await this.appDb.run(
          'UPDATE mail_log SET attempts = attempts + 1, last_error = $1, claimed_until = NULL WHERE website_id = $2 AND crawl_id = $3 AND user_id = $4',
          [message.slice(0, 500), ...key],
        );
      }
    }
  }
}

/**
 * Approves a pending crawl with its audit row and client emails; false when it is approved already (or unknown).
 * The conditional UPDATE takes the row's lock, so of approvals at the same time (other replicas included) one takes
 * effect and the others, once it commits, find the crawl approved.
 */
async function approveInTransaction(
  tx: Sql,
  websiteId: string,
  crawlId: number,
  kind: ApprovalKind,
  approvedBy: string,
  now: Date,
  isMailed: boolean,
): Promise<boolean> {
  const approved = await tx.all(
    `UPDATE crawl_registry SET module_state = 'APPROVED', approved_at = $1, approved_by = $2
     WHERE website_id = $3 AND crawl_id = $4 AND module_state = 'PENDING' RETURNING 1`,
    [now, approvedBy, websiteId, crawlId],
  );
  if (approved.length === 0) return false;
  await tx.changed('crawl-registry');
  await tx.run(
    'INSERT INTO approval_log (website_id, crawl_id, kind, approved_by, approved_at) VALUES ($1, $2, $3, $4, $5)',
    [websiteId, crawlId, kind, approvedBy, now],
  );
  if (!isMailed) return true;
  for (const client of await clientsOfWebsite(tx, websiteId))
    await tx.run(
      'INSERT INTO mail_log (website_id, crawl_id, user_id, email, queued_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING',
      [websiteId, crawlId, client.id, client.email, now],
    );
  return true;
}

/** The crawl's overview in the dashboard. */
export const overviewLink = (publicUrl: string, websiteId: string, crawlId: number): string =>
  `${publicUrl}/technical-health-check?website=${encodeURIComponent(websiteId)}&crawl=${crawlId}`;

/** The email's sentence on the fixes the crawl verified; none when the count is unknown or no row was checked. */
export function verifiedFixesText(verified: number | undefined): string | undefined {
  if (verified === undefined) return undefined;
  return verified === 1
    ? 'This crawl verified 1 fix from the checklist.'
    : `This crawl verified ${verified.toLocaleString('en-GB')} fixes from the checklist.`;
}

export function approvalMessage(m: {
  websiteName: string;
  domain: string;
  date: string;
  link: string;
  verified?: number | undefined;
}): {
  subject: string;
  text: string;
  html: string;
} {
  const subject = `${m.websiteName}: your technical health check of ${m.date} is ready`;
  const fixes = verifiedFixesText(m.verified);
  const text = [
    'Hello,',
    '',
    `The technical health check of ${m.websiteName} (${m.domain}) for the crawl of ${m.date} has been reviewed and is ready for you:`,
    '',
    m.link,
    ...(fixes ? ['', fixes] : []),
    '',
    'Technical Health Check',
  ].join('\n');
  const html = [
    '<p>Hello,</p>',
    `<p>The technical health check of ${escapeHtml(m.websiteName)} (${escapeHtml(m.domain)}) for the crawl of ${escapeHtml(m.date)} has been reviewed and is ready for you:</p>`,
    `<p><a href="${escapeHtml(m.link)}">Open the overview of the crawl of ${escapeHtml(m.date)}</a></p>`,
    ...(fixes ? [`<p>${escapeHtml(fixes)}</p>`] : []),
    '<p>Technical Health Check</p>',
  ].join('\n');
  return { subject, text, html };
}
