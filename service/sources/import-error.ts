import { oneLine } from '../error-text.ts';

/**
 * Why an import was refused: the input (a file's shape, a cell, the command's dates), another import holding the
 * website's lock, a website the store does not know, rows that differ from imported ones without --replace, or an
 * import to remove that the source does not hold.
 */
export type ImportErrorKind = 'invalid-input' | 'locked' | 'unknown-website' | 'conflict' | 'interrupted' | 'not-found';

/** An expected import failure; the message is one line naming the file and, for a bad cell, its line and column. */
export class ImportError extends Error {
  override readonly name = 'ImportError';

  constructor(
    message: string,
    readonly kind: ImportErrorKind = 'invalid-input',
    options?: { cause?: unknown },
  ) {
    super(oneLine(message), options);
  }
}

/** A bad cell: `file:line:column: problem`, as compilers locate errors. */
export const cellError = (file: string, line: number, column: number, problem: string): ImportError =>
  new ImportError(`${file}:${line}:${column}: ${problem}`);

/** How a refusal for rows imported before says what to do: the command's words, and the Data sources page's. */
export const REPLACE_HINT = {
  cli: 'nothing imported; use --replace to replace the dates these files cover',
  page: 'nothing imported; tick "Replace the dates these files cover" beside the drop zone to replace them',
} as const;
