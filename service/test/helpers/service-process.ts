/**
 * The service as a process of its own (node --import tsx service/main.ts, or `npm start` as the README starts it), for
 * tests of what only a process shows: restarts, signals, replicas, the admin CLI's hand-over. It listens on a port the
 * system picks (PORT=0) on 127.0.0.1 without demo data unless `env` says otherwise, and is ready once it prints the
 * line naming that port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SERVING = /Technical Health Check is serving http:\/\/localhost:(\d+)\//;

export interface ServiceProcess {
  /** The node process, or npm's with `viaNpm`. */
  readonly process: ChildProcess;
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  /** What it wrote to stdout and stderr so far. */
  readonly output: () => string;
  /** Resolves with the exit code (null when a signal ended it). */
  readonly exited: Promise<number | null>;
  /** Sends the signal (SIGTERM by default) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface ServiceOptions {
  /** Overrides of this process's environment; DATA_DIR at least. */
  env: NodeJS.ProcessEnv;
  /** Starts it with `npm start`, as the README does. */
  viaNpm?: boolean;
  timeoutMs?: number;
}

const started = new Set<ChildProcess>();

export async function startService({
  env,
  viaNpm = false,
  timeoutMs = 120_000,
}: ServiceOptions): Promise<ServiceProcess> {
  const [command, args] = viaNpm ? ['npm', ['start']] : [process.execPath, ['--import', 'tsx', 'service/main.ts']];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DEMO: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      started.delete(child);
      resolve(code);
    }),
  );
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the service did not start within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const serving = SERVING.exec(output);
      if (serving) {
        clearTimeout(timer);
        resolve(serving[1]!);
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (${code}) before it listened:\n${output}`));
    });
  });
  return {
    process: child,
    origin: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** SIGKILLs every service this module started that still runs (for afterAll/afterEach). */
export function killServices(): void {
  for (const child of started) child.kill('SIGKILL');
}
