/**
 * The child process of one Data sources job (forked by import-jobs.ts under `--import tsx`): an import of uploaded
 * files or the removal of an import, with the same code as `npm run import-data`. Parsing a vendor file is CPU work;
 * here it never holds up the service's event loop. Tells the parent each step, then how it ended, over IPC.
 */
import type { ImportStep } from '../../catalog/data-source-calls.ts';
import { dataSource } from '../../catalog/data-sources.ts';
import { useDataDirUmask } from '../data-dir.ts';
import { firstLine } from '../error-text.ts';
import { ImportError, REPLACE_HINT, type ImportErrorKind } from './import-error.ts';
import { importData, type ImportOptions } from './import-data.ts';
import { importSummary } from './import-summary.ts';
import { removeImport, type RemoveImportOptions } from './remove-import.ts';

type Plain<T> = Omit<T, 'onProgress'>;

export type ToImportWorker =
  { type: 'import'; options: Plain<ImportOptions> } | { type: 'remove'; options: Plain<RemoveImportOptions> };

export type FromImportWorker =
  | { type: 'step'; step: ImportStep }
  | { type: 'done'; summary: string; isRefreshed: boolean }
  | { type: 'failed'; error: string; kind: ImportErrorKind | 'error' };

const send = (message: FromImportWorker): Promise<void> =>
  new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, undefined, () => resolve());
  });

const onProgress = (step: ImportStep): void => void send({ type: 'step', step });

async function run(message: ToImportWorker): Promise<FromImportWorker> {
  if (message.type === 'import') {
    const result = await importData({ ...message.options, onProgress });
    return { type: 'done', summary: importSummary(result), isRefreshed: result.refreshFailure === null };
  }
  const result = await removeImport({ ...message.options, onProgress });
  const refreshed =
    result.refreshedCrawlIds.length > 0 ? `; crawls refreshed: ${result.refreshedCrawlIds.join(', ')}` : '';
  const failure = result.refreshFailure ? `; refreshing the crawls failed (${result.refreshFailure})` : '';
  return {
    type: 'done',
    summary: `removed an import of ${dataSource(message.options.source).title}: ${result.removedRows.toLocaleString('en-GB')} rows${refreshed}${failure}`,
    isRefreshed: result.refreshFailure === null,
  };
}

useDataDirUmask();
process.once('message', (message: ToImportWorker) => {
  void run(message)
    .catch((error: unknown): FromImportWorker =>
      error instanceof ImportError
        ? { type: 'failed', error: error.message.replace(REPLACE_HINT.cli, REPLACE_HINT.page), kind: error.kind }
        : { type: 'failed', error: firstLine(error), kind: 'error' },
    )
    .then(send)
    .finally(() => process.exit(0));
});
// A lost parent (the service died) leaves the import to its atomic publish: it finishes or leaves nothing.
process.on('disconnect', () => undefined);
