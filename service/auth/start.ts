/** Start-up chores of the accounts side of main.ts. */
import type { AddressInfo } from 'node:net';
import type { Accounts } from './accounts.ts';

/** Where a process on this machine reaches the listening server (the admin CLI's hand-over). */
export function loopbackUrlOf(address: AddressInfo | string | null): string {
  if (!address || typeof address === 'string') throw new Error('The service is not listening on a TCP port');
  const host = address.address === '::1' ? '[::1]' : '127.0.0.1';
  return `http://${host}:${address.port}`;
}

/** Prints the demo logins that still have their demo password (README, "Demo logins"). */
export async function printDemoLogins(accounts: Accounts): Promise<void> {
  const logins = await accounts.demoLoginsInUse();
  if (logins.length === 0) return;
  const width = Math.max(...logins.map((l) => l.email.length));
  console.log(
    'Demo logins (printed while they keep their demo password; change it with npm run admin -- user password):',
  );
  for (const l of logins)
    console.log(
      `  ${l.role.padEnd(6)}  ${l.email.padEnd(width)}  ${l.password}${l.websites.length ? `  (${l.websites.join(', ')})` : ''}`,
    );
}
