/**
 * The calls of catalog/notifications.ts: the signed-in user's crawl-run notices, marking them read, and the email
 * switch. Each user reads and marks only their own, of the websites they see now. A CLIENT user gets the answer of a
 * call that does not exist, so clients learn nothing of crawls, pending ones least of all.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { NotificationsAnswer } from '../../catalog/notifications.ts';
import type { AuthContext } from '../auth/sessions.ts';
import { authOf } from '../auth/http.ts';
import type { AppDb } from '../app-db/db.ts';
import { describeNotice, type NoticeSources } from '../notifications/crawl-notices.ts';
import {
  isCrawlEmailed,
  listNotices,
  markNoticesRead,
  saveCrawlEmailed,
  type NoticeReader,
} from '../notifications/run-notices.ts';
import { readBody } from './read-body.ts';

const listSchema = z.object({}).strict();
const markSchema = z.union([
  z.object({ ids: z.array(z.number().int().min(1).max(2_147_483_647)).min(1).max(200) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
const settingsSchema = z.object({ isCrawlEmailed: z.boolean() }).strict();

export interface NotificationRouteDeps {
  appDb: AppDb;
  clock: () => Date;
  sources: NoticeSources;
}

export function registerNotificationRoutes(app: FastifyInstance, { appDb, clock, sources }: NotificationRouteDeps) {
  /** The caller when internal; otherwise answers 404 as for a call that does not exist. */
  const internal = (request: FastifyRequest, reply: FastifyReply): AuthContext | undefined => {
    const auth = authOf(request);
    if (auth.isInternal) return auth;
    void reply.code(404).send({ error: `${request.method} ${request.url.split('?')[0]} does not exist` });
    return undefined;
  };
  const readerOf = (auth: AuthContext): NoticeReader => ({
    userId: auth.userId,
    seesAllWebsites: auth.seesAllWebsites,
  });

  app.post('/api/notifications/list', async (request, reply) => {
    const auth = internal(request, reply);
    if (!auth || !readBody(listSchema, request, reply)) return reply;
    const { rows, unread } = await listNotices(appDb, readerOf(auth));
    const answer: NotificationsAnswer = {
      notices: rows.map((row) => describeNotice(row, sources)),
      unread,
      isCrawlEmailed: await isCrawlEmailed(appDb, auth.userId),
    };
    return answer;
  });

  app.post('/api/notifications/mark-read', async (request, reply) => {
    const auth = internal(request, reply);
    const body = auth && readBody(markSchema, request, reply);
    if (!auth || !body) return reply;
    await markNoticesRead(appDb, auth.userId, 'all' in body ? 'all' : body.ids, clock());
    return { unread: (await listNotices(appDb, readerOf(auth))).unread };
  });

  app.post('/api/notifications/save-settings', async (request, reply) => {
    const auth = internal(request, reply);
    const body = auth && readBody(settingsSchema, request, reply);
    if (!auth || !body) return reply;
    await saveCrawlEmailed(appDb, auth.userId, body.isCrawlEmailed);
    return { isCrawlEmailed: body.isCrawlEmailed };
  });
}
