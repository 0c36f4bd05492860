/**
 * Fails the build when a chunk is larger than the limit vite would only warn about (build.chunkSizeWarningLimit), so
 * a bundle that grows past it is noticed in the build of `npm run build` and of the browser tests, not in a log.
 */
import type { Plugin } from 'vite';

/** kB of minified code per chunk; over it the build fails. */
export const CHUNK_LIMIT_KB = 700;

/** The chunks over `limitKb` (kB of minified code, 1 kB = 1000 bytes, as vite measures), with their sizes. */
export function oversizeChunks(bundle: Record<string, { type: string; code?: string }>, limitKb: number): string[] {
  return Object.entries(bundle)
    .filter(([, output]) => output.type === 'chunk' && (output.code?.length ?? 0) / 1000 > limitKb)
    .map(([fileName, output]) => `${fileName} (${((output.code?.length ?? 0) / 1000).toFixed(0)} kB)`);
}

export function chunkSizeLimit(limitKb: number): Plugin {
  return {
    name: 'thc-chunk-size-limit',
    apply: 'build',
    generateBundle(_, bundle) {
      const over = oversizeChunks(bundle, limitKb);
      if (over.length > 0)
        this.error(
          `Chunks over ${limitKb} kB: ${over.join(', ')}. Split them (web/vite.config.ts, or a lazy import) rather than raising the limit.`,
        );
    },
  };
}
