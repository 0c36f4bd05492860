/**
 * The Data sources page's calls (catalog/data-source-calls.ts): a website's sources, uploading vendor files into one
 * and removing an import. Internal users only (ADMIN, and STAFF bound to the website); anyone else, and an unknown
 * website, gets the report calls' 404, so a client learns nothing. Uploads stream each file to a temporary folder of
 * the data directory; the import itself is `npm run import-data`'s, in a child process (sources/import-jobs.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_FILES,
  type DataSourcesAnswer,
  type ImportJob,
} from '../../catalog/data-source-calls.ts';
import { DATA_WINDOW_DAYS, dataSource, dataSourceIds, type DataSourceId } from '../../catalog/data-sources.ts';
import type { AccessCheck } from '../auth/access.ts';
import { authOf } from '../auth/http.ts';
import type { AppDb } from '../app-db/db.ts';
import { readSettings } from '../crawl-runs/runs.ts';
import { withConnection } from '../db/duckdb.ts';
import type { CrawlRecord, CrawlRegistry } from '../store/registry.ts';
import { FROM_EXPORT, joinedFromTables } from '../source-data/join-sources.ts';
import { websiteDir, WEBSITE_FILE } from '../store/layout.ts';
import { importerOf, openSourceFile } from '../sources/detect-format.ts';
import { ImportError } from '../sources/import-error.ts';
import { JOB_RUNNING, type ImportJobs, type JobRefusal } from '../sources/import-jobs.ts';
import { isZip } from '../sources/zip-files.ts';
import { sourceStatuses, type NewestCrawl } from '../sources/source-status.ts';
import { readSourceVersion } from '../source-data/source-store.ts';
import { nulField, nulRefusal } from './nul-bytes.ts';
import { readBody } from './read-body.ts';
import { WEBSITE_NOT_FOUND } from './technical-health-check.ts';

export const UPLOADS_DIR = 'uploads';
export const IMPORT_RUNNING = { error: JOB_RUNNING.error };
export const NO_FILE = { error: 'No file was uploaded' } as const;
export const NO_CRAWL_YET = { error: 'This website has no crawl loaded yet: import its data once one is' } as const;

const websiteIdSchema = z.string().min(1).max(100);
const day = z.iso.date();
const uploadQuerySchema = z
  .object({
    websiteId: websiteIdSchema,
    source: z.enum(dataSourceIds),
    start: day.optional(),
    end: day.optional(),
    replace: z.enum(['true', 'false']).optional(),
  })
  .refine((q) => (q.start === undefined) === (q.end === undefined), {
    message: 'start and end go together',
    path: ['end'],
  });
const removeSchema = z.object({
  websiteId: websiteIdSchema,
  source: z.enum(dataSourceIds),
  importId: z.string().min(1).max(100),
});

const newestCrawlOf = (record: CrawlRecord): NewestCrawl => {
  const joined = record.meta.sources ?? joinedFromTables(record.meta.tables);
  return {
    crawlId: record.crawlId,
    alias: record.alias,
    fromExport: new Set(dataSourceIds.filter((id) => joined[id] === FROM_EXPORT)),
  };
};

export interface DataSourceRouteDeps {
  registry: CrawlRegistry;
  appDb: AppDb;
  access: AccessCheck;
  jobs: ImportJobs;
  databaseUrl: string | undefined;
  /** Whether the app database knows the website (one without a crawl yet is not in the store). */
  isKnownWebsite: (websiteId: string) => Promise<boolean>;
}

/** HTTP status of a refused job: bad input 400, something else running or rows that differ 409, unknown 404. */
const STATUS_OF: Record<JobRefusal['kind'], number> = {
  'invalid-input': 400,
  locked: 409,
  conflict: 409,
  'unknown-website': 409,
  'not-found': 404,
  interrupted: 503,
  error: 500,
};

/**
 * The import's own refusal of a file of no known format, or of another source's, told from its first bytes here
 * rather than after a job's process has started (seconds on a busy machine); a ZIP is told by what it holds, there.
 */
function formatRefusal(files: readonly string[], names: readonly string[], source: DataSourceId): string | undefined {
  try {
    for (const [i, file] of files.entries()) {
      const opened = openSourceFile(names[i]!, file);
      if (!isZip(opened)) importerOf(opened, source);
    }
    return undefined;
  } catch (error) {
    if (error instanceof ImportError) return error.message;
    throw error;
  }
}

/** A name safe for a file of the upload folder that still says which file the user sent. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;
const uploadName = (given: string, index: number): string =>
  path.basename(given.replace(/\\/g, '/')).replace(CONTROL, '').slice(-200) || `file-${index + 1}`;

/** What every data source call shares: the deps, and the checks and answers they all make. */
interface DataSourceCalls {
  deps: DataSourceRouteDeps;
  dataDir: string;
  isInStore: (websiteId: string) => boolean;
  /** Whether the caller may manage the website's data sources (and it exists); otherwise answers 404. */
  manages: (request: FastifyRequest, reply: FastifyReply, websiteId: string) => Promise<boolean>;
  answerJob: (reply: FastifyReply, started: { job: ImportJob; refusal: JobRefusal | undefined }) => FastifyReply;
}

function dataSourceCalls(deps: DataSourceRouteDeps): DataSourceCalls {
  const dataDir = deps.registry.dataDir;
  const isInStore = (websiteId: string): boolean =>
    fs.existsSync(path.join(websiteDir(dataDir, websiteId), WEBSITE_FILE));
  const manages = async (request: FastifyRequest, reply: FastifyReply, websiteId: string): Promise<boolean> => {
    if (
      authOf(request).isInternal &&
      deps.access.canSeeWebsite(request, websiteId) &&
      (isInStore(websiteId) || (await deps.isKnownWebsite(websiteId)))
    )
      return true;
    void reply.code(404).send(WEBSITE_NOT_FOUND);
    return false;
  };
  const answerJob = (reply: FastifyReply, started: { job: ImportJob; refusal: JobRefusal | undefined }) =>
    started.refusal
      ? reply.code(STATUS_OF[started.refusal.kind]).send({ error: started.refusal.error, kind: started.refusal.kind })
      : reply.code(202).send({ job: started.job });
  return { deps, dataDir, isInStore, manages, answerJob };
}

function registerListCall(app: FastifyInstance, { deps, dataDir, manages }: DataSourceCalls): void {
  const { registry, jobs } = deps;
  app.post('/api/data-sources/list', async (request, reply) => {
    const body = readBody(z.object({ websiteId: websiteIdSchema }), request, reply);
    if (!body || !(await manages(request, reply, body.websiteId))) return reply;
    const read = () => {
      const newest = registry.crawls(body.websiteId)[0];
      return withConnection(registry.db, (conn) =>
        sourceStatuses(conn, dataDir, body.websiteId, newest && newestCrawlOf(newest)),
      );
    };
    // A crawl refreshed by the import is detached while it is read: read again once the registry has the new load.
    const sources = await read().catch(async () => (await registry.refresh(), read()));
    const settings = await readSettings(deps.appDb, body.websiteId);
    const answer: DataSourcesAnswer = {
      websiteId: body.websiteId,
      dataWindowDays: settings?.settings.dataWindowDays ?? DATA_WINDOW_DAYS,
      sources,
      jobs: await jobs.ofWebsite(body.websiteId),
    };
    return answer;
  });
}

function registerRemoveImportCall(app: FastifyInstance, { deps, dataDir, manages, answerJob }: DataSourceCalls): void {
  const { jobs } = deps;
  app.post('/api/data-sources/remove-import', async (request, reply) => {
    const body = readBody(removeSchema, request, reply);
    if (!body || !(await manages(request, reply, body.websiteId))) return reply;
    if (await jobs.isRunning(body.websiteId)) return reply.code(409).send(IMPORT_RUNNING);
    const { websiteId, source, importId } = body;
    // Checked again by the job under the import lock; here it spares a child process for a stale page.
    if (!readSourceVersion(dataDir, websiteId, source)?.meta.imports.some((i) => i.id === importId))
      return reply
        .code(404)
        .send({ error: `${dataSource(source).title} has no import "${importId}"`, kind: 'not-found' });
    const started = await jobs.start(
      { websiteId, source, kind: 'remove', files: [], by: authOf(request).email },
      { type: 'remove', options: { dataDir, websiteId, source, importId, databaseUrl: deps.databaseUrl } },
    );
    return answerJob(reply, started);
  });
}

/**
 * Streams the request's files into `tempDir` and checks their format; undefined when it answered the request
 * instead (no file, a NUL in a name, a file of no known format). The folder is removed unless files were kept.
 */
async function saveUploads(
  request: FastifyRequest,
  reply: FastifyReply,
  tempDir: string,
  source: DataSourceId,
): Promise<{ names: string[]; files: string[] } | undefined> {
  const names: string[] = [];
  const files: string[] = [];
  try {
    for await (const part of request.files()) {
      if (nulField(part.filename) !== undefined) {
        part.file.resume();
        void reply.code(400).send(nulRefusal(`files.${names.length}.filename`));
        return undefined;
      }
      const name = uploadName(part.filename, names.length);
      const file = path.join(tempDir, String(names.length), name);
      fs.mkdirSync(path.dirname(file));
      await pipeline(part.file, fs.createWriteStream(file, { mode: 0o600 }));
      names.push(name);
      files.push(file);
    }
    if (files.length === 0) {
      void reply.code(400).send(NO_FILE);
      return undefined;
    }
    const refusal = formatRefusal(files, names, source);
    if (refusal) {
      void reply.code(400).send({ error: refusal, kind: 'invalid-input' });
      return undefined;
    }
  } catch (error) {
    fs.rmSync(tempDir, { recursive: true, force: true });
    throw error;
  } finally {
    if (files.length === 0 || reply.sent) fs.rmSync(tempDir, { recursive: true, force: true });
  }
  return { names, files };
}

/** Multipart bodies are parsed for this call only: every other call stays JSON. */
async function registerUploadCall(app: FastifyInstance, calls: DataSourceCalls): Promise<void> {
  const { deps, dataDir, isInStore, manages, answerJob } = calls;
  const { jobs } = deps;
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: MAX_UPLOAD_FILES, fields: 0, parts: MAX_UPLOAD_FILES },
    });
    scope.post('/api/data-sources/upload', async (request, reply) => {
      const query = uploadQuerySchema.safeParse(request.query ?? {});
      if (!query.success) {
        const issue = query.error.issues[0];
        const field = issue?.path.join('.') ?? '';
        return reply
          .code(400)
          .send({ error: `Invalid ${field || 'query'}: ${issue?.message ?? 'bad request'}`, field });
      }
      const { websiteId, source, start, end } = query.data;
      if (!(await manages(request, reply, websiteId))) return reply;
      if (!isInStore(websiteId)) return reply.code(409).send(NO_CRAWL_YET);
      if (!request.isMultipart()) return reply.code(415).send({ error: 'Send the files as multipart/form-data' });
      if (await jobs.isRunning(websiteId)) return reply.code(409).send(IMPORT_RUNNING);
      const uploads = path.join(dataDir, UPLOADS_DIR);
      fs.mkdirSync(uploads, { recursive: true, mode: 0o700 });
      const tempDir = fs.mkdtempSync(path.join(uploads, `${websiteId}-`));
      const saved = await saveUploads(request, reply, tempDir, source);
      if (!saved) return reply;
      const { names, files } = saved;
      const started = await jobs.start(
        { websiteId, source, kind: 'import', files: names, by: authOf(request).email },
        {
          type: 'import',
          options: {
            dataDir,
            websiteId,
            source,
            files,
            names,
            range: start !== undefined && end !== undefined ? { start, end } : undefined,
            replace: query.data.replace === 'true',
            databaseUrl: deps.databaseUrl,
            by: authOf(request).email,
          },
        },
        tempDir,
      );
      return answerJob(reply, started);
    });
  });
}

export async function registerDataSourceRoutes(app: FastifyInstance, deps: DataSourceRouteDeps): Promise<void> {
  app.addHook('onClose', () => deps.jobs.close());
  const calls = dataSourceCalls(deps);
  registerListCall(app, calls);
  registerRemoveImportCall(app, calls);
  await registerUploadCall(app, calls);
}
