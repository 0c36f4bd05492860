/**
 * What one HTML page says, as the streaming parser (parse-html.ts) reads it: the interface between parsing and
 * the rest of the crawler. URLs are absolute (resolved against the page URL and any <base href>, as browsers
 * do) with the fragment dropped; the crawler normalises them further. Texts are whitespace-collapsed and trimmed.
 */
import { openGraphFields, schemaTypes } from '../../catalog/export-contract.ts';

export { openGraphFields, schemaTypes };
export type SchemaType = (typeof schemaTypes)[number];

export type OpenGraphField = (typeof openGraphFields)[number];

export interface ParsedLink {
  /** Absolute target. */
  url: string;
  /** Text of the link (for an image link without text: the image's alt, else ''). */
  anchorText: string;
  /** The rel attribute as written, or null. */
  rel: string | null;
  nofollow: boolean;
  hasImageLink: boolean;
  hasImageAltText: boolean;
  /** The hreflang attribute of an `<a hreflang>` (seen in real sites as body alternates), or null. */
  hreflang: string | null;
}

export interface HreflangLink {
  hreflang: string;
  url: string;
}

export interface ParsedImage {
  src: string;
  /** null when the attribute is absent; '' when present but empty. */
  alt: string | null;
}

export interface ParsedPage {
  /** The first `<title>`, or null when there is none or it is empty. */
  title: string | null;
  /** The first `<meta name=description>`, or null when there is none or it is empty. */
  description: string | null;
  h1: string[];
  h2: string[];
  h3: string[];
  /** Words of visible body text. */
  wordCount: number;
  /** UTF-8 bytes of visible body text. */
  contentSize: number;
  /** Exact hash of the visible body text (duplicate body sets). */
  bodyHash: string;
  metaNoindex: boolean;
  metaNofollow: boolean;
  /**
   * From the first `<link rel=canonical>` only (browsers and search engines ignore `<meta rel=canonical>`); an href
   * that is not an http(s) URL (`file:///…`) is kept as written.
   */
  canonicalUrl: string | null;
  /** Further `<link rel=canonical>` tags name other URLs than canonicalUrl (search engines then ignore them all). */
  hasConflictingCanonicals: boolean;
  /** Target of `<meta http-equiv=refresh content="N; url=…">`, quoted or not. */
  metaRefreshUrl: string | null;
  /** Target of a `location` / `location.href` / `location.replace(…)` / `location.assign(…)` in an inline script. */
  jsRedirectUrl: string | null;
  /** `<link rel=alternate hreflang>` in the head. */
  hreflang: HreflangLink[];
  schemaCounts: Record<SchemaType, number>;
  hasStructuredData: boolean;
  openGraph: Partial<Record<OpenGraphField, string>>;
  headTagsInBody: number;
  bodyTagsInHead: number;
  /** Every `<a href>` (and `<area href>`) in document order, one entry per instance. */
  links: ParsedLink[];
  images: ParsedImage[];
  /**
   * What the page loads besides its links and images (stylesheets, icons, feeds and other `<link href>` that are not
   * canonicals or hreflang alternates, `<script src>`, `<object data>`, `<embed src>`), as `wget -r` and link checkers fetch them.
   */
  resources: string[];
}

export const openGraphByProperty = new Map<string, OpenGraphField>(openGraphFields.map((f) => [`og:${f}`, f]));
