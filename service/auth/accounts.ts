/**
 * Sign-in and access: sessions and logins over the app database, the login limits, the admin CLI's token and the
 * access rules the routes ask. It owns nothing it did not make: app-state.ts opens the app database and the crawl
 * states and closes them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ADMIN_TOKEN_FILE, type AppDb } from '../app-db/db.ts';
import type { CrawlStates } from '../app-db/crawls.ts';
import { createAccessCheck, type AccessCheck } from './access.ts';
import { demoLoginsInUse, type DemoLogin } from './demo-accounts.ts';
import { LOGIN_LIMITS, LoginLimiter, type LoginLimits } from './login-limiter.ts';
import { SESSION_TTL_MS } from './sessions.ts';

export interface AccountSettings {
  sessionTtlMs: number;
  loginLimits: LoginLimits;
  /** Trust X-Forwarded-* from a reverse proxy (TRUST_PROXY=1), e.g. to mark cookies Secure behind https. */
  trustProxy: boolean;
  /** Served over https (behind a trusted proxy, or an https PUBLIC_URL): send the headers only https honours. */
  isBehindHttps: boolean;
}

/** The settings from the environment; `publicUrl` is the dashboard's address as clients reach it. */
export function readAccountSettings(
  env: NodeJS.ProcessEnv,
  publicUrl: string,
  given: Partial<Pick<AccountSettings, 'sessionTtlMs' | 'loginLimits'>> = {},
): AccountSettings {
  const trustProxy = env.TRUST_PROXY === '1';
  return {
    sessionTtlMs: given.sessionTtlMs ?? SESSION_TTL_MS,
    loginLimits: given.loginLimits ?? LOGIN_LIMITS,
    trustProxy,
    isBehindHttps: trustProxy || /^https:/i.test(publicUrl),
  };
}

export interface AccountsParts {
  appDb: AppDb;
  /** The crawls' moduleState, which decides what a CLIENT may see. */
  states: CrawlStates;
  settings: AccountSettings;
  clock: () => Date;
  /** Where admin.token is published. */
  dataDir: string;
}

export class Accounts {
  /** Authenticates the admin CLI's hand-over to this process (scripts/admin.ts). */
  readonly adminToken = randomBytes(32).toString('base64url');
  readonly appDb: AppDb;
  readonly settings: AccountSettings;
  readonly clock: () => Date;
  readonly loginLimiter: LoginLimiter;
  /** Whether the caller may see a website or a crawl (access.ts). */
  readonly access: AccessCheck;
  readonly #dataDir: string;
  #adminTokenFile: string | undefined;

  constructor(parts: AccountsParts) {
    this.appDb = parts.appDb;
    this.settings = parts.settings;
    this.clock = parts.clock;
    this.#dataDir = parts.dataDir;
    this.loginLimiter = new LoginLimiter(parts.appDb, parts.settings.loginLimits, parts.clock);
    this.access = createAccessCheck(parts.states);
  }

  /** The demo logins still on their demo passwords, to print at start. */
  demoLoginsInUse(): Promise<DemoLogin[]> {
    return demoLoginsInUse(this.appDb);
  }

  /**
   * Writes DATA_DIR/admin.token (mode 0600) so the admin CLI can hand its commands to this process. Over a shared
   * PostgreSQL server the CLI opens the database itself, and replicas sharing DATA_DIR would overwrite the file.
   */
  publishAdminToken(url: string): void {
    if (this.appDb.isShared) return;
    const file = path.join(this.#dataDir, ADMIN_TOKEN_FILE);
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ url, token: this.adminToken, pid: process.pid }), { mode: 0o600 });
    fs.renameSync(tmp, file);
    this.#adminTokenFile = file;
  }

  /** Removes admin.token if it is still ours; safe to call from an exit handler. */
  withdrawAdminToken(): void {
    const file = this.#adminTokenFile;
    if (!file) return;
    this.#adminTokenFile = undefined;
    try {
      const content = JSON.parse(fs.readFileSync(file, 'utf8')) as { token?: string };
      if (content.token === this.adminToken) fs.rmSync(file, { force: true });
    } catch {
      // Already gone, or replaced by another process: nothing of ours to remove.
    }
  }
}
