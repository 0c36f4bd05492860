/** The real service as a child process on the benchmark's store, and its memory as the kernel counts it. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { dataDir, ROOT } from './config.ts';

export async function startService(port: number, env: NodeJS.ProcessEnv = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'service/main.ts'], {
    cwd: ROOT,
    // The crawl-load runs crawl sites served on 127.0.0.1, which the service's egress policy refuses unless allowed.
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      DEMO: '0',
      HOST: '127.0.0.1',
      CRAWL_ALLOW: '127.0.0.1/32',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error('the service did not become healthy within 120 s');
}

/** Ends a service and waits for its exit, so that the embedded app database it held is free again. */
export async function stopService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export const rssMb = (pid: number): { rss: number; hwm: number } => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: Math.round(kb('VmRSS') / 1024), hwm: Math.round(kb('VmHWM') / 1024) };
};
