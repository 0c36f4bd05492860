/**
 * The second real site of the accuracy check (issue 27 §4): Debian's Rust documentation (rust-doc) served by nginx
 * on 127.0.0.1, crawled with the CLI's defaults, loaded with the real loader and read through the real engine. The
 * whole site (about 22,000 URLs, mostly API pages) takes minutes on a busy machine, so the crawl keeps to the books
 * (`--include`), where the site's empty descriptions, `<meta rel=canonical>` stubs and mdBook assets are. Its oracles read the files nginx serves with grep, hashes and file names
 * (helpers/real-site-accuracy.ts): rust-doc's 900-odd empty meta descriptions, its `<meta rel=canonical>` redirect
 * stubs, its stylesheets, scripts and fonts, and its lack of a sitemap are what the checks need.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { parseCrawlCommand } from '../crawl/crawl-command.ts';
import { crawlAndLoad, type CrawledSite } from './helpers/crawl-and-load.ts';
import { debianPackages, ensureDebianPackages } from '../../scripts/support/debian-packages.ts';
import { crawledHtmlPages, describeAccuracyChecks } from './helpers/real-site-accuracy.ts';
import { RUST_DOC_ROOT, startNginx, type RunningSite } from '../../scripts/support/real-site.ts';

/** rust-doc's mdBook books and the rustdoc guide (their pages link to each other, and to the API pages left out). */
const BOOKS = ['book', 'unstable-book', 'reference', 'edition-guide', 'nomicon', 'embedded-book', 'rustc', 'rustdoc'];

let site: RunningSite;
let crawled: CrawledSite;
let pages: Map<string, string>;

describe('crawling the Rust documentation (rust-doc) served by nginx on 127.0.0.1', () => {
  beforeAll(async () => {
    ensureDebianPackages([debianPackages.nginx, debianPackages.rustDoc]);
    site = await startNginx({ root: RUST_DOC_ROOT });
    const { options } = parseCrawlCommand([
      ...[site.url, '--out', 'unused', '--website', 'rust-doc', '--crawl', '1'],
      '--skip-external',
      ...['--include', `^${site.url}(${BOOKS.join('|')})/`],
    ]);
    crawled = await crawlAndLoad(options);
    pages = await crawledHtmlPages(crawled, site);
  }, 600_000);

  afterAll(async () => {
    crawled?.dispose();
    await site?.stop();
  });

  describeAccuracyChecks(() => ({ crawled, site, pages }), {
    emptyDescriptions: 500,
    metaCanonicals: 3,
    byteIdenticalCopies: 0,
    nonIndexablePages: 5,
  });
});
