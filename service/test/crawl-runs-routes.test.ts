/**
 * The crawl-runs calls over HTTP (app.inject), without the runner: settings with their defaults and every
 * validation message of checkCrawlSettings, starting (which only queues), cancelling a queued run, the history, and
 * who may call them at all.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CRAWL_LIMITS,
  defaultCrawlSettings,
  type CrawlRun,
  type CrawlRunsAnswer,
  type CrawlSettings,
  type CrawlSettingsAnswer,
} from '../../catalog/crawl-runs.ts';
import { loadTestCrawl, openSignedInApp, post, tempDir, type Session, type SignedInApp } from './auth-fixture.ts';

type Who = 'client' | 'otherClient' | 'staff' | 'otherStaff' | 'admin';
let signedIn: SignedInApp<Who>;
let app: FastifyInstance;
let sessions: Record<Who, Session>;
let domain: string;

const WEBSITE_NOT_FOUND = { error: 'website could not be found.' };
const NOW = '2026-03-25T10:00:00.000Z';

beforeAll(async () => {
  const dataDir = tempDir();
  await loadTestCrawl(dataDir, 'shop', 1, '2026-03-01T09:00:00Z');
  await loadTestCrawl(dataDir, 'blog', 1, '2026-03-01T09:00:00Z');
  signedIn = await openSignedInApp(dataDir, NOW, ['client', 'otherClient', 'staff', 'otherStaff', 'admin']);
  ({ app, sessions } = signedIn);
  domain = signedIn.stack.registry.website('shop')!.domain;
});
afterAll(() => signedIn?.close());

const call = (path: string, who: Who | undefined, payload: object, options?: { csrf?: boolean }) =>
  post(app, `/api/crawl-runs/${path}`, who && sessions[who], payload, options);

const valid = (): CrawlSettings => ({ ...defaultCrawlSettings('shop.example'), startUrl: 'http://127.0.0.1:9/' });

const regexError = (source: string): string => {
  try {
    new RegExp(source);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${source} is a valid regular expression`);
};

/** [change to valid settings, field, message]: every message checkCrawlSettings can give. */
const problems: [Partial<Record<keyof CrawlSettings, unknown>> | 'not an object', keyof CrawlSettings, string][] = [
  ['not an object', 'startUrl', 'Settings must be an object'],
  [{ startUrl: '  ' }, 'startUrl', 'Start URL is required'],
  [{ startUrl: 5 }, 'startUrl', 'Start URL is required'],
  [
    { startUrl: `https://a.example/${'x'.repeat(CRAWL_LIMITS.urlLength)}` },
    'startUrl',
    'Start URL must be at most 2048 characters',
  ],
  [
    { startUrl: 'shop.example' },
    'startUrl',
    'Start URL "shop.example" is not a URL (it must start with http:// or https://)',
  ],
  [
    { startUrl: 'ftp://shop.example/' },
    'startUrl',
    'Start URL "ftp://shop.example/" must start with http:// or https://',
  ],
  [{ startUrl: 'https://me:pw@shop.example/' }, 'startUrl', 'Start URL must not contain a user name or password'],
  [{ includeSubdomains: 'yes' }, 'includeSubdomains', 'Include subdomains must be true or false'],
  [{ include: '/blog/' }, 'include', 'Include patterns must be a list'],
  [{ include: Array.from({ length: 51 }, () => 'a') }, 'include', 'At most 50 include patterns'],
  [{ include: [' '] }, 'include', 'Include pattern must not be empty'],
  [{ include: ['a'.repeat(501)] }, 'include', 'Include pattern must be at most 500 characters'],
  [{ include: ['('] }, 'include', `Include pattern "(" is not a valid regular expression (${regexError('(')})`],
  [{ exclude: null }, 'exclude', 'Exclude patterns must be a list'],
  [{ exclude: ['[a'] }, 'exclude', `Exclude pattern "[a" is not a valid regular expression (${regexError('[a')})`],
  [
    { exclude: ['/ok/', '(a+)\\1$'] },
    'exclude',
    'Exclude pattern "(a+)\\1$" cannot be used: backreferences are not supported (patterns must run in linear time)',
  ],
  [
    { include: ['^(?!.*print)'] },
    'include',
    'Include pattern "^(?!.*print)" cannot be used: lookahead and lookbehind are not supported (patterns must run in linear time)',
  ],
  [{ maxUrls: 0 }, 'maxUrls', 'Max URLs must be a whole number from 1 to 1,000,000'],
  [{ maxUrls: 1.5 }, 'maxUrls', 'Max URLs must be a whole number from 1 to 1,000,000'],
  [{ maxDepth: -1 }, 'maxDepth', 'Max depth must be a whole number from 0 to 1,000'],
  [{ concurrency: 65 }, 'concurrency', 'Concurrency must be a whole number from 1 to 64'],
  [{ delayMs: '10' }, 'delayMs', 'Delay must be a whole number from 0 to 60,000'],
  [{ userAgent: 7 }, 'userAgent', 'User agent must be text'],
  [{ userAgent: 'a\nb' }, 'userAgent', 'User agent must be one line'],
  [{ userAgent: 'a'.repeat(301) }, 'userAgent', 'User agent must be at most 300 characters'],
  [{ userAgent: 'a\u0007b' }, 'userAgent', 'User agent must not contain control characters'],
  [{ respectRobots: 1 }, 'respectRobots', 'Respect robots.txt must be true or false'],
  [{ render: 1001 }, 'render', 'Rendered pages must be a whole number from 0 to 1,000'],
  [{ render: 11, maxUrls: 10 }, 'render', 'Rendered pages must not be more than Max URLs'],
  [{ sitemaps: 'https://shop.example/sitemap.xml' }, 'sitemaps', 'Sitemap URLs must be a list'],
  [{ sitemaps: Array.from({ length: 51 }, () => 'https://a.example/') }, 'sitemaps', 'At most 50 sitemap urls'],
  [{ sitemaps: [''] }, 'sitemaps', 'Sitemap URL is required'],
  [
    { sitemaps: ['sitemap.xml'] },
    'sitemaps',
    'Sitemap URL "sitemap.xml" is not a URL (it must start with http:// or https://)',
  ],
  [{ checkExternal: 'no' }, 'checkExternal', 'Check external links must be true or false'],
  [{ timeLimitHours: 0 }, 'timeLimitHours', 'Time limit must be a whole number from 1 to 48'],
  [{ timeLimitHours: 49 }, 'timeLimitHours', 'Time limit must be a whole number from 1 to 48'],
  [{ timeLimitHours: 1.5 }, 'timeLimitHours', 'Time limit must be a whole number from 1 to 48'],
  [{ schedule: 'weekly' }, 'schedule', 'Schedule must be a day and a time, or none'],
  [
    { schedule: { day: 'funday', time: '06:00' } },
    'schedule',
    'Schedule day must be one of monday, tuesday, wednesday, thursday, friday, saturday, sunday',
  ],
  [
    { schedule: { day: 'monday', time: '24:00' } },
    'schedule',
    'Schedule time must be HH:MM on a 24-hour clock, e.g. 06:00',
  ],
];

describe('crawl settings', () => {
  it('are the defaults from the website domain until saved, with no schedule running yet', async () => {
    const response = await call('get-settings', 'staff', { websiteId: 'shop' });
    expect(response.statusCode).toBe(200);
    expect(response.json<CrawlSettingsAnswer>()).toEqual({
      settings: defaultCrawlSettings(domain),
      isDefault: true,
      nextRunAt: null,
    });
  });

  it('answers every validation message with 400, the field and the message, and saves nothing', async () => {
    for (const [change, field, error] of problems) {
      const settings = change === 'not an object' ? 'not an object' : { ...valid(), ...change };
      const response = await call('save-settings', 'staff', { websiteId: 'shop', settings });
      expect([field, response.statusCode, response.json()]).toEqual([field, 400, { error, field }]);
    }
    expect((await call('get-settings', 'admin', { websiteId: 'shop' })).json<CrawlSettingsAnswer>().isDefault).toBe(
      true,
    );
  });

  it('saves cleaned settings and answers the next run in Europe/London', async () => {
    const settings = { ...valid(), startUrl: ' http://127.0.0.1:9 ', schedule: { day: 'monday', time: '06:00' } };
    const saved = await call('save-settings', 'staff', { websiteId: 'shop', settings });
    expect(saved.statusCode).toBe(200);
    // Wednesday 25 March 2026; the clocks go forward on Sunday 29 March: Monday 06:00 BST is 05:00 UTC.
    const expected = {
      settings: { ...valid(), startUrl: 'http://127.0.0.1:9/' },
      isDefault: false,
      nextRunAt: '2026-03-30T05:00:00.000Z',
    };
    expect(saved.json()).toEqual(expected);
    expect((await call('get-settings', 'admin', { websiteId: 'shop' })).json()).toEqual(expected);
    const none = await call('save-settings', 'staff', { websiteId: 'shop', settings: { ...valid(), schedule: null } });
    expect(none.json<CrawlSettingsAnswer>().nextRunAt).toBeNull();
  });

  it('keeps Check external links and Time limit, and gives their defaults to settings saved without them', async () => {
    const changed = { ...valid(), checkExternal: false, timeLimitHours: 48, exclude: ['(a+)+$'] };
    const saved = await call('save-settings', 'staff', { websiteId: 'shop', settings: changed });
    expect(saved.json<CrawlSettingsAnswer>().settings).toEqual(changed);
    // As a caller, or a row, from before the two settings existed.
    const { checkExternal: _external, timeLimitHours: _hours, ...older } = valid();
    const olderSaved = await call('save-settings', 'staff', { websiteId: 'shop', settings: older });
    expect(olderSaved.json<CrawlSettingsAnswer>().settings).toMatchObject({ checkExternal: true, timeLimitHours: 6 });
    await signedIn.stack.state.appDb.run('UPDATE crawl_settings SET settings = $1 WHERE website_id = $2', [
      JSON.stringify(older),
      'shop',
    ]);
    const read = await call('get-settings', 'staff', { websiteId: 'shop' });
    expect(read.json<CrawlSettingsAnswer>().settings).toEqual(valid());
    await call('save-settings', 'staff', { websiteId: 'shop', settings: { ...valid(), schedule: null } });
  });
});

describe('runs', () => {
  it('start queues a run with who started it; a second start is 409 while it is queued', async () => {
    const started = await call('start', 'staff', { websiteId: 'shop' });
    expect(started.statusCode).toBe(200);
    const run = started.json<{ run: CrawlRun }>().run;
    expect(run).toMatchObject({
      websiteId: 'shop',
      trigger: 'manual',
      startedBy: 'staff@agency.example',
      queuedAt: NOW,
      startedAt: null,
      endedAt: null,
      status: 'queued',
      progress: { pagesDone: 0, queued: 0, errors: 0, pagesPerSecond: 0, elapsedMs: 0 },
      crawlId: null,
      reason: null,
      isCancelRequested: false,
      isKeepRequested: false,
    });
    const again = await call('start', 'admin', { websiteId: 'shop' });
    expect([again.statusCode, again.json()]).toEqual([
      409,
      { error: 'A crawl of this website is already queued or running' },
    ]);
    // Another website is not held up.
    expect((await call('start', 'otherStaff', { websiteId: 'blog' })).statusCode).toBe(200);

    const cancelled = await call('cancel', 'staff', { websiteId: 'shop', runId: run.id, keepCrawled: false });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<{ run: CrawlRun }>().run).toMatchObject({
      id: run.id,
      status: 'cancelled',
      endedAt: NOW,
      isCancelRequested: true,
    });
    const twice = await call('cancel', 'staff', { websiteId: 'shop', runId: run.id, keepCrawled: false });
    expect([twice.statusCode, twice.json()]).toEqual([409, { error: 'The crawl run has already ended (cancelled)' }]);

    const next = await call('start', 'admin', { websiteId: 'shop' });
    expect(next.json<{ run: CrawlRun }>().run.startedBy).toBe('admin@agency.example');
    const list = await call('list', 'staff', { websiteId: 'shop' });
    expect(list.statusCode).toBe(200);
    const answer = list.json<CrawlRunsAnswer>();
    expect(answer.runs.map((r) => [r.status, r.startedBy])).toEqual([
      ['queued', 'admin@agency.example'],
      ['cancelled', 'staff@agency.example'],
    ]);
    expect(answer.runs.every((r) => r.websiteId === 'shop')).toBe(true);
  });

  it('cancel answers 404 for a run it does not know, or of another website', async () => {
    const blogRun = (await call('list', 'admin', { websiteId: 'blog' })).json<CrawlRunsAnswer>().runs[0]!;
    for (const runId of [999_999, blogRun.id]) {
      const response = await call('cancel', 'staff', { websiteId: 'shop', runId, keepCrawled: true });
      expect([response.statusCode, response.json()]).toEqual([404, { error: 'crawl run could not be found.' }]);
    }
  });

  it('refuses bad payload shapes with 400 naming the problem', async () => {
    const cases: [string, object, string][] = [
      ['list', {}, 'websiteId'],
      ['start', { websiteId: 5 }, 'websiteId'],
      ['cancel', { websiteId: 'shop', runId: 'one', keepCrawled: false }, 'runId'],
      ['cancel', { websiteId: 'shop', runId: 1 }, 'keepCrawled'],
      ['cancel', { websiteId: 'shop', runId: 0, keepCrawled: false }, 'runId'],
    ];
    for (const [path, payload, field] of cases) {
      const response = await call(path, 'staff', payload);
      expect([path, response.statusCode, response.json<{ field: string }>().field]).toEqual([path, 400, field]);
      expect(response.json<{ error: string }>().error).toMatch(new RegExp(`^Invalid ${field}: `));
    }
  });
});

describe('who may call them', () => {
  const calls: [string, object][] = [
    ['get-settings', { websiteId: 'shop' }],
    ['save-settings', { websiteId: 'shop', settings: valid() }],
    ['list', { websiteId: 'shop' }],
    ['start', { websiteId: 'shop' }],
    ['cancel', { websiteId: 'shop', runId: 1, keepCrawled: false }],
  ];

  it('answers clients, staff of other websites and unknown websites as for a website that does not exist', async () => {
    for (const [path, payload] of calls) {
      for (const who of ['client', 'otherClient', 'otherStaff'] as const) {
        const response = await call(path, who, payload);
        expect([path, who, response.statusCode, response.json()]).toEqual([path, who, 404, WEBSITE_NOT_FOUND]);
      }
      const unknown = await call(path, 'admin', { ...payload, websiteId: 'nowhere' });
      expect([path, unknown.statusCode, unknown.json()]).toEqual([path, 404, WEBSITE_NOT_FOUND]);
    }
  });

  it('needs a session, and the CSRF token for every call but get-settings', async () => {
    for (const [path, payload] of calls) {
      const anonymous = await call(path, undefined, payload);
      expect([path, anonymous.statusCode, anonymous.json()]).toEqual([path, 401, { error: 'Not signed in' }]);
      const forged = await call(path, 'admin', payload, { csrf: false });
      const expected = path === 'get-settings' ? 200 : 403;
      expect([path, forged.statusCode]).toEqual([path, expected]);
    }
  });
});
