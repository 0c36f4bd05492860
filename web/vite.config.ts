import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const webDir = import.meta.dirname;
const repoDir = path.resolve(webDir, '..');

/** The API the dev server proxies to; `scripts/dev.ts` sets it to the service it starts. */
const apiTarget = process.env.THC_API_URL ?? 'http://localhost:8080';

export default defineConfig({
  root: webDir,
  plugins: [react()],
  css: { postcss: webDir },
  build: {
    outDir: path.join(webDir, 'dist'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 700,
  },
  server: {
    fs: { allow: [repoDir] },
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
});
