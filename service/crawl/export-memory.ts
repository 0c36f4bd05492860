/**
 * DuckDB's memory for a crawl's export (CRAWL_EXPORT_MEMORY_LIMIT, default 768MB; export-crawl.ts says why), checked
 * before a crawl starts: the export runs after every page was fetched, and DuckDB's own refusal names no variable.
 */
export function readCrawlExportMemoryLimit(env: NodeJS.ProcessEnv = process.env): string {
  const value = env.CRAWL_EXPORT_MEMORY_LIMIT ?? '768MB';
  if (!/^\d+(\.\d+)?\s*([KMGT]i?B|B)$/i.test(value.trim()))
    throw new Error(`CRAWL_EXPORT_MEMORY_LIMIT must be a size such as 768MB or 1.5GiB, got "${value}"`);
  return value;
}
