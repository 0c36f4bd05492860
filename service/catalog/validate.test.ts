import { describe, expect, it } from 'vitest';
import { catalog } from '../../catalog/index.ts';
import type { CatalogColumn, Category, ReportDefinition } from '../../catalog/schema.ts';
import { expandFilter, parseFilter } from './filter.ts';
import { CatalogError, columnTypeOf, validateCatalog } from './validate.ts';

interface Draft {
  categories: Category[];
  reports: ReportDefinition[];
  columns: CatalogColumn[];
  constants: { filterConstants: Record<string, unknown> };
}

const clone = (): Draft => ({
  categories: structuredClone([...catalog.categories]),
  reports: structuredClone([...catalog.reports]),
  columns: structuredClone([...catalog.columns]),
  constants: { filterConstants: structuredClone({ ...catalog.constants.filterConstants }) },
});

const indexOf = (items: readonly { id: string }[], id: string): number => {
  const index = items.findIndex((item) => item.id === id);
  if (index < 0) throw new Error(`no ${id}`);
  return index;
};

/** The entry of `items` with that id; throws when it is missing, so tests fail loudly. */
const entry = <T extends { id: string }>(items: T[], id: string): T => items[indexOf(items, id)] as T;

/** Validates a mutated clone and returns the problems reported. */
function problemsOf(mutate: (draft: Draft) => void): readonly string[] {
  const draft = clone();
  mutate(draft);
  try {
    validateCatalog(draft);
  } catch (error) {
    if (error instanceof CatalogError) return error.issues;
    throw error;
  }
  return [];
}

const at = (id: string): string => `reports[${indexOf(catalog.reports, id)}] (${id})`;
const col = (id: string): string => `columns[${indexOf(catalog.columns, id)}] (${id})`;

describe('validateCatalog', () => {
  it('accepts the real catalogue', () => {
    expect(() => validateCatalog(catalog)).not.toThrow();
  });

  it('does not modify its input', () => {
    const draft = clone();
    const before = JSON.stringify(draft);
    entry(draft.reports, 'content/thin').severity = 'URGENT' as never;
    const broken = JSON.stringify(draft);
    expect(() => validateCatalog(draft)).toThrow(CatalogError);
    expect(JSON.stringify(draft)).toBe(broken);
    expect(before).not.toBe(broken);
  });

  it('throws one CatalogError listing every problem, each on its own line', () => {
    const draft = clone();
    entry(draft.reports, 'content/thin').filter = 'nope > 1';
    entry(draft.reports, 'content/empty').datatableColumns.push('nada');
    let error: unknown;
    try {
      validateCatalog(draft);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CatalogError);
    const { issues, message } = error as CatalogError;
    expect(issues).toHaveLength(2);
    for (const issue of issues) expect(message).toContain(issue);
  });

  describe('layer 1: schemas', () => {
    it('locates a bad enum value', () => {
      const issues = problemsOf((d) => {
        entry(d.reports, 'links/internal-broken').severity = 'URGENT' as never;
      });
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatch(new RegExp(`^${escape(at('links/internal-broken'))}\\.severity: `));
    });

    it('rejects unknown keys, such as a misspelt flag', () => {
      const issues = problemsOf((d) => {
        Object.assign(entry(d.reports, 'content/thin'), { includeTrend: false });
      });
      expect(issues).toEqual([expect.stringMatching(new RegExp(`^${escape(at('content/thin'))}: .*includeTrend`))]);
    });

    it('locates a bad nested value of a column', () => {
      const issues = problemsOf((d) => {
        entry(d.columns, 'deeprank').format = 'sparkle' as never;
      });
      expect(issues[0]).toMatch(new RegExp(`^${escape(col('deeprank'))}\\.format: `));
    });

    it('locates a bad list element', () => {
      const issues = problemsOf((d) => {
        (entry(d.columns, 'url').tables as string[]).push('pages');
      });
      expect(issues[0]).toMatch(new RegExp(`^${escape(col('url'))}\\.tables\\[3\\]: `));
    });

    it('locates a bad category', () => {
      const issues = problemsOf((d) => {
        entry(d.categories, 'meta').label = '';
      });
      expect(issues[0]).toMatch(/^categories\[9\] \(meta\)\.label: /);
    });

    it('rejects a filter constant that is not a number or a list of numbers', () => {
      const issues = problemsOf((d) => {
        d.constants.filterConstants.CLS_MAX = '0.25';
      });
      expect(issues).toEqual([
        'constants.filterConstants.CLS_MAX: must be a finite number or a non-empty list of finite numbers',
      ]);
    });
  });

  describe('layer 2: references', () => {
    it.each([
      ['reports', 'content/empty'],
      ['columns', 'page_title'],
      ['categories', 'meta'],
    ] as const)('rejects a duplicate id in %s', (section, id) => {
      const issues = problemsOf((d) => {
        const items = d[section] as { id: string }[];
        items.push(structuredClone(entry(items, id)));
      });
      expect(issues).toContain(
        `${section}[${catalog[section].length}] (${id}).id: duplicate id, first used at ${section}[${indexOf(catalog[section], id)}]`,
      );
    });

    it('rejects a report whose id prefix is not its category', () => {
      const issues = problemsOf((d) => {
        entry(d.reports, 'content/thin').category = 'meta';
      });
      expect(issues).toEqual([`${at('content/thin')}.category: "meta" does not match the id's prefix "content"`]);
    });

    it('rejects a report in a hidden category', () => {
      const issues = problemsOf((d) => {
        const report = entry(d.reports, 'content/thin');
        report.id = 'images/thin';
        report.category = 'images';
      });
      expect(issues).toEqual([
        `reports[${indexOf(catalog.reports, 'content/thin')}] (images/thin).category: category "images" is hidden and lists no reports`,
      ]);
    });

    it('rejects a datatable column missing from the catalogue', () => {
      const issues = problemsOf((d) => {
        entry(d.reports, 'links/internal-broken').datatableColumns[3] = 'foo';
      });
      expect(issues).toEqual([
        `${at('links/internal-broken')}.datatableColumns[3]: column "foo" is not in table links (no catalogue column has that id)`,
      ]);
    });

    it("rejects a catalogue column that is not in the report's table", () => {
      const issues = problemsOf((d) => {
        entry(d.reports, 'links/internal-broken').datatableColumns[3] = 'page_title';
      });
      expect(issues).toEqual([
        `${at('links/internal-broken')}.datatableColumns[3]: column "page_title" is not in table links`,
      ]);
    });

    it('rejects a column listed twice', () => {
      const issues = problemsOf((d) => {
        entry(d.reports, 'content/thin').datatableColumns.push('url');
      });
      expect(issues).toEqual([`${at('content/thin')}.datatableColumns[8]: column "url" is listed twice`]);
    });

    it('rejects a joined metric as a key column', () => {
      const issues = problemsOf((d) => {
        entry(d.reports, 'content/thin').keyColumns.push('gsc_clicks');
      });
      expect(issues).toEqual([
        `${at('content/thin')}.keyColumns[1]: key column "gsc_clicks" must be a column of table urls, not joined`,
      ]);
    });

    it('rejects key columns that do not cover the table key', () => {
      const issues = problemsOf((d) => {
        const report = entry(d.reports, 'links/internal-broken');
        report.keyColumns = ['url_to'];
        report.subKeyColumns = [];
      });
      expect(issues).toEqual([
        `${at('links/internal-broken')}.keyColumns: must include the table key (url_to, url_from) so rows are unique; missing url_from`,
      ]);
    });

    it('rejects a sub-key that is not a key column', () => {
      const issues = problemsOf((d) => {
        entry(d.reports, 'links/internal-broken').subKeyColumns = ['anchor_text'];
      });
      expect(issues).toEqual([
        `${at('links/internal-broken')}.subKeyColumns[0]: "anchor_text" is not one of the keyColumns`,
      ]);
    });

    it('requires NONE reports to turn trends off', () => {
      const issues = problemsOf((d) => {
        entry(d.reports, 'crawl/all').includeTrends = true;
      });
      expect(issues).toEqual([
        `${at('crawl/all')}.includeTrends: a NONE report has no issues over time, so it must be false`,
      ]);
    });

    it('rejects internalType internal on a table without an internal column', () => {
      const issues = problemsOf((d) => {
        entry(d.reports, 'links/internal-disallowed').internalType = 'internal';
      });
      expect(issues).toEqual([
        `${at('links/internal-disallowed')}.internalType: "internal" needs an internal column, which table uncrawled_urls lacks; use "all"`,
      ]);
    });

    it('rejects a content type that does not suit the table', () => {
      const issues = problemsOf((d) => {
        entry(d.reports, 'content/thin').contentType = 'link';
      });
      expect(issues).toEqual([
        `${at('content/thin')}.contentType: "link" does not suit table urls (link tables use "link", others do not)`,
      ]);
    });

    it('rejects a sub-row that needs another table', () => {
      const issues = problemsOf((d) => {
        entry(d.reports, 'content/thin').subRow = 'link-sources';
      });
      expect(issues).toEqual([`${at('content/thin')}.subRow: "link-sources" needs table unique_links, not urls`]);
    });
  });

  describe('layer 2: filters', () => {
    const withFilter = (id: string, filter: string): readonly string[] =>
      problemsOf((d) => {
        entry(d.reports, id).filter = filter;
      });

    it('rejects an identifier that is neither a table column nor a joined metric', () => {
      expect(withFilter('content/thin', 'indexable AND content_sise < {THIN_CONTENT}')).toEqual([
        `${at('content/thin')}.filter: identifier "content_sise" is not a column of table urls or a joined metric`,
      ]);
    });

    it('rejects a column of another table', () => {
      expect(withFilter('links/internal-broken', 'internal AND http_status_code >= 400')).toEqual([
        `${at('links/internal-broken')}.filter: identifier "http_status_code" is not a column of table links or a joined metric`,
      ]);
    });

    it('accepts joined metrics but not AI or checklist columns', () => {
      expect(withFilter('links/internal-broken', 'internal AND ga_sessions > 0 AND gsc_clicks > 0')).toEqual([]);
      expect(withFilter('content/thin', 'ai_title IS NULL AND NOT checked')).toEqual([
        `${at('content/thin')}.filter: identifier "ai_title" is not a column of table urls or a joined metric`,
        `${at('content/thin')}.filter: identifier "checked" is not a column of table urls or a joined metric`,
      ]);
    });

    it('rejects a placeholder missing from filterConstants', () => {
      expect(withFilter('content/thin', 'indexable AND content_size < {THIN_CONTENTS}')).toEqual([
        `${at('content/thin')}.filter: placeholder {THIN_CONTENTS} is not in filterConstants`,
      ]);
    });

    it('rejects a function outside the allow-list', () => {
      expect(withFilter('content/thin', 'indexable AND read_csv(url) IS NULL')).toEqual([
        `${at('content/thin')}.filter: function "read_csv" is not allowed in filters`,
      ]);
    });

    it('rejects an unknown struct field', () => {
      expect(
        withFilter('redirects/js-meta', 'len(list_filter(redirect_chain, lambda x: x.is_flash_redirect)) > 0'),
      ).toEqual([
        `${at('redirects/js-meta')}.filter: field "is_flash_redirect" is not a struct field of any column of table urls`,
      ]);
    });

    it('rejects a second statement, a comment and a stray brace', () => {
      expect(withFilter('content/thin', 'TRUE; DROP TABLE urls')).toContain(
        `${at('content/thin')}.filter: a filter is one expression: no ";" and no comments`,
      );
      expect(withFilter('content/thin', 'TRUE -- all')).toContain(
        `${at('content/thin')}.filter: a filter is one expression: no ";" and no comments`,
      );
      expect(withFilter('content/thin', 'content_size < {THIN_CONTENT')).toContain(
        `${at('content/thin')}.filter: a "{" or "}" that is not part of a {NAME} placeholder`,
      );
    });

    it('ignores words inside string literals', () => {
      expect(withFilter('links/internal-disallowed', "restricted_reason = 'no such column; -- {X}'")).toEqual([]);
    });

    it('keeps hreflang conditions in the hreflang category', () => {
      expect(withFilter('meta/max-titles', 'indexable AND hreflang_links_out_count = 0')).toEqual([
        `${at('meta/max-titles')}.filter: uses hreflang column "hreflang_links_out_count", so the report belongs in a hreflang-only category, not "meta"`,
      ]);
    });
  });

  describe('layer 2: columns', () => {
    it('rejects a table that lacks the column when the column is not joined', () => {
      const issues = problemsOf((d) => {
        entry(d.columns, 'page_title').tables.push('links');
      });
      expect(issues).toEqual([
        `${col('page_title')}.tables[1]: "page_title" is not a column of table links, and it is not joined`,
      ]);
    });

    it('rejects a type that contradicts the export contract', () => {
      const issues = problemsOf((d) => {
        entry(d.columns, 'http_status_code').type = 'string';
      });
      expect(issues).toEqual([
        `${col('http_status_code')}.type: "string" does not match urls.http_status_code INTEGER`,
        `${col('http_status_code')}.type: "string" does not match sitemaps.http_status_code INTEGER`,
      ]);
    });

    it('rejects a source that is not in the export contract', () => {
      const issues = problemsOf((d) => {
        entry(d.columns, 'gsc_clicks').source = { table: 'search_console', column: 'klicks' };
        entry(d.columns, 'ga_url').source = { table: 'ga4', column: 'url' };
      });
      expect(issues).toEqual([
        `${col('gsc_clicks')}.source.column: "klicks" is not a column of search_console`,
        `${col('ga_url')}.source.table: "ga4" is not an export table`,
      ]);
    });

    it('rejects an aggregate on a column that is not a joined metric', () => {
      const issues = problemsOf((d) => {
        entry(d.columns, 'word_count').aggregate = 'sum("word_count")';
        entry(d.columns, 'checked').aggregate = 'bool_or("checked")';
      });
      expect(issues).toEqual([
        `${col('word_count')}.aggregate: only a metric joined from search_console, analytics, ads has an aggregate`,
        `${col('checked')}.aggregate: only a metric joined from search_console, analytics, ads has an aggregate`,
      ]);
    });

    it('rejects a display column that is not in the catalogue', () => {
      const issues = problemsOf((d) => {
        entry(d.columns, 'url').displayColumn = 'href';
      });
      expect(issues).toEqual([`${col('url')}.displayColumn: "href" is not a catalogue column`]);
    });
  });
});

describe('filters', () => {
  it('reads columns, struct fields, functions and placeholders', () => {
    expect(
      parseFilter('len(list_filter(redirect_chain, lambda x: x.is_js_redirect OR x.is_meta_redirect)) > 0'),
    ).toEqual({
      columns: ['redirect_chain'],
      fields: ['is_js_redirect', 'is_meta_redirect'],
      functions: ['len', 'list_filter'],
      placeholders: [],
      problems: [],
    });
    expect(
      parseFilter('url IS DISTINCT FROM "duplicate_body_primary_url" AND deeprank > 1e3 AND level IN ({LIST})'),
    ).toMatchObject({ columns: ['duplicate_body_primary_url', 'url', 'deeprank', 'level'], placeholders: ['LIST'] });
    expect(parseFilter('list_filter(redirect_chain, h -> h.is_js_redirect)').columns).toEqual(['redirect_chain']);
  });

  it('expands placeholders into SQL literals', () => {
    expect(expandFilter('a > {A} AND b NOT IN ({B})', { A: 0.25, B: [403, 429] })).toBe(
      'a > 0.25 AND b NOT IN (403, 429)',
    );
    expect(() => expandFilter('a > {C}', { A: 1 })).toThrow('filter constant {C} is not defined');
    expect(() => expandFilter('a IN ({B})', { B: [] })).toThrow('non-empty list');
  });

  it('expands every report filter of the catalogue', () => {
    for (const report of catalog.reports)
      expect(expandFilter(report.filter, catalog.constants.filterConstants), report.id).not.toMatch(/[{}]/);
  });

  it('maps contract types to catalogue types', () => {
    expect(columnTypeOf('BIGINT')).toBe('integer');
    expect(columnTypeOf('VARCHAR[]')).toBe('string-list');
    expect(columnTypeOf('STRUCT(url VARCHAR)[]')).toBe('struct-list');
    expect(columnTypeOf('TIMESTAMP')).toBeUndefined();
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('key dates', () => {
  it('locates a key date that breaks the schema', () => {
    const issues = problemsOf((draft) => {
      (draft as Draft & { keyDates: unknown[] }).keyDates = [
        { date: '2026-10-25', label: 'UK clocks go back', kind: 'calendar' },
        { date: '2026-13-01', label: 'No such month', kind: 'calendar' },
        { date: '2026-11-27', label: 'Black Friday', kind: 'holiday' },
      ];
    });
    expect(issues).toHaveLength(2);
    expect(issues[0]).toMatch(/^keyDates\[1\]\.date: /);
    expect(issues[1]).toMatch(/^keyDates\[2\]\.kind: /);
  });

  it('accepts the catalogue key dates', () => {
    expect(problemsOf((draft) => Object.assign(draft, { keyDates: catalog.keyDates }))).toEqual([]);
  });
});
