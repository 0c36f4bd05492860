import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { CHUNK_LIMIT_KB, chunkSizeLimit } from './chunk-size-limit.ts';

const webDir = import.meta.dirname;
const repoDir = path.resolve(webDir, '..');

/** The API the dev server proxies to; `scripts/dev.ts` sets it to the service it starts. */
const apiTarget = process.env.THC_API_URL ?? 'http://localhost:8080';

/**
 * Libraries every page needs, each in a chunk of its own beside the app's: loaded at once in parallel, and cached
 * across releases that change only the app. Libraries of lazily loaded pages (Plot, Arrow, TanStack) are left to
 * those pages' chunks: naming them here would load them with the first page.
 */
const VENDOR_GROUPS = [
  { name: 'react', test: /node_modules\/(react|react-dom|scheduler)\// },
  {
    name: 'mantine',
    test: /node_modules\/(@mantine|@floating-ui|react-remove-scroll[^/]*|react-style-singleton|use-callback-ref|use-sidecar|tslib|get-nonce|clsx)\//,
  },
  { name: 'zod', test: /node_modules\/zod\// },
];

export default defineConfig({
  root: webDir,
  plugins: [react(), chunkSizeLimit(CHUNK_LIMIT_KB)],
  css: { postcss: webDir },
  build: {
    outDir: path.join(webDir, 'dist'),
    emptyOutDir: true,
    chunkSizeWarningLimit: CHUNK_LIMIT_KB,
    rolldownOptions: { output: { codeSplitting: { groups: VENDOR_GROUPS } } },
  },
  server: {
    fs: { allow: [repoDir] },
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
});
