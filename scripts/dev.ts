/**
 * npm run dev: the service on PORT (default 8080) plus the Vite dev server with hot reload, proxying /api to it.
 * Open the Vite address it prints (default http://localhost:5173/technical-health-check).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createServer } from 'vite';

const repoDir = path.resolve(import.meta.dirname, '..');
const apiPort = Number(process.env.PORT ?? 8080);
const webPort = Number(process.env.WEB_PORT ?? 5173);
process.env.THC_API_URL = `http://localhost:${apiPort}`;

const service = spawn(process.execPath, ['--import', 'tsx', 'service/main.ts'], {
  cwd: repoDir,
  env: { ...process.env, PORT: String(apiPort) },
  stdio: 'inherit',
});

const vite = await createServer({
  configFile: path.join(repoDir, 'web/vite.config.ts'),
  server: { port: webPort, strictPort: false },
});
await vite.listen();
vite.printUrls();
console.log(`API proxied to http://localhost:${apiPort}; the dashboard is at /technical-health-check`);

let isStopping = false;
const stop = (code: number): void => {
  if (isStopping) return;
  isStopping = true;
  service.kill('SIGTERM');
  vite.close().then(
    () => process.exit(code),
    () => process.exit(code),
  );
};
service.on('exit', (code) => {
  if (!isStopping) {
    console.error(`The service stopped (exit code ${code ?? 'none'}); stopping the dev server.`);
    stop(code ?? 1);
  }
});
process.once('SIGINT', () => stop(0));
process.once('SIGTERM', () => stop(0));
