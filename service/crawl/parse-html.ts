/**
 * The crawler's HTML parser: one pass of htmlparser2's streaming tokenizer over a page, no DOM, producing the
 * ParsedPage that the crawler turns into rows.
 *
 * Definitions this file fixes (the contract's columns are computed from them):
 * - Whitespace is JavaScript's `\s` (ASCII whitespace plus Unicode spaces such as U+00A0, so `&nbsp;` separates
 *   words); texts are collapsed to single spaces and trimmed, after entity decoding.
 * - Visible body text: every text node outside the head and outside script, style, noscript, template, title,
 *   iframe, noembed and noframes. Elements other than inline phrasing ones (a, b, span, em, code...) separate
 *   words, as they do on screen. A word is a run of non-whitespace characters; content size is the UTF-8 byte
 *   length of the collapsed text; the body hash is the SHA-1 of it.
 * - Meta robots: `<meta name=robots>` and `<meta name=googlebot>`; `none` means noindex and nofollow.
 * - Title and meta description: the first of each; an empty (or whitespace only) one counts as missing (null).
 * - Canonical: the first `<link rel=canonical>`; `<meta rel=canonical>`, which browsers and search engines ignore,
 *   is not one.
 * - Structured data counts items, not nested values: top-level JSON-LD objects (and @graph members) and
 *   microdata items that are not themselves a property (itemtype without itemprop).
 * - Links and images keep only http(s) targets; `href="#..."` (same-document) links are not links.
 *   `<base href>` applies to the whole document, as in browsers, wherever it appears.
 * - Head tags in body: title, base, link rel=canonical/alternate and meta (except microdata `<meta itemprop>`)
 *   after the body started. Body tags in head: any element that ends the head in a browser's parser, inside an
 *   explicit `<head>` (not counting the content of its noscript or template, which scripting browsers ignore).
 */
import { hash } from 'node:crypto';
import { Parser } from 'htmlparser2';
import { decodeHtml } from './charset.ts';
import {
  HEAD,
  HIDDEN_TEXT,
  INLINE,
  hasToken,
  isHeadOnlyTag,
  isResourceHint,
  javascriptTypes,
  tagKinds,
} from './html-elements.ts';
import { collapse, countWords, jsEscape, jsRedirectPattern, refreshTarget } from './html-text.ts';
import { openGraphByProperty } from './parsed-page.ts';
import type { HreflangLink, OpenGraphField, ParsedImage, ParsedLink, ParsedPage } from './parsed-page.ts';
import { StructuredData } from './structured-data.ts';
import { UrlResolver } from './url-resolver.ts';
import { useInnermostLastStack } from './open-elements.ts';

export interface HtmlParser {
  write(chunk: string): void;
  end(): ParsedPage;
}

/** Parses a whole page; bytes are decoded with `decodeHtml` (meta charset, else UTF-8). */
export function parseHtml(html: string | Buffer, pageUrl: string): ParsedPage {
  const parser = createHtmlParser(pageUrl);
  parser.write(typeof html === 'string' ? html : decodeHtml(html));
  return parser.end();
}

/** A streaming parser for one page: write decoded text chunks as they arrive, then end() for the result. */
export function createHtmlParser(pageUrl: string): HtmlParser {
  const collector = new PageCollector(pageUrl);
  const parser = new Parser(collector, { decodeEntities: true });
  useInnermostLastStack(parser);
  return {
    write: (chunk) => parser.write(chunk),
    end: () => {
      parser.end();
      return collector.result();
    },
  };
}

/** A link being read: its text is complete at `</a>` or when the next `<a>` opens. */
interface OpenLink {
  index: number;
  text: string;
  alts: string;
}

interface RawLink extends Omit<ParsedLink, 'url'> {
  href: string;
}

type RawImage = { src: string; alt: string | null };

class PageCollector {
  private readonly pageUrl: string;
  private baseHref: string | null = null;

  private title: string | null = null;
  private titleText: string | null = null;
  private description: string | null = null;
  private readonly headings: Record<'h1' | 'h2' | 'h3', string[]> = { h1: [], h2: [], h3: [] };
  private heading: { level: 'h1' | 'h2' | 'h3'; text: string } | null = null;
  /** Visible text chunks, with ' ' between those an element boundary separates. */
  private readonly bodyText: string[] = [];
  private metaNoindex = false;
  private metaNofollow = false;
  private linkCanonical: string | null = null;
  private readonly otherLinkCanonicals: string[] = [];
  private readonly resources: string[] = [];
  private metaRefresh: string | null = null;
  private jsRedirect: string | null = null;
  private readonly hreflang: { hreflang: string; href: string }[] = [];
  private readonly structuredData = new StructuredData();
  private readonly openGraph: Partial<Record<OpenGraphField, string>> = {};
  private headTagsInBody = 0;
  private bodyTagsInHead = 0;
  private readonly links: RawLink[] = [];
  private link: OpenLink | null = null;
  private readonly images: RawImage[] = [];

  /** Inside an explicit `<head>` that has not been closed. */
  private inHead = false;
  private bodyStarted = false;
  /** Depth inside elements whose text is hidden. */
  private hiddenDepth = 0;
  /** Depth inside svg/math (their title and meta are not the page's). */
  private foreignDepth = 0;
  /** Depth inside noscript/template within the head (ignored by the head/body checks). */
  private inertHeadDepth = 0;
  /** The text of the script being read, when it matters (JSON-LD or inline JavaScript). */
  private script: { kind: 'json-ld' | 'javascript'; text: string } | null = null;

  constructor(pageUrl: string) {
    this.pageUrl = pageUrl;
  }

  onopentag(name: string, attribs: Record<string, string>): void {
    const kind = tagKinds.get(name) ?? 0;
    if (name === 'svg' || name === 'math') this.foreignDepth++;
    if (this.foreignDepth === 0) this.checkPlacement(name, kind, attribs);
    if ((kind & INLINE) === 0) this.separateWords();
    if ((kind & HIDDEN_TEXT) !== 0) this.hiddenDepth++;
    if (attribs.itemtype !== undefined && attribs.itemprop === undefined)
      this.structuredData.countMicrodata(attribs.itemtype);

    switch (name) {
      case 'a':
      case 'area':
        this.openLink(name, attribs);
        break;
      case 'img':
        this.openImage(attribs);
        break;
      case 'h1':
      case 'h2':
      case 'h3':
        this.closeHeading();
        this.heading = { level: name, text: '' };
        break;
      case 'h4':
      case 'h5':
      case 'h6':
        this.closeHeading();
        break;
      case 'title':
        if (this.foreignDepth === 0 && this.title === null && this.titleText === null) this.titleText = '';
        break;
      case 'meta':
        if (this.foreignDepth === 0) this.readMeta(attribs);
        break;
      case 'link':
        this.readLinkElement(attribs);
        break;
      case 'base':
        if (this.baseHref === null && attribs.href !== undefined) this.baseHref = attribs.href;
        break;
      case 'script':
        this.openScript(attribs);
        break;
      case 'object':
        if (attribs.data?.trim()) this.resources.push(attribs.data);
        break;
      case 'embed':
        if (attribs.src?.trim()) this.resources.push(attribs.src);
        break;
    }
  }

  onclosetag(name: string): void {
    const kind = tagKinds.get(name) ?? 0;
    if ((kind & INLINE) === 0) this.separateWords();
    if ((kind & HIDDEN_TEXT) !== 0 && this.hiddenDepth > 0) this.hiddenDepth--;
    if (name === 'svg' || name === 'math') this.foreignDepth = Math.max(0, this.foreignDepth - 1);
    if ((name === 'noscript' || name === 'template') && this.inertHeadDepth > 0) this.inertHeadDepth--;

    switch (name) {
      case 'head':
        this.inHead = false;
        break;
      case 'a':
        this.closeLink();
        break;
      case 'h1':
      case 'h2':
      case 'h3':
        this.closeHeading();
        break;
      case 'title':
        if (this.titleText !== null && this.title === null) this.title = collapse(this.titleText);
        this.titleText = null;
        break;
      case 'script':
        this.closeScript();
        break;
    }
  }

  ontext(text: string): void {
    if (this.script !== null) {
      this.script.text += text;
      return;
    }
    if (this.titleText !== null) {
      this.titleText += text;
      return;
    }
    if (this.hiddenDepth > 0) return;
    if (this.bodyStarted || !this.inHead) this.bodyText.push(text);
    if (this.heading !== null) this.heading.text += text;
    if (this.link !== null) this.link.text += text;
  }

  /** Tracks where the head ends and body starts, and counts tags on the wrong side. */
  private checkPlacement(name: string, kind: number, attribs: Record<string, string>): void {
    if (name === 'head') {
      if (!this.bodyStarted) this.inHead = true;
      return;
    }
    if (name === 'body') {
      this.inHead = false;
      this.bodyStarted = true;
      return;
    }
    if (this.inHead) {
      if (name === 'noscript' || name === 'template') this.inertHeadDepth++;
      else if (this.inertHeadDepth === 0 && (kind & HEAD) === 0) {
        this.bodyTagsInHead++;
        this.bodyStarted = true;
      }
      return;
    }
    if (!this.bodyStarted) {
      if ((kind & HEAD) === 0) this.bodyStarted = true;
      return;
    }
    if (isHeadOnlyTag(name, attribs)) this.headTagsInBody++;
  }

  private separateWords(): void {
    if (this.hiddenDepth > 0) return;
    if ((this.bodyStarted || !this.inHead) && this.bodyText[this.bodyText.length - 1] !== ' ') this.bodyText.push(' ');
    if (this.heading !== null) this.heading.text += ' ';
    if (this.link !== null) this.link.text += ' ';
  }

  private readMeta(attribs: Record<string, string>): void {
    const name = attribs.name?.toLowerCase();
    const content = attribs.content ?? '';
    if (name === 'description') {
      this.description ??= collapse(content);
    } else if (name === 'robots' || name === 'googlebot') {
      for (const directive of content.toLowerCase().split(/[\s,]+/)) {
        if (directive === 'noindex' || directive === 'none') this.metaNoindex = true;
        if (directive === 'nofollow' || directive === 'none') this.metaNofollow = true;
      }
    }
    const property = (attribs.property ?? name)?.toLowerCase();
    const field = property === undefined ? undefined : openGraphByProperty.get(property);
    if (field !== undefined && this.openGraph[field] === undefined) this.openGraph[field] = collapse(content);
    if (attribs['http-equiv']?.toLowerCase() === 'refresh' && this.metaRefresh === null) {
      this.metaRefresh = refreshTarget(content);
    }
  }

  private readLinkElement(attribs: Record<string, string>): void {
    const href = attribs.href;
    if (!href) return;
    const isCanonical = hasToken(attribs.rel, 'canonical');
    if (isCanonical) {
      if (this.linkCanonical === null) this.linkCanonical = href;
      else this.otherLinkCanonicals.push(href);
    }
    const isHreflang = attribs.hreflang !== undefined && hasToken(attribs.rel, 'alternate');
    if (!this.bodyStarted && isHreflang) this.hreflang.push({ hreflang: attribs.hreflang!.trim(), href });
    if (!isHreflang && !isCanonical && !isResourceHint(attribs.rel)) this.resources.push(href);
  }

  private openLink(name: string, attribs: Record<string, string>): void {
    if (name === 'a') this.closeLink();
    const href = attribs.href;
    if (href === undefined || href.trimStart().startsWith('#')) return;
    const rel = attribs.rel ?? null;
    this.links.push({
      href,
      anchorText: '',
      rel,
      nofollow: hasToken(rel ?? undefined, 'nofollow'),
      hasImageLink: false,
      hasImageAltText: false,
      hreflang: attribs.hreflang ?? null,
    });
    if (name === 'area') {
      const raw = this.links[this.links.length - 1];
      if (raw !== undefined) raw.anchorText = collapse(attribs.alt ?? '');
      return;
    }
    this.link = { index: this.links.length - 1, text: '', alts: '' };
  }

  private closeLink(): void {
    const open = this.link;
    if (open === null) return;
    this.link = null;
    const raw = this.links[open.index];
    if (raw === undefined) return;
    const text = collapse(open.text);
    raw.anchorText = text === '' ? collapse(open.alts) : text;
  }

  private openImage(attribs: Record<string, string>): void {
    const alt = attribs.alt === undefined ? null : collapse(attribs.alt);
    if (this.link !== null) {
      const raw = this.links[this.link.index];
      if (raw !== undefined) {
        raw.hasImageLink = true;
        if (alt) {
          raw.hasImageAltText = true;
          this.link.alts += ` ${alt}`;
        }
      }
    }
    if (attribs.src?.trim()) this.images.push({ src: attribs.src, alt });
  }

  private closeHeading(): void {
    if (this.heading === null) return;
    this.headings[this.heading.level].push(collapse(this.heading.text));
    this.heading = null;
  }

  private openScript(attribs: Record<string, string>): void {
    if (attribs.src?.trim()) this.resources.push(attribs.src);
    const type = (attribs.type ?? '').trim().toLowerCase();
    if (type === 'application/ld+json') this.script = { kind: 'json-ld', text: '' };
    else if (attribs.src === undefined && this.jsRedirect === null && javascriptTypes.has(type)) {
      this.script = { kind: 'javascript', text: '' };
    }
  }

  private closeScript(): void {
    const script = this.script;
    if (script === null) return;
    this.script = null;
    if (script.kind === 'json-ld') this.structuredData.countJsonLd(script.text);
    else if (script.text.includes('location')) {
      const match = jsRedirectPattern.exec(script.text);
      if (match?.[2] !== undefined && !(match[1] === '`' && match[2].includes('${'))) {
        this.jsRedirect = match[2].replace(jsEscape, '$1');
      }
    }
  }

  result(): ParsedPage {
    this.closeLink();
    this.closeHeading();
    if (this.titleText !== null && this.title === null) this.title = collapse(this.titleText);
    const resolver = new UrlResolver(this.pageUrl, this.baseHref);
    const visibleText = collapse(this.bodyText.join(''));
    const visibleBytes = Buffer.from(visibleText);
    const canonical = this.linkCanonical;
    const links: ParsedLink[] = [];
    for (const raw of this.links) {
      const url = resolver.resolve(raw.href);
      if (url === null) continue;
      links.push({
        url,
        anchorText: raw.anchorText,
        rel: raw.rel,
        nofollow: raw.nofollow,
        hasImageLink: raw.hasImageLink,
        hasImageAltText: raw.hasImageAltText,
        hreflang: raw.hreflang,
      });
    }
    const images: ParsedImage[] = [];
    for (const raw of this.images) {
      const src = resolver.resolve(raw.src);
      if (src !== null) images.push({ src, alt: raw.alt });
    }
    const hreflang: HreflangLink[] = [];
    for (const raw of this.hreflang) {
      const url = resolver.resolve(raw.href);
      if (url !== null) hreflang.push({ hreflang: raw.hreflang, url });
    }
    return {
      title: this.title || null,
      description: this.description || null,
      h1: this.headings.h1,
      h2: this.headings.h2,
      h3: this.headings.h3,
      wordCount: countWords(visibleText),
      contentSize: visibleBytes.length,
      bodyHash: hash('sha1', visibleBytes),
      metaNoindex: this.metaNoindex,
      metaNofollow: this.metaNofollow,
      // A canonical naming another scheme (file:///…) is kept as written: the page has one, and it is invalid.
      canonicalUrl: canonical === null ? null : (resolver.resolve(canonical) ?? canonical.trim()),
      resources: this.resources.flatMap((href) => resolver.resolve(href) ?? []),
      hasConflictingCanonicals: this.otherLinkCanonicals.some(
        (href) => resolver.resolve(href) !== resolver.resolve(this.linkCanonical ?? ''),
      ),
      metaRefreshUrl: this.metaRefresh === null ? null : resolver.resolve(this.metaRefresh),
      jsRedirectUrl: this.jsRedirect === null ? null : resolver.resolve(this.jsRedirect),
      hreflang,
      schemaCounts: this.structuredData.counts,
      hasStructuredData: this.structuredData.hasAny,
      openGraph: this.openGraph,
      headTagsInBody: this.headTagsInBody,
      bodyTagsInHead: this.bodyTagsInHead,
      links,
      images,
    };
  }
}
