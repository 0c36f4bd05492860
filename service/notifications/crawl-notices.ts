/**
 * Crawl-run notices as users read them: in the dashboard's list, and by email to those who keep it on. The email
 * goes through the notices' own outbox columns (run-notices.ts): a crash or an SMTP failure leaves it queued for the
 * next delivery pass (after the next run ends, at start-up and every few minutes), and a claim makes replicas send
 * each once.
 */
import { crawlTimeText } from '../../catalog/crawl-label.ts';
import { runNoticeText, type RunNotice, type RunNoticeOutcome } from '../../catalog/notifications.ts';
import type { AppDb } from '../app-db/db.ts';
import { MailDelivery } from '../jobs/mail-delivery.ts';
import { overviewLink, type Clock } from '../jobs/approval.ts';
import { escapeHtml } from '../mail-message.ts';
import type { MailSettings, Mailer } from '../jobs/mailer.ts';
import {
  claimNoticeEmail,
  queuedNoticeEmails,
  recordNoticeEmail,
  type NoticeRow,
  type PartialOf,
} from './run-notices.ts';

const MAX_ATTEMPTS = 5;
/** Longer than an SMTP send may take; a claim left by a process that died lapses after it. */
const MAIL_CLAIM_MS = 5 * 60 * 1000;

/** The crawl's label (catalog/crawl-label.ts), undefined when it is no longer in the store. */
export type LabelOf = (websiteId: string, crawlId: number) => string | undefined;

export interface NoticeSources {
  labelOf: LabelOf;
  partialOf: PartialOf;
}

/** The dashboard page a notice leads to, from the site root: the crawl's overview, or the Crawls page. */
function noticePath(row: NoticeRow): string {
  const website = encodeURIComponent(row.website_id);
  return row.status === 'loaded' && row.crawl_id !== null
    ? overviewLink('', row.website_id, row.crawl_id)
    : `/crawls?website=${website}`;
}

export function describeNotice(row: NoticeRow, { labelOf, partialOf }: NoticeSources): RunNotice {
  const crawlId = row.status === 'loaded' ? row.crawl_id : null;
  const partial = crawlId === null ? null : partialOf(row.website_id, crawlId);
  const outcome: RunNoticeOutcome = crawlId === null ? 'failed' : partial ? 'partial' : 'finished';
  const label =
    crawlId === null
      ? crawlTimeText((row.started_at ?? row.queued_at).toISOString())
      : (labelOf(row.website_id, crawlId) ?? `crawl ${crawlId}`);
  return {
    id: row.id,
    websiteId: row.website_id,
    runId: row.run_id,
    crawlId,
    outcome,
    ...runNoticeText({
      websiteName: row.website_name,
      outcome,
      label,
      pagesDone: row.pages_done,
      errors: row.errors,
      parseFailures: row.parse_failures,
      partial,
      reason: row.reason,
    }),
    path: noticePath(row),
    createdAt: row.created_at.toISOString(),
    isRead: row.read_at !== null,
  };
}

export function noticeMessage(notice: RunNotice, publicUrl: string): { subject: string; text: string; html: string } {
  const link = `${publicUrl}${notice.path}`;
  const action = notice.outcome === 'failed' ? 'Open the Crawls page' : 'Open the overview of the crawl';
  const settings = 'You can switch these emails off in the dashboard, under the bell at the top.';
  return {
    subject: notice.title,
    text: ['Hello,', '', `${notice.title}.`, notice.detail, '', link, '', settings, '', 'Technical Health Check'].join(
      '\n',
    ),
    html: [
      '<p>Hello,</p>',
      `<p>${escapeHtml(notice.title)}.<br>${escapeHtml(notice.detail)}</p>`,
      `<p><a href="${escapeHtml(link)}">${action}</a></p>`,
      `<p>${settings}</p>`,
      '<p>Technical Health Check</p>',
    ].join('\n'),
  };
}

/** Emails the notices of ended runs to the users who keep the email on. */
export class CrawlNoticeMail extends MailDelivery {
  constructor(
    private readonly appDb: AppDb,
    private readonly mailer: Mailer,
    private readonly mail: MailSettings,
    private readonly clock: Clock,
    private readonly sources: NoticeSources,
    private readonly logger: { error(message: string): void },
  ) {
    super(logger);
  }

  protected async deliverPass(): Promise<void> {
    for (const row of await queuedNoticeEmails(this.appDb, MAX_ATTEMPTS)) {
      if (!(await claimNoticeEmail(this.appDb, row.id, this.clock(), MAIL_CLAIM_MS))) continue;
      const notice = describeNotice(row, this.sources);
      try {
        await this.mailer.send({
          to: row.email,
          ...noticeMessage(notice, this.mail.publicUrl),
          fileStem: `${this.clock().toISOString()}-${row.website_id}-run-${row.run_id}-${row.user_id}`,
        });
        await recordNoticeEmail(this.appDb, row.id, null, this.clock());
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.logger.error(`mail to ${row.email} about ${row.website_id} crawl run ${row.run_id} failed: ${message}`);
        await recordNoticeEmail(this.appDb, row.id, message, this.clock());
      }
    }
  }
}
