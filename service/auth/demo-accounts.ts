/**
 * Demo accounts and website settings, seeded when the service starts in demo mode with no accounts at all.
 * The passwords are fixed (the README lists them) and only their hashes are stored; the service prints the
 * logins at every start for as long as they still have these passwords.
 */
import type { AppDb } from '../app-db/db.ts';
import type { GoalType, ModuleName, Role } from '../app-db/model.ts';
import { addUser, findUserByEmail } from '../app-db/users.ts';
import { DEFAULT_SEGMENT } from '../app-db/model.ts';
import { changeSegment, ensureWebsite, setModule } from '../app-db/websites.ts';
import { hashPassword, verifyPassword } from './password.ts';

/** The demo generator's websites (scripts/fixtures/profiles.ts); the domain applies only if the store lacks it. */
interface DemoWebsite {
  id: string;
  name: string;
  domain: string;
  segment: { isHreflang: boolean; isAi: boolean; goalType: GoalType };
  modules: { module: ModuleName; setupId: string | null; flag: boolean }[];
}

const demoWebsites: DemoWebsite[] = [
  {
    id: 'northwind-outfitters',
    name: 'Northwind Outfitters',
    domain: 'northwind-outfitters.co.uk',
    segment: { isHreflang: false, isAi: true, goalType: 'ecommerce' },
    modules: [{ module: 'carbon-footprint', setupId: null, flag: true }],
  },
  {
    id: 'alpine-travel',
    name: 'Alpine Travel',
    domain: 'alpine-travel.eu',
    segment: { isHreflang: true, isAi: false, goalType: 'conversion' },
    // Without its uptime-monitor ID, so the dashboard's 'module inactive' panel has something to show.
    modules: [{ module: 'uptime-report', setupId: null, flag: false }],
  },
];

export interface DemoLogin {
  email: string;
  password: string;
  role: Role;
  websites: string[];
}

export const demoLogins: readonly DemoLogin[] = [
  { email: 'admin@thc.example', password: 'thc-admin-demo', role: 'ADMIN', websites: [] },
  ...demoWebsites.flatMap((w): DemoLogin[] => {
    const short = w.id.split('-')[0]!;
    return [
      { email: `staff@${w.id}.example`, password: `${short}-staff-demo`, role: 'STAFF', websites: [w.id] },
      { email: `client@${w.id}.example`, password: `${short}-client-demo`, role: 'CLIENT', websites: [w.id] },
    ];
  }),
];

/** Seeds the demo websites' settings and logins when there are no users yet; resolves true when it seeded. */
export async function seedDemoAccounts(appDb: AppDb, now: Date): Promise<boolean> {
  const [{ users } = { users: 0 }] = await appDb.all<{ users: number }>('SELECT count(*)::INTEGER AS users FROM users');
  if (users > 0) return false;
  const hashes = await Promise.all(demoLogins.map((l) => hashPassword(l.password)));
  await appDb.transaction(async (tx) => {
    for (const w of demoWebsites) {
      await ensureWebsite(tx, w, now);
      await tx.run('UPDATE websites SET name = ? WHERE id = ?', [w.name, w.id]);
      await tx.changed('websites', 'sessions');
      await changeSegment(tx, w.id, DEFAULT_SEGMENT.id, w.segment);
      for (const m of w.modules) await setModule(tx, w.id, m.module, m);
    }
    for (const [i, login] of demoLogins.entries()) await addUser(tx, { ...login, passwordHash: hashes[i]! }, now);
  });
  return true;
}

/** The demo logins that still exist with their demo password. */
export async function demoLoginsInUse(appDb: AppDb): Promise<DemoLogin[]> {
  const inUse: DemoLogin[] = [];
  for (const login of demoLogins) {
    const user = await findUserByEmail(appDb, login.email);
    if (user && (await verifyPassword(login.password, user.password_hash))) inUse.push(login);
  }
  return inUse;
}
