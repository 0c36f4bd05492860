import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db/duckdb.ts';
import { readCrawlExportMemoryLimit } from './export-memory.ts';

describe('CRAWL_EXPORT_MEMORY_LIMIT', () => {
  it('is 768MB unless set', () => {
    expect(readCrawlExportMemoryLimit({})).toBe('768MB');
  });

  it.each(['768', 'lots', '1.5', 'MB', '-1GB'])('refuses %j, naming the variable', (value) => {
    expect(() => readCrawlExportMemoryLimit({ CRAWL_EXPORT_MEMORY_LIMIT: value })).toThrow(
      `CRAWL_EXPORT_MEMORY_LIMIT must be a size such as 768MB or 1.5GiB, got "${value}"`,
    );
  });

  it.each(['768MB', '1.5GB', '1GiB', '512 mb', '1000000B'])('takes %j, as DuckDB does', async (value) => {
    expect(readCrawlExportMemoryLimit({ CRAWL_EXPORT_MEMORY_LIMIT: value })).toBe(value);
    const db = await openDatabase(':memory:', { memoryLimit: value });
    db.closeSync();
  });
});
