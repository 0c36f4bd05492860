/**
 * Structured data of a page, counted as items (not nested values): top-level JSON-LD objects and @graph members,
 * and microdata items that are not themselves a property, each counted under the contract's schema types that its
 * type names map to (schema-type-names.ts).
 */
import { whitespace } from './html-elements.ts';
import { schemaTypes, type SchemaType } from './parsed-page.ts';
import { schemaTypeByName } from './schema-type-names.ts';

export class StructuredData {
  readonly counts = Object.fromEntries(schemaTypes.map((t) => [t, 0])) as Record<SchemaType, number>;
  hasAny = false;

  /** The text of one `<script type="application/ld+json">`; text that is not JSON counts nothing. */
  countJsonLd(text: string): void {
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

  /** The itemtype of an element that starts a microdata item. */
  countMicrodata(itemtype: string): void {
    this.countTypes(itemtype.trim().split(whitespace));
  }

  /** One item counts once per schema type, however many of its names map to it. */
  private countTypes(names: string[]): void {
    const seen = new Set<SchemaType>();
    for (const name of names) {
      if (name === '') continue;
      this.hasAny = true;
      const type = schemaTypeByName.get(typeName(name));
      if (type !== undefined && !seen.has(type)) {
        seen.add(type);
        this.counts[type]++;
      }
    }
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
