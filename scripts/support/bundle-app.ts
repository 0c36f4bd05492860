/**
 * A React app's source bundled for the browser with esbuild, in memory: the client-rendered sites of the rendered
 * crawl's tests (service/test/helpers/js-sites) and of its benchmark (bench/support/rendered-site.ts).
 */
import { build } from 'esbuild';

/** The minified script of `entry`; `define` replaces global names with the given JavaScript literals. */
export async function bundleApp(entry: string, define: Record<string, string> = {}): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    jsx: 'automatic',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"', ...define },
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}
