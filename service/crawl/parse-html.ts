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
import { schemaTypes, openGraphFields } from './parsed-page.ts';
import type { HreflangLink, OpenGraphField, ParsedImage, ParsedLink, ParsedPage, SchemaType } from './parsed-page.ts';

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
  return {
    write: (chunk) => parser.write(chunk),
    end: () => {
      parser.end();
      return collector.result();
    },
  };
}

/**
 * The page's charset from a byte-order mark or, within the first 1024 bytes, `<meta charset>` or
 * `<meta http-equiv=content-type content="...; charset=...">`; the WHATWG encoding name, or null when absent
 * or unknown.
 */
export function sniffCharset(bytes: Buffer): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  const head = bytes.toString('latin1', 0, Math.min(bytes.length, 1024));
  const match = metaCharsetPattern.exec(head);
  return match?.[1] === undefined ? null : encodingName(match[1]);
}

/** The WHATWG name of a charset label (`latin1` → `windows-1252`), or null when the label is unknown. */
export function encodingName(label: string): string | null {
  const key = label.trim().toLowerCase();
  let name = encodingNames.get(key);
  if (name === undefined) {
    try {
      name = new TextDecoder(key).encoding;
    } catch {
      return null;
    }
    encodingNames.set(key, name);
  }
  return name;
}

/** Known labels only (a few hundred exist), so pages cannot grow it. */
const encodingNames = new Map<string, string>();

/** Decodes a page's bytes: the given charset (from the Content-Type header) if known, else sniffed, else UTF-8. */
export function decodeHtml(bytes: Buffer, charset?: string | null): string {
  const encoding = (charset ? encodingName(charset) : null) ?? sniffCharset(bytes) ?? 'utf-8';
  if (encoding === 'utf-8') {
    const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    return bytes.toString('utf8', hasBom ? 3 : 0);
  }
  return new TextDecoder(encoding).decode(bytes);
}

const metaCharsetPattern = /<meta\s[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i;
const whitespace = /\s+/g;
/** Whitespace runs other than a lone space: on real text most separators are single spaces, left alone. */
const collapsibleWhitespace = /[^\S ]\s*| \s+/g;
const jsRedirectPattern =
  /(?:\b(?:window|document|self|top)\s*\.\s*)?\blocation\s*(?:\.\s*href\s*)?(?:=(?!=)|\.\s*(?:replace|assign)\s*\()\s*(["'`])((?:(?!\1)[^\\\r\n]|\\.)*)\1/;
const jsEscape = /\\(.)/g;

/** Elements whose text is never shown (title is shown in the tab, not the page). */
const hiddenTextElements = ['script', 'style', 'noscript', 'template', 'title', 'iframe', 'noembed', 'noframes'];

/** Phrasing elements that do not separate words. */
const inlineElements = [
  'a',
  'abbr',
  'acronym',
  'b',
  'bdi',
  'bdo',
  'big',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'ins',
  'kbd',
  'label',
  'mark',
  'nobr',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
  'wbr',
];

/** Start tags a browser keeps in the head ("in head" insertion mode); any other element ends the head. */
const headElements = [
  'html',
  'head',
  'base',
  'basefont',
  'bgsound',
  'link',
  'meta',
  'title',
  'noscript',
  'noframes',
  'style',
  'script',
  'template',
];

/** What the parser needs to know of a tag, as bits: one look-up per tag event. */
const INLINE = 1;
const HIDDEN_TEXT = 2;
const HEAD = 4;
const tagKinds = new Map<string, number>();
for (const [names, bit] of [
  [inlineElements, INLINE],
  [hiddenTextElements, HIDDEN_TEXT],
  [headElements, HEAD],
] as const) {
  for (const name of names) tagKinds.set(name, (tagKinds.get(name) ?? 0) | bit);
}

const javascriptTypes = new Set([
  '',
  'module',
  'text/javascript',
  'application/javascript',
  'text/ecmascript',
  'application/ecmascript',
  'application/x-javascript',
  'text/jscript',
]);

const schemaTypeByName = buildSchemaTypeMap({
  product: ['Product', 'ProductGroup', 'ProductModel', 'IndividualProduct', 'SomeProducts', 'Vehicle', 'Car'],
  review: ['Review', 'CriticReview', 'UserReview', 'EmployerReview', 'ClaimReview', 'Recommendation'],
  faq: ['FAQPage'],
  recipe: ['Recipe'],
  article: [
    'Article',
    'BlogPosting',
    'TechArticle',
    'ScholarlyArticle',
    'Report',
    'SocialMediaPosting',
    'LiveBlogPosting',
    'DiscussionForumPosting',
    'AdvertiserContentArticle',
    'SatiricalArticle',
  ],
  news_article: [
    'NewsArticle',
    'AnalysisNewsArticle',
    'AskPublicNewsArticle',
    'BackgroundNewsArticle',
    'OpinionNewsArticle',
    'ReportageNewsArticle',
    'ReviewNewsArticle',
  ],
  breadcrumb: ['BreadcrumbList'],
  event: [
    'Event',
    'BusinessEvent',
    'ChildrensEvent',
    'ComedyEvent',
    'CourseInstance',
    'DanceEvent',
    'DeliveryEvent',
    'EducationEvent',
    'EventSeries',
    'ExhibitionEvent',
    'Festival',
    'FoodEvent',
    'Hackathon',
    'LiteraryEvent',
    'MusicEvent',
    'PublicationEvent',
    'SaleEvent',
    'ScreeningEvent',
    'SocialEvent',
    'SportsEvent',
    'TheaterEvent',
    'VisualArtsEvent',
  ],
  how_to: ['HowTo'],
  job_posting: ['JobPosting'],
  local_business: [
    'LocalBusiness',
    'AnimalShelter',
    'AutomotiveBusiness',
    'AutoDealer',
    'AutoRepair',
    'ChildCare',
    'Dentist',
    'DryCleaningOrLaundry',
    'EmergencyService',
    'EmploymentAgency',
    'EntertainmentBusiness',
    'FinancialService',
    'AccountingService',
    'BankOrCreditUnion',
    'InsuranceAgency',
    'FoodEstablishment',
    'Bakery',
    'BarOrPub',
    'Brewery',
    'CafeOrCoffeeShop',
    'FastFoodRestaurant',
    'IceCreamShop',
    'Restaurant',
    'Winery',
    'GovernmentOffice',
    'HealthAndBeautyBusiness',
    'BeautySalon',
    'DaySpa',
    'HairSalon',
    'HealthClub',
    'NailSalon',
    'TattooParlor',
    'HomeAndConstructionBusiness',
    'Electrician',
    'GeneralContractor',
    'HVACBusiness',
    'HousePainter',
    'Locksmith',
    'MovingCompany',
    'Plumber',
    'RoofingContractor',
    'InternetCafe',
    'LegalService',
    'Attorney',
    'Notary',
    'Library',
    'LodgingBusiness',
    'BedAndBreakfast',
    'Campground',
    'Hostel',
    'Hotel',
    'Motel',
    'Resort',
    'MedicalBusiness',
    'MedicalClinic',
    'Optician',
    'Pharmacy',
    'Physician',
    'ProfessionalService',
    'RadioStation',
    'RealEstateAgent',
    'RecyclingCenter',
    'SelfStorage',
    'ShoppingCenter',
    'SportsActivityLocation',
    'ExerciseGym',
    'GolfCourse',
    'StadiumOrArena',
    'Store',
    'AutoPartsStore',
    'BikeStore',
    'BookStore',
    'ClothingStore',
    'ComputerStore',
    'ConvenienceStore',
    'DepartmentStore',
    'ElectronicsStore',
    'Florist',
    'FurnitureStore',
    'GardenStore',
    'GroceryStore',
    'HardwareStore',
    'HobbyShop',
    'HomeGoodsStore',
    'JewelryStore',
    'LiquorStore',
    'MensClothingStore',
    'MobilePhoneStore',
    'MovieRentalStore',
    'MusicStore',
    'OfficeEquipmentStore',
    'OutletStore',
    'PawnShop',
    'PetStore',
    'ShoeStore',
    'SportingGoodsStore',
    'TireShop',
    'ToyStore',
    'WholesaleStore',
    'TelevisionStation',
    'TouristInformationCenter',
    'TravelAgency',
  ],
  organization: [
    'Organization',
    'Airline',
    'Consortium',
    'Corporation',
    'EducationalOrganization',
    'CollegeOrUniversity',
    'HighSchool',
    'School',
    'FundingScheme',
    'GovernmentOrganization',
    'LibrarySystem',
    'MedicalOrganization',
    'NewsMediaOrganization',
    'NGO',
    'OnlineBusiness',
    'OnlineStore',
    'PerformingGroup',
    'PoliticalParty',
    'Project',
    'ResearchOrganization',
    'SportsOrganization',
    'SportsTeam',
    'WorkersUnion',
  ],
  video_object: ['VideoObject'],
});

function buildSchemaTypeMap(names: Record<SchemaType, string[]>): Map<string, SchemaType> {
  const map = new Map<string, SchemaType>();
  for (const type of schemaTypes) for (const name of names[type]) map.set(name.toLowerCase(), type);
  return map;
}

const openGraphByProperty = new Map<string, OpenGraphField>(openGraphFields.map((f) => [`og:${f}`, f]));

function collapse(text: string): string {
  return text.replace(collapsibleWhitespace, ' ').trim();
}

function hasToken(list: string | undefined, token: string): boolean {
  if (list === undefined) return false;
  const lower = list.toLowerCase();
  if (!lower.includes(token)) return false;
  return lower.split(whitespace).includes(token);
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

interface RawImage {
  src: string;
  alt: string | null;
}

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
  private readonly schemaCounts = Object.fromEntries(schemaTypes.map((t) => [t, 0])) as Record<SchemaType, number>;
  private hasStructuredData = false;
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
    if (attribs.itemtype !== undefined && attribs.itemprop === undefined) this.countMicrodata(attribs.itemtype);

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
    if (script.kind === 'json-ld') this.countJsonLd(script.text);
    else if (script.text.includes('location')) {
      const match = jsRedirectPattern.exec(script.text);
      if (match?.[2] !== undefined && !(match[1] === '`' && match[2].includes('${'))) {
        this.jsRedirect = match[2].replace(jsEscape, '$1');
      }
    }
  }

  private countJsonLd(text: string): void {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return;
    }
    for (const item of jsonLdItems(data)) {
      const type = item['@type'];
      const names = typeof type === 'string' ? [type] : Array.isArray(type) ? type : [];
      this.countTypes(names.filter((n): n is string => typeof n === 'string'));
    }
  }

  private countMicrodata(itemtype: string): void {
    this.countTypes(itemtype.trim().split(whitespace));
  }

  /** One item counts once per schema type, however many of its names map to it. */
  private countTypes(names: string[]): void {
    const seen = new Set<SchemaType>();
    for (const name of names) {
      if (name === '') continue;
      this.hasStructuredData = true;
      const type = schemaTypeByName.get(typeName(name));
      if (type !== undefined && !seen.has(type)) {
        seen.add(type);
        this.schemaCounts[type]++;
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
      schemaCounts: this.schemaCounts,
      hasStructuredData: this.hasStructuredData,
      openGraph: this.openGraph,
      headTagsInBody: this.headTagsInBody,
      bodyTagsInHead: this.bodyTagsInHead,
      links,
      images,
    };
  }
}

/** preconnect and dns-prefetch name an origin to warm up, not a file the page loads. */
function isResourceHint(rel: string | undefined): boolean {
  return hasToken(rel, 'preconnect') || hasToken(rel, 'dns-prefetch');
}

function isHeadOnlyTag(name: string, attribs: Record<string, string>): boolean {
  switch (name) {
    case 'title':
    case 'base':
      return true;
    case 'meta':
      return attribs.itemprop === undefined;
    case 'link':
      return hasToken(attribs.rel, 'canonical') || hasToken(attribs.rel, 'alternate');
    default:
      return false;
  }
}

/** Top-level JSON-LD items: the value itself, the members of an array, and the members of an @graph. */
function* jsonLdItems(data: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(data)) {
    for (const item of data) yield* jsonLdItems(item);
  } else if (typeof data === 'object' && data !== null) {
    const item = data as Record<string, unknown>;
    yield item;
    if (item['@graph'] !== undefined) yield* jsonLdItems(item['@graph']);
  }
}

/** `https://schema.org/Product`, `schema:Product` and `Product` all name Product. */
function typeName(name: string): string {
  const cut = Math.max(name.lastIndexOf('/'), name.lastIndexOf('#'), name.lastIndexOf(':'));
  return name.slice(cut + 1).toLowerCase();
}

/** The URL of a refresh's content (`5; url='...'`), parsed as the HTML standard does; null when it only reloads. */
export function refreshTarget(content: string): string | null {
  const match = /^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?/i.exec(content);
  let rest = content.slice(match?.[0].length ?? 0);
  if (rest === '') return null;
  const quote = rest[0];
  if (quote === '"' || quote === "'") {
    const end = rest.indexOf(quote, 1);
    rest = rest.slice(1, end === -1 ? undefined : end);
  }
  rest = rest.trim();
  return rest === '' ? null : rest;
}

function countWords(collapsed: string): number {
  if (collapsed === '') return 0;
  let words = 1;
  for (let i = collapsed.indexOf(' '); i !== -1; i = collapsed.indexOf(' ', i + 1)) words++;
  return words;
}

/** Resolves hrefs as a browser does, keeping http(s) targets without their fragment; repeats are looked up. */
class UrlResolver {
  /** A string: the URL constructor would turn a URL object base back into one on every call. */
  private readonly base: string | null;
  private readonly cache = new Map<string, string | null>();

  constructor(pageUrl: string, baseHref: string | null) {
    const page = parseUrl(pageUrl)?.href;
    this.base = (baseHref === null || page === undefined ? null : parseUrl(baseHref, page)?.href) ?? page ?? null;
  }

  resolve(href: string): string | null {
    let url = this.cache.get(href);
    if (url === undefined) {
      url = this.compute(href);
      this.cache.set(href, url);
    }
    return url;
  }

  private compute(href: string): string | null {
    if (this.base === null) return null;
    const url = parseUrl(href, this.base);
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
    const full = url.href;
    const hashAt = full.indexOf('#');
    return hashAt === -1 ? full : full.slice(0, hashAt);
  }
}

function parseUrl(href: string, base?: string): URL | null {
  try {
    return new URL(href, base);
  } catch {
    return null;
  }
}
