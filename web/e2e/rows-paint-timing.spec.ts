/**
 * Time from a 100-row page's answer (its last byte, from resource timing) to those rows painted, over several page
 * turns of the big website's largest URL report. Written to test-results/rows-paint-timing.json and printed; the
 * figures are for the benchmark notes, so nothing is asserted about them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { SECTION, api, authFile, extra, open } from './helpers.ts';

// Trace recording runs on the page's main thread and would be most of what is measured.
test.use({ storageState: authFile('staff'), trace: 'off' });

const TURNS = 12;
const PAGE_SIZE = 100;

interface OverviewAnswer {
  severityMap: Record<string, { reports: { reportId: string; tableId: string; ems_lumar_row_count: number }[] }>;
}

test('time from a 100-row answer to its rows painted', async ({ page }) => {
  test.setTimeout(180_000);
  await open(page, `${SECTION}?website=${extra.big.id}`);
  const [crawl] = await api<{ crawlId: number }[]>(page, '/api/technical-health-check/crawl/get-redux', {
    websiteId: extra.big.id,
  });
  const overview = await api<OverviewAnswer>(page, '/api/technical-health-check/overview/get-overview', {
    websiteId: extra.big.id,
    currentId: crawl!.crawlId,
  });
  const report = Object.values(overview.severityMap)
    .flatMap((s) => s.reports)
    .filter((r) => r.tableId === 'urls' && r.ems_lumar_row_count >= PAGE_SIZE * (TURNS + 2))
    .sort((a, b) => b.ems_lumar_row_count - a.ems_lumar_row_count || a.reportId.localeCompare(b.reportId))[0];
  expect(report, `a URL report with ${PAGE_SIZE * (TURNS + 2)}+ rows`).toBeDefined();
  await page.goto(`${SECTION}/${report!.reportId}?website=${extra.big.id}&crawl=${crawl!.crawlId}&size=${PAGE_SIZE}`);
  const rows = page.getByTestId('report-table').locator('tbody tr[data-index]');
  await expect(page.getByTestId('row-range')).toHaveText(/^1–100 of [\d,]+ rows$/, { timeout: 20_000 });
  await expect(rows.first()).toBeVisible();

  const samples: number[] = [];
  for (let turn = 1; turn <= TURNS; turn++) {
    const firstRowIndex = Number(await rows.first().getAttribute('aria-rowindex'));
    // Armed before the click: resolves once the next page's first row is in the table and a frame has been painted.
    const measured = page.evaluate(
      (wanted) =>
        new Promise<number>((resolve) => {
          let responseEnd: number | undefined;
          let paintedAt: number | undefined;
          const finish = (): void => {
            if (responseEnd === undefined || paintedAt === undefined) return;
            resources.disconnect();
            resolve(paintedAt - responseEnd);
          };
          const resources = new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as PerformanceResourceTiming[])
              if (entry.name.endsWith('/report/get-rows')) responseEnd = entry.responseEnd;
            finish();
          });
          resources.observe({ type: 'resource' });
          const table = document.querySelector('[data-testid="report-table"]')!;
          const mutations = new MutationObserver(() => {
            // The row index follows the page at once; the new rows are in once the table is no longer busy.
            const first = table.querySelector('table[aria-busy="false"] tbody tr[data-index]');
            if (Number(first?.getAttribute('aria-rowindex')) !== wanted) return;
            mutations.disconnect();
            // The next frame paints the committed rows; a task after it runs once they are on screen.
            requestAnimationFrame(() =>
              setTimeout(() => {
                paintedAt = performance.now();
                finish();
              }, 0),
            );
          });
          mutations.observe(table, { subtree: true, childList: true, attributes: true });
        }),
      firstRowIndex + PAGE_SIZE,
    );
    await page.getByRole('button', { name: 'Next page' }).click();
    samples.push(await measured);
    await expect(page.getByTestId('page-label')).toHaveText(new RegExp(`^Page ${turn + 1} of`));
  }

  const sorted = [...samples].sort((a, b) => a - b);
  const result = {
    report: report!.reportId,
    pageSize: PAGE_SIZE,
    turns: TURNS,
    medianMs: Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10,
    minMs: Math.round(sorted[0]! * 10) / 10,
    maxMs: Math.round(sorted.at(-1)! * 10) / 10,
    samplesMs: samples.map((s) => Math.round(s * 10) / 10),
  };
  const file = path.join('test-results', 'rows-paint-timing.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
  console.log(`rows paint timing: ${JSON.stringify(result)}`);
  expect(samples).toHaveLength(TURNS);
});
