/**
 * The calls of catalog/crawl-runs.ts: a website's crawl settings, its runs, and starting and cancelling one.
 * Internal users only (ADMIN, and STAFF bound to the website); anyone else, and an unknown website, gets the report
 * calls' 404, so a client learns nothing. Starting only queues: the runner (crawl-runs/runner.ts) takes it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { checkCrawlSettings, type CrawlRunsAnswer, type CrawlSettingsAnswer } from '../../catalog/crawl-runs.ts';
import type { PartialReason } from '../../catalog/export-contract.ts';
import type { AccessCheck } from '../auth/access.ts';
import { authOf } from '../auth/http.ts';
import type { AppDb } from '../app-db/db.ts';
import type { CrawlRunner } from '../crawl-runs/runner.ts';
import { nextDue } from '../crawl-runs/schedule.ts';
import {
  ALREADY_ACTIVE,
  getRun,
  listRuns,
  queueRun,
  readSettings,
  requestCancel,
  saveSettings,
  toCrawlRun,
  type StoredSettings,
} from '../crawl-runs/runs.ts';
import { readBody } from './read-body.ts';
import { WEBSITE_NOT_FOUND } from './technical-health-check.ts';

export const RUN_NOT_FOUND = { error: 'crawl run could not be found.' } as const;

const websiteIdSchema = z.string().min(1).max(100);
const websiteSchema = z.object({ websiteId: websiteIdSchema });
const saveSchema = z.object({ websiteId: websiteIdSchema, settings: z.unknown() });
const cancelSchema = z.object({
  websiteId: websiteIdSchema,
  runId: z.number().int().min(1).max(2_147_483_647),
  keepCrawled: z.boolean(),
});

export interface CrawlRunRouteDeps {
  appDb: AppDb;
  runner: Pick<CrawlRunner, 'kick' | 'heed'>;
  clock: () => Date;
  access: AccessCheck;
  /** Why a loaded crawl is partial, as its manifest says (null when full or no longer loaded). */
  partialOf?: (websiteId: string, crawlId: number) => PartialReason | null;
}

export function registerCrawlRunRoutes(
  app: FastifyInstance,
  { appDb, runner, clock, access, partialOf = () => null }: CrawlRunRouteDeps,
): void {
  /** The website's stored settings when the caller may manage its crawls; otherwise answers 404. */
  const manageable = async <T extends z.ZodType<{ websiteId: string }>>(
    schema: T,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ body: z.infer<T>; stored: StoredSettings } | undefined> => {
    const body = readBody(schema, request, reply);
    if (!body) return undefined;
    const stored =
      authOf(request).isInternal && access.canSeeWebsite(request, body.websiteId)
        ? await readSettings(appDb, body.websiteId)
        : undefined;
    if (!stored) {
      void reply.code(404).send(WEBSITE_NOT_FOUND);
      return undefined;
    }
    return { body, stored };
  };

  // Defaults have a schedule to offer, but it runs only once saved.
  const nextRunAt = (stored: StoredSettings): string | null =>
    stored.isDefault ? null : (nextDue(stored.settings.schedule, clock())?.toISOString() ?? null);
  const settingsAnswer = (stored: StoredSettings): CrawlSettingsAnswer => ({
    settings: stored.settings,
    isDefault: stored.isDefault,
    nextRunAt: nextRunAt(stored),
  });

  app.post('/api/crawl-runs/get-settings', async (request, reply) => {
    const found = await manageable(websiteSchema, request, reply);
    return found ? settingsAnswer(found.stored) : reply;
  });

  app.post('/api/crawl-runs/save-settings', async (request, reply) => {
    const found = await manageable(saveSchema, request, reply);
    if (!found) return reply;
    const checked = checkCrawlSettings(found.body.settings);
    if (!('settings' in checked)) return reply.code(400).send(checked);
    const saved = await appDb.transaction((tx) =>
      saveSettings(tx, found.body.websiteId, checked.settings, authOf(request).email, clock()),
    );
    return settingsAnswer(saved);
  });

  app.post('/api/crawl-runs/list', async (request, reply) => {
    const found = await manageable(websiteSchema, request, reply);
    if (!found) return reply;
    const answer: CrawlRunsAnswer = {
      runs: (await listRuns(appDb, found.body.websiteId)).map((run) =>
        run.crawlId === null ? run : { ...run, partial: partialOf(run.websiteId, run.crawlId) },
      ),
      nextRunAt: nextRunAt(found.stored),
      now: clock().toISOString(),
    };
    return answer;
  });

  app.post('/api/crawl-runs/start', async (request, reply) => {
    const found = await manageable(websiteSchema, request, reply);
    if (!found) return reply;
    const run = await queueRun(appDb, {
      websiteId: found.body.websiteId,
      trigger: 'manual',
      startedBy: authOf(request).email,
      scheduledFor: null,
      settings: found.stored.settings,
      now: clock(),
    });
    if (!run) return reply.code(409).send({ error: ALREADY_ACTIVE });
    runner.kick();
    return { run: toCrawlRun(run) };
  });

  app.post('/api/crawl-runs/cancel', async (request, reply) => {
    const found = await manageable(cancelSchema, request, reply);
    if (!found) return reply;
    const { websiteId, runId, keepCrawled } = found.body;
    const run = await getRun(appDb, websiteId, runId);
    if (!run) return reply.code(404).send(RUN_NOT_FOUND);
    const requested = await appDb.transaction((tx) => requestCancel(tx, runId, keepCrawled, clock()));
    if (requested === 'ended') {
      const ended = (await getRun(appDb, websiteId, runId)) ?? run;
      return reply.code(409).send({ error: `The crawl run has already ended (${ended.status})` });
    }
    if ('refused' in requested) return reply.code(409).send({ error: requested.refused });
    runner.heed(runId, { keep: requested.run.keep_crawled });
    return { run: toCrawlRun(requested.run) };
  });
}
