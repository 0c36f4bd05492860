/** The CSV exports: the dashboard's 1000-row chunks, and the whole report as one streamed response. */
import { performance } from 'node:perf_hooks';
import type { Client } from '../support/client.ts';
import { round } from '../support/stats.ts';

/** The server-side export: the whole report as one streamed CSV response, three times (the first may be cold). */
export async function streamingExport(
  client: Client,
  body: object,
): Promise<{ rows: number; bytes: number; seconds: number[]; rowsPerSecond: number[] }> {
  const seconds: number[] = [];
  let rows = 0;
  let bytes = 0;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const response = await client.send('/api/technical-health-check/report/export-csv', body);
    if (!response.ok || !response.body) throw new Error(`export-csv → ${response.status}: ${await response.text()}`);
    rows = Number(response.headers.get('x-total-count'));
    bytes = 0;
    let newlines = 0;
    for await (const chunk of response.body) {
      const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      bytes += buffer.byteLength;
      for (let at = buffer.indexOf(10); at >= 0; at = buffer.indexOf(10, at + 1)) newlines++;
    }
    seconds.push((performance.now() - started) / 1000);
    // The header line plus one line per row, as the generator's values hold no line breaks.
    if (newlines !== rows + 1) console.warn(`export-csv wrote ${newlines} lines for ${rows} rows`);
  }
  return {
    rows,
    bytes,
    seconds: seconds.map((x) => Math.round(x * 100) / 100),
    rowsPerSecond: seconds.map((x) => Math.round(rows / x)),
  };
}

/** The dashboard's CSV path: 1000-row chunks, each continuing from the previous chunk's cursor. */
export async function exportByChunks(
  client: Client,
  body: object,
  wanted: number,
): Promise<{ rows: number; seconds: number }> {
  const started = performance.now();
  let rows = 0;
  let after: string[] | null = null;
  while (rows < wanted) {
    const chunk: { rows: unknown[]; nextCursor: string[] | null } = await client.json(
      '/api/technical-health-check/report/get-rows',
      { ...body, after },
    );
    rows += chunk.rows.length;
    after = chunk.nextCursor;
    if (!after || chunk.rows.length === 0) break;
  }
  return { rows, seconds: round((performance.now() - started) / 1000) };
}
