import { oneLine } from '../error-text.ts';

/** Why a load was refused: the export is invalid, the crawl is already (or, for a refresh, not) loaded, another load holds the lock, or it was interrupted. */
export type LoadErrorKind = 'invalid-export' | 'already-loaded' | 'not-loaded' | 'locked' | 'interrupted' | 'failed';

/** An expected load failure. The message is one line: the file, the column and, where it applies, the first bad row. */
export class LoadError extends Error {
  override readonly name = 'LoadError';

  constructor(
    message: string,
    readonly kind: LoadErrorKind = 'invalid-export',
    options?: { cause?: unknown },
  ) {
    super(oneLine(message), options);
  }
}
