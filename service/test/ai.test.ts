/**
 * AI suggestions: the offline provider on demo-like pages, the OpenAI-compatible provider against a loopback
 * chat-completions server, the checks and fallback, and the access rules of POST /api/ai/get-data.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEGMENT } from '../app-db/model.ts';
import { changeSegment } from '../app-db/websites.ts';
import { buildApp } from '../app.ts';
import { charLength, toPlainSuggestion } from '../ai/check.ts';
import { guessLanguage } from '../ai/language.ts';
import { OfflineProvider, offlineCandidates, slugWords } from '../ai/offline.ts';
import { OpenAiCompatibleProvider, type OpenAiOptions } from '../ai/openai.ts';
import { AiProviderError, type PageFacts } from '../ai/provider.ts';
import {
  TestClock,
  addTestUsers,
  openStack,
  post,
  signInAs,
  tempDir,
  type Session,
  type Stack,
} from './auth-fixture.ts';
import { writeCrawlToStore, type FixtureRow } from './helpers/make-store.ts';

const u = (p: string): string => `https://shop.example${p}`;
const page = (p: string, extra: FixtureRow = {}): FixtureRow => ({
  url: u(p),
  http_status_code: 200,
  indexable: true,
  page_title: `Title of ${p}`,
  description: null,
  h1_tag: [],
  h2_tag: [],
  ...extra,
});
const sc = (p: string, query: string, clicks: number, impressions: number, date = '2025-01-10'): FixtureRow => ({
  date,
  url: u(p),
  query,
  clicks,
  impressions,
  position: 4.5,
});

const BOOTS = '/mens/waterproof-walking-boots';
// The French page names its language only among its own hreflang alternates.
const links: FixtureRow[] = [
  { url_from: u('/fr/sejour'), url_to: u('/fr/sejour'), internal: true, link_type: 'hreflang', hreflang: 'fr-FR' },
  { url_from: u('/fr/sejour'), url_to: u('/de/skiurlaub'), internal: true, link_type: 'hreflang', hreflang: 'de' },
  { url_from: u('/fr/sejour'), url_to: u('/'), internal: true, link_type: 'hreflang', hreflang: 'x-default' },
];
const urls: FixtureRow[] = [
  page(BOOTS, {
    page_title: 'Boots',
    description: 'Boots.',
    h1_tag: ["Men's Waterproof Walking Boots"],
    h2_tag: ['Sizing guide', 'Care and reproofing', 'Free UK delivery'],
  }),
  // Another page already uses the text the boots page would get first: the checker must skip it.
  page('/other', {
    page_title: "Men's Waterproof Walking Boots | Kite Shop",
    description: "Explore Men's Waterproof Walking Boots with Kite Shop. See everything we have to offer.",
  }),
  page('/de/skiurlaub', { page_title: 'Skiurlaub', h1_tag: ['Skiurlaub in Zermatt'], og_locale: 'de_DE' }),
  page('/fr/sejour', { page_title: 'Séjour', h1_tag: ['Séjour au ski à Chamonix'] }),
  // German in its own words only: no og:locale, no hreflang, no language folder.
  page('/angebote/familien', { page_title: 'Skiurlaub für die ganze Familie', h1_tag: ['Skiurlaub mit Kindern'] }),
  page('/gone', { http_status_code: 404 }),
  page('/bare', { page_title: null, h1_tag: null }),
];
const queries: FixtureRow[] = [
  sc(BOOTS, 'waterproof walking boots', 120, 2400),
  sc(BOOTS, 'waterproof walking boots', 30, 600, '2025-01-11'),
  sc(BOOTS, 'mens walking boots', 80, 5000),
  sc(BOOTS, 'gore-tex boots', 5, 9000),
  // Outside the crawl's data range: must not count.
  sc(BOOTS, 'old query', 9999, 99999, '2024-06-01'),
];

const bootsFacts: PageFacts = {
  url: u(BOOTS),
  brand: 'Northwind Outfitters',
  pageTitle: 'Boots',
  description: 'Boots.',
  h1: ["Men's Waterproof Walking Boots"],
  h2: ['Sizing guide', 'Care and reproofing', 'Free UK delivery'],
  topQueries: [
    { query: 'waterproof walking boots', clicks: 150, impressions: 3000 },
    { query: 'mens walking boots', clicks: 80, impressions: 5000 },
  ],
  language: 'en',
};

describe('offline provider', () => {
  it('writes a title and a description from the H1 and the top query, within the limits', async () => {
    const provider = new OfflineProvider();
    const title = await provider.suggest('page-title', bootsFacts);
    const description = await provider.suggest('meta-description', bootsFacts);
    expect(title).toBe("Men's Waterproof Walking Boots | Northwind Outfitters");
    // The top queries add no word the H1 lacks, and the H2s are the page's sections, not its subject.
    expect(description).toMatch(/^(\w+ )?Men's Waterproof Walking Boots,? (from|at|with) Northwind Outfitters\. [A-Z]/);
    expect(description).not.toMatch(/Sizing guide|Care and reproofing/);
    const gaiters = { ...bootsFacts, topQueries: [{ query: 'winter walking gaiters', clicks: 9, impressions: 300 }] };
    // With the query the title would pass 65 characters: the H1 and the brand stay.
    expect(await provider.suggest('page-title', gaiters)).toBe("Men's Waterproof Walking Boots | Northwind Outfitters");
    expect(await provider.suggest('meta-description', gaiters)).toContain(
      'Northwind Outfitters. Everything you need to know about winter walking gaiters, in one place.',
    );
  });

  it('reads like a copywriter on demo pages: no counters or ids from slugs, no lists of headings', async () => {
    const provider = new OfflineProvider();
    const demoPages: { facts: PageFacts; subject: string; lead: string }[] = [
      {
        subject: 'A Weekend in the Cairngorms',
        lead: 'A Weekend in the Cairngorms',
        facts: {
          url: 'https://www.northwind-outfitters.co.uk/blog/a-weekend-in-the-cairngorms-65',
          brand: 'Northwind Outfitters',
          pageTitle: 'A Weekend in the Cairngorms 2 | Northwind Outfitters',
          description: null,
          h1: ['A Weekend in the Cairngorms 2'],
          h2: ['Before you go', 'Kit list', 'Related products'],
          topQueries: [{ query: 'a weekend in the cairngorms 2', clicks: 4, impressions: 160 }],
          language: 'en',
        },
      },
      {
        subject: 'Moor Insulated Gloves',
        lead: 'Moor Insulated Gloves',
        facts: {
          url: 'https://www.northwind-outfitters.co.uk/products/moor-insulated-gloves-2-11321',
          brand: 'Northwind Outfitters',
          pageTitle: null,
          description: 'Moor Insulated Gloves 2.',
          h1: [],
          h2: ['Product details', 'Delivery & returns', 'Customer reviews'],
          topQueries: [],
          language: null,
        },
      },
      {
        subject: 'Technical Walking Boots',
        lead: 'Technical Walking Boots',
        facts: {
          url: 'https://www.northwind-outfitters.co.uk/footwear/technical-walking-boots-c35/',
          brand: 'Northwind Outfitters',
          pageTitle: 'Technical Walking Boots | Northwind Outfitters',
          description: 'Shop technical walking boots at Northwind Outfitters. Free delivery over £50 and free returns.',
          h1: ['Technical Walking Boots'],
          h2: ['Shop by brand', 'Popular right now'],
          topQueries: [
            { query: 'technical walking boots uk', clicks: 30, impressions: 900 },
            { query: 'best technical walking boots', clicks: 12, impressions: 700 },
          ],
          language: 'en',
        },
      },
      {
        subject: 'Skiurlaub in Zermatt',
        lead: 'Skiurlaub in Zermatt',
        facts: {
          url: 'https://www.alpine-travel.eu/de/skiurlaub-in-zermatt-12/',
          brand: 'Alpine Travel',
          pageTitle: 'Skiurlaub in Zermatt | Alpine Travel',
          description: null,
          h1: ['Skiurlaub in Zermatt'],
          h2: ['Unterkunft', 'Anreise', 'Preise'],
          topQueries: [{ query: 'beste skiurlaub zermatt', clicks: 7, impressions: 200 }],
          language: 'de',
        },
      },
      {
        subject: 'Séjour au ski à Chamonix',
        lead: 'Séjour au ski à Chamonix',
        facts: {
          url: 'https://www.alpine-travel.eu/fr/sejour-au-ski-a-chamonix-7/',
          brand: 'Alpine Travel',
          pageTitle: 'Séjour au ski à Chamonix | Alpine Travel',
          description: null,
          h1: ['Séjour au ski à Chamonix'],
          h2: ['Hébergement', 'Accès', 'Tarifs'],
          topQueries: [{ query: 'meilleur séjour ski chamonix', clicks: 5, impressions: 150 }],
          language: 'fr',
        },
      },
    ];
    for (const { facts, subject, lead } of demoPages) {
      const title = await provider.suggest('page-title', facts);
      const description = await provider.suggest('meta-description', facts);
      expect(title).toBe(`${subject} | ${facts.brand}`);
      expect(description.toLowerCase()).toContain(lead.toLowerCase());
      for (const text of [title, description]) {
        expect(text).not.toMatch(/\d+(?=\s*[|.,]|$)/);
        expect(text).not.toMatch(/Covers|Find .* and more/);
        for (const heading of facts.h2) expect(text).not.toContain(heading);
        expect(toPlainSuggestion(text)).toBe(text);
      }
      expect(charLength(description)).toBeGreaterThanOrEqual(70);
      expect(charLength(description)).toBeLessThanOrEqual(200);
      expect(description.split(facts.brand)).toHaveLength(2);
    }
    // German and French pages get their text in their own language, English phrases none.
    expect(await provider.suggest('meta-description', demoPages[3]!.facts)).toMatch(
      /^(Entdecken Sie |Alles rund um )?Skiurlaub in Zermatt(: das Wichtigste von| bei) Alpine Travel\. (Alle|Sehen|Jetzt|Schauen) /,
    );
    expect(await provider.suggest('meta-description', demoPages[4]!.facts)).toMatch(
      /^(Découvrez |Tout savoir sur )?(s|S)éjour au ski à Chamonix(, chez| chez| : l’essentiel avec|, avec) Alpine Travel\. (Retrouvez|Parcourez|Prenez|Tous) /,
    );
    for (const { facts } of demoPages.filter((p) => p.facts.language === 'de' || p.facts.language === 'fr'))
      for (const type of ['page-title', 'meta-description'] as const)
        for (const text of offlineCandidates(type, facts))
          expect(text).not.toMatch(
            /\b(from|Discover|Everything you need|Read the full|See everything|Official Site)\b/,
          );
    // The page's own copy goes in when it says something new; its brand sentence does not.
    const boots = await provider.suggest('meta-description', demoPages[2]!.facts);
    expect(boots).toMatch(/Northwind Outfitters\. Free delivery over £50 and free returns\.$/);
    expect(boots).not.toContain('Shop technical walking boots at');
  });

  it('offers several distinct candidates, all within the limits, and works without queries', () => {
    for (const type of ['page-title', 'meta-description'] as const) {
      const candidates = offlineCandidates(type, bootsFacts);
      expect(candidates.length).toBeGreaterThan(2);
      expect(new Set(candidates.map((c) => c.toLowerCase())).size).toBe(candidates.length);
      const bare = offlineCandidates(type, { ...bootsFacts, topQueries: [], h1: [], h2: [], pageTitle: null });
      expect(bare[0]).toMatch(/Waterproof Walking Boots/i);
    }
    expect(slugWords('https://x.example/a/blue%20shoes-size_9.html')).toBe('blue shoes size');
    expect(slugWords('https://x.example/products/moor-insulated-gloves-2-11321')).toBe('moor insulated gloves');
    expect(slugWords('https://x.example/walking-boots-c35/')).toBe('walking boots');
    expect(slugWords('https://x.example/2024')).toBe('2024');
  });

  it('phrases each page its own way, the same page always alike, not one template for every page', async () => {
    const provider = new OfflineProvider();
    const products = ['Ridge Softshell Jacket', 'Bothy Gaiters', 'Moor Insulated Gloves', 'Fell Running Shoes']
      .concat(['Trail Merino Socks', 'Summit Down Jacket', 'Glen Waterproof Trousers', 'Crag Climbing Harness'])
      .map((h1) => ({
        ...bootsFacts,
        url: `https://www.example.com/p/${h1.toLowerCase().replace(/ /g, '-')}`,
        h1: [h1],
        topQueries: [],
      }));
    const texts = await Promise.all(products.map((facts) => provider.suggest('meta-description', facts)));
    const shape = (text: string, h1: string) => text.replace(h1, 'X').replace(/^Discover|^Explore|^All about/, 'Y');
    // Openings and closings differ from page to page: at least three shapes of text among eight pages.
    expect(new Set(texts.map((text, i) => shape(text, products[i]!.h1[0]!))).size).toBeGreaterThanOrEqual(3);
    expect(new Set(texts.map((text) => text.split('. ').at(-1))).size).toBeGreaterThanOrEqual(2);
    expect(await provider.suggest('meta-description', products[0]!)).toBe(texts[0]);
    for (const [i, text] of texts.entries()) {
      expect(text).toContain(products[i]!.h1[0]);
      expect(text.split('Northwind Outfitters')).toHaveLength(2);
    }
  });

  it("names the website by its name, never by a bare host like '127'", () => {
    const local = { ...bootsFacts, brand: '127', url: 'http://127.0.0.1:8080/mens/waterproof-walking-boots' };
    for (const type of ['page-title', 'meta-description'] as const)
      for (const [i, text] of offlineCandidates(type, local).entries()) {
        expect(text).not.toMatch(/\b127\b/);
        if (i === 0) expect(text).toContain("Men's Waterproof Walking Boots");
      }
  });

  it('writes Spanish for Spanish pages, and tells a page’s language from its path or its own words', async () => {
    const provider = new OfflineProvider();
    const spanish: PageFacts = {
      ...bootsFacts,
      url: 'https://www.alpine-travel.eu/es/vacaciones-de-esqui-en-zermatt/',
      brand: 'Alpine Travel',
      h1: ['Vacaciones de esquí en Zermatt'],
      topQueries: [],
      language: 'es',
    };
    const text = await provider.suggest('meta-description', spanish);
    expect(text).toMatch(/Alpine Travel\. (Consulta|Descubre|Echa|Infórmate) /);
    expect(text).not.toMatch(/\b(from|Discover|Read the full|See everything)\b/);
    expect(guessLanguage('https://x.example/de-at/angebote/ski', [])).toBe('de');
    expect(guessLanguage('https://x.example/angebote', ['Skiurlaub für die ganze Familie', 'Unsere Hotels'])).toBe(
      'de',
    );
    expect(guessLanguage('https://x.example/p', ['Le séjour idéal pour les familles', 'Nos hôtels'])).toBe('fr');
    expect(guessLanguage('https://x.example/p', ['Vacaciones para toda la familia', 'Nuestros hoteles y el spa'])).toBe(
      'es',
    );
    expect(
      guessLanguage('https://x.example/p', ["Men's Waterproof Walking Boots", 'Sizing guide for your boots']),
    ).toBe('en');
    expect(guessLanguage('https://x.example/p', ['Zermatt'])).toBeUndefined();
  });

  it('strips tags and refuses leftover markup', () => {
    expect(toPlainSuggestion('<b>Title:</b> "Walking boots"')).toBe('Walking boots');
    expect(toPlainSuggestion('Boots &amp; shoes')).toBeUndefined();
    expect(toPlainSuggestion('a < b')).toBeUndefined();
  });
});

// ---- A loopback chat-completions server ------------------------------------------------------------------------

type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;
let handlers: Handler[] = [];
let calls: { body: string; authorization?: string }[] = [];
let server: http.Server;
let baseUrl: string;

const completion =
  (content: unknown): Handler =>
  (_req, _body, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'x',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content } }],
      }),
    );
  };
const status =
  (code: number): Handler =>
  (_req, _body, res) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `status ${code}` } }));
  };
const hang: Handler = () => undefined;

const provider = (options: Partial<OpenAiOptions> = {}): OpenAiCompatibleProvider =>
  new OpenAiCompatibleProvider({
    baseUrl,
    apiKey: 'test-key',
    model: 'test-model',
    // Generous: a loaded machine must not turn a slow answer into a retry (the timeout test sets its own).
    timeoutMs: 10_000,
    retries: 2,
    backoffMs: 10,
    ...options,
  });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      calls.push({ body, authorization: req.headers.authorization });
      const handler = handlers.shift() ?? status(500);
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('OpenAI-compatible provider', () => {
  it('answers the message content and sends the model, key and page facts', async () => {
    handlers = [completion('Waterproof Walking Boots for Men | Northwind')];
    calls = [];
    await expect(provider().suggest('page-title', bootsFacts)).resolves.toBe(
      'Waterproof Walking Boots for Men | Northwind',
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]!.authorization).toBe('Bearer test-key');
    const sent = JSON.parse(calls[0]!.body) as { model: string; messages: { content: string }[] };
    expect(sent.model).toBe('test-model');
    expect(sent.messages[1]!.content).toContain('waterproof walking boots (150, 3000)');
  });

  it('rejects a malformed answer without retrying', async () => {
    handlers = [completion(null), completion('unused')];
    calls = [];
    await expect(provider().suggest('page-title', bootsFacts)).rejects.toThrow(/malformed answer/);
    expect(calls).toHaveLength(1);
  });

  it('times out, retries, and gives up with a clear error', async () => {
    handlers = [hang, hang, hang];
    calls = [];
    const error = await provider({ retries: 2, timeoutMs: 200 })
      .suggest('page-title', bootsFacts)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AiProviderError);
    expect((error as Error).message).toMatch(/failed after 3 attempts: no answer within 200 ms/);
    expect(calls).toHaveLength(3);
  });

  it('retries a 5xx with backoff and then succeeds', async () => {
    handlers = [status(503), status(502), completion('Men’s Waterproof Walking Boots | Northwind')];
    calls = [];
    await expect(provider().suggest('page-title', bootsFacts)).resolves.toBe(
      'Men’s Waterproof Walking Boots | Northwind',
    );
    expect(calls).toHaveLength(3);
  });

  it('does not retry a 4xx', async () => {
    handlers = [status(401)];
    calls = [];
    await expect(provider().suggest('page-title', bootsFacts)).rejects.toThrow(/HTTP 401: status 401/);
    expect(calls).toHaveLength(1);
  });
});

// ---- The call ---------------------------------------------------------------------------------------------------

describe('POST /api/ai/get-data', () => {
  let stack: Stack;
  let offlineApp: FastifyInstance;
  let openAiApp: FastifyInstance;
  const sessions: Record<'staff' | 'client' | 'otherClient', Session | undefined> = {
    staff: undefined,
    client: undefined,
    otherClient: undefined,
  };
  const URL = '/api/ai/get-data';

  beforeAll(async () => {
    const dataDir = tempDir('thc-ai-');
    await writeCrawlToStore(dataDir, {
      websiteId: 'shop',
      crawlId: 1,
      tables: { urls, search_console_queries: queries, links },
    });
    await writeCrawlToStore(dataDir, { websiteId: 'blog', crawlId: 1, tables: { urls: [] } });
    const clock = new TestClock(new Date('2025-03-10T09:00:00Z'));
    stack = await openStack(dataDir, { clock: clock.fn });
    await addTestUsers(stack, clock, ['client', 'otherClient', 'staff']);
    await changeSegment(stack.state.appDb, 'shop', DEFAULT_SEGMENT.id, { isAi: true });
    // The name the dashboard shows, which the store's website.json ('Site shop') does not know.
    await stack.state.appDb.run('UPDATE websites SET name = $1 WHERE id = $2', ['Kite Shop', 'shop']);
    await stack.state.approvals.approve('shop', 1, 'staff@agency.example');
    const config = { dataDir, port: 8080, host: '127.0.0.1', isDemo: false };
    const common = { config, db: stack.db, state: stack.state };
    offlineApp = await buildApp({ ...common, aiProvider: new OfflineProvider() });
    openAiApp = await buildApp({ ...common, aiProvider: provider({ retries: 0 }) });
    await offlineApp.ready();
    await openAiApp.ready();
    sessions.staff = await signInAs(offlineApp, 'staff');
    sessions.client = await signInAs(offlineApp, 'client');
    sessions.otherClient = await signInAs(offlineApp, 'otherClient');
  });
  afterAll(async () => {
    await offlineApp?.close();
    await openAiApp?.close();
    await stack?.close();
  });

  it('suggests a title and a description that no other page of the crawl has, from the top queries', async () => {
    const title = await post(offlineApp, URL, sessions.staff, { url: u(BOOTS), type: 'page-title', websiteId: 'shop' });
    expect(title.statusCode).toBe(200);
    expect(title.headers['content-type']).toMatch(/^text\/plain/);
    // The first candidate is /other's title, so the next one is used.
    expect(title.body).toBe("Men's Waterproof Walking Boots");
    expect(charLength(title.body)).toBeLessThanOrEqual(65);
    const description = await post(offlineApp, URL, sessions.client, {
      url: u(BOOTS),
      type: 'meta-description',
      websiteId: 'shop',
    });
    expect(description.statusCode).toBe(200);
    expect(description.body).not.toBe(urls[1]!.description);
    expect(description.body).toMatch(/Men's Waterproof Walking Boots,? (from|at|with) Kite Shop\. [A-Z]/);
    expect(description.body).not.toContain('Site shop');
    expect(charLength(description.body)).toBeGreaterThanOrEqual(70);
    expect(charLength(description.body)).toBeLessThanOrEqual(200);
  });

  it("writes in the page's language, from its og:locale, its own hreflang or its own words", async () => {
    const ask = (path: string) =>
      post(offlineApp, URL, sessions.staff, { url: u(path), type: 'meta-description', websiteId: 'shop' });
    const german = await ask('/de/skiurlaub');
    expect(german.statusCode).toBe(200);
    expect(german.body).toMatch(
      /Skiurlaub in Zermatt(: das Wichtigste von| bei) Kite Shop\. (Alle|Sehen|Jetzt|Schauen) /,
    );
    const french = await ask('/fr/sejour');
    expect(french.statusCode).toBe(200);
    expect(french.body).toMatch(/au ski à Chamonix(, chez| chez| : l’essentiel avec|, avec) Kite Shop\. [A-Z]/);
    expect(french.body).not.toMatch(/\b(from|Discover|Read the full)\b/);
    const ownWords = await ask('/angebote/familien');
    expect(ownWords.statusCode).toBe(200);
    expect(ownWords.body).toMatch(
      /Skiurlaub mit Kindern(: das Wichtigste von| bei) Kite Shop\. (Alle|Sehen|Jetzt|Schauen) /,
    );
  });

  it('applies the access rules and the AI and status-200 conditions', async () => {
    const payload = { url: u(BOOTS), type: 'page-title', websiteId: 'shop' };
    expect((await post(offlineApp, URL, undefined, payload)).statusCode).toBe(401);
    const other = await post(offlineApp, URL, sessions.otherClient, payload);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ error: 'website could not be found.' });
    const gone = await post(offlineApp, URL, sessions.staff, { ...payload, url: u('/gone') });
    expect(gone.statusCode).toBe(400);
    expect(gone.json()).toEqual({ error: 'AI suggestions are offered only for pages with http_status_code 200.' });
    const blog = await post(offlineApp, URL, sessions.otherClient, { ...payload, websiteId: 'blog' });
    expect(blog.statusCode).toBe(400);
    expect(blog.json()).toEqual({ error: 'AI suggestions are not enabled for this website.' });
    const missing = await post(offlineApp, URL, sessions.staff, { ...payload, url: u('/nope') });
    expect(missing.statusCode).toBe(404);
    const badType = await post(offlineApp, URL, sessions.staff, { ...payload, type: 'h1' });
    expect(badType.statusCode).toBe(400);
    expect(badType.json<{ field: string }>().field).toBe('type');
  });

  it('returns a checked provider answer, and falls back to the offline text when it fails the checks', async () => {
    const staff = await signInAs(openAiApp, 'staff');
    const call = (type: string) => post(openAiApp, URL, staff, { url: u(BOOTS), type, websiteId: 'shop' });

    handlers = [completion('<title>Waterproof Walking Boots for Men | Site shop</title>')];
    const ok = await call('page-title');
    expect(ok.body).toBe('Waterproof Walking Boots for Men | Site shop');
    expect(ok.headers['x-ai-provider']).toBe('openai');
    // Cached per website, crawl, type and url: the server is not asked again.
    calls = [];
    expect((await call('page-title')).body).toBe(ok.body);
    expect(calls).toHaveLength(0);

    handlers = [completion('Too short')];
    const short = await call('meta-description');
    expect(short.statusCode).toBe(200);
    expect(short.headers['x-ai-provider']).toBe('offline');
    expect(charLength(short.body)).toBeGreaterThanOrEqual(70);
  });

  it('falls back to the offline text when the provider is down, and asks it again next time', async () => {
    const staff = await signInAs(openAiApp, 'staff');
    const payload = { url: u('/bare'), type: 'page-title', websiteId: 'shop' };
    handlers = [status(500)];
    const down = await post(openAiApp, URL, staff, payload);
    expect(down.statusCode).toBe(200);
    expect(down.headers['x-ai-provider']).toBe('offline');
    expect(down.body).toBe('Bare | Kite Shop Official Site');
    handlers = [completion('The Bare Essentials Collection | Site shop')];
    const up = await post(openAiApp, URL, staff, payload);
    expect(up.headers['x-ai-provider']).toBe('openai');
  });
});
