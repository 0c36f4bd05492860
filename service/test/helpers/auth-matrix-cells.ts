/**
 * The authorization matrix's cells (service/test/auth-matrix.test.ts): their shape, the checks they are made of, and
 * the administration calls' cells, where a client finds no such call and a STAFF user reaches their own websites and
 * clients only.
 */
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { INVALID_PASSWORD_LINK } from '../../auth/password-tokens.ts';

export const APPROVED = 1;
export const PENDING = 2;
export const NOT_SIGNED_IN = { error: 'Not signed in' };

export type Who = 'anonymous' | 'client' | 'otherClient' | 'staff' | 'otherStaff' | 'admin';
export type Check = (response: LightMyRequestResponse) => void;

export interface Cell {
  call: string;
  url: string;
  payload: (crawlId: number) => object;
  expected: Record<Who, Record<typeof APPROVED | typeof PENDING, Check>>;
}

export const status =
  (code: number, body?: unknown): Check =>
  (response) => {
    expect(response.statusCode).toBe(code);
    if (body !== undefined) expect(response.json()).toEqual(body);
  };

export const same = (check: Check) => ({ [APPROVED]: check, [PENDING]: check });

const notACall = (url: string) => status(404, { error: `POST ${url} does not exist` });
/** The ids a list answer holds under `key`, each entry's `field`. */
const listed =
  (key: string, field: string, expected: string[]): Check =>
  (r) =>
    expect([
      r.statusCode,
      [...new Set(r.json<Record<string, Record<string, string>[]>>()[key]!.map((e) => e[field]))].sort(),
    ]).toEqual([200, expected]);
const adminOnlyCall = (url: string) => ({
  anonymous: same(status(401, NOT_SIGNED_IN)),
  client: same(notACall(url)),
  otherClient: same(notACall(url)),
  otherStaff: same(notACall(url)),
  staff: same(notACall(url)),
});

export const adminCells = (everyone: readonly Who[]): Cell[] => [
  {
    call: 'admin/run',
    url: '/api/admin/run',
    payload: () => ({ command: { command: 'website set', id: 'shop', name: 'Shop' } }),
    expected: {
      anonymous: same(status(401, NOT_SIGNED_IN)),
      client: same(notACall('/api/admin/run')),
      otherClient: same(notACall('/api/admin/run')),
      otherStaff: same(status(404, { error: 'Website shop does not exist' })),
      staff: same(status(200, { output: 'Changed website shop: name Shop' })),
      admin: same(status(200, { output: 'Changed website shop: name Shop' })),
    },
  },
  {
    call: 'admin/get-websites',
    url: '/api/admin/get-websites',
    payload: () => ({}),
    expected: {
      anonymous: same(status(401, NOT_SIGNED_IN)),
      client: same(notACall('/api/admin/get-websites')),
      otherClient: same(notACall('/api/admin/get-websites')),
      otherStaff: same(listed('websites', 'id', ['blog'])),
      staff: same(listed('websites', 'id', ['shop'])),
      admin: same(listed('websites', 'id', ['blog', 'shop'])),
    },
  },
  {
    call: 'admin/get-users',
    url: '/api/admin/get-users',
    payload: () => ({}),
    expected: {
      anonymous: same(status(401, NOT_SIGNED_IN)),
      client: same(notACall('/api/admin/get-users')),
      otherClient: same(notACall('/api/admin/get-users')),
      otherStaff: same(listed('users', 'email', ['client@blog.example'])),
      staff: same(listed('users', 'email', ['client@shop.example'])),
      admin: same(
        listed('users', 'email', [
          'admin@agency.example',
          'client@blog.example',
          'client@shop.example',
          'staff@agency.example',
          'staff@blog-agency.example',
        ]),
      ),
    },
  },
  {
    call: 'admin/get-sessions',
    url: '/api/admin/get-sessions',
    payload: () => ({}),
    expected: {
      anonymous: same(status(401, NOT_SIGNED_IN)),
      client: same(notACall('/api/admin/get-sessions')),
      otherClient: same(notACall('/api/admin/get-sessions')),
      otherStaff: same(listed('sessions', 'email', ['client@blog.example', 'staff@blog-agency.example'])),
      staff: same(listed('sessions', 'email', ['client@shop.example', 'staff@agency.example'])),
      admin: same((r) => expect(r.statusCode).toBe(200)),
    },
  },
  {
    call: 'admin/get-audit-log',
    url: '/api/admin/get-audit-log',
    payload: () => ({}),
    expected: {
      ...adminOnlyCall('/api/admin/get-audit-log'),
      admin: same((r) =>
        expect([r.statusCode, r.json<{ entries: unknown[] }>().entries.length > 0]).toEqual([200, true]),
      ),
    },
  },
  {
    // Public: the link is the proof, so a session neither helps nor hinders.
    call: 'auth/set-password',
    url: '/api/auth/set-password',
    payload: () => ({ token: 'not-a-token', password: 'long-enough-password' }),
    expected: Object.fromEntries(
      everyone.map((who) => [
        who,
        same((r) => expect([r.statusCode, r.json<{ error: string }>().error]).toEqual([400, INVALID_PASSWORD_LINK])),
      ]),
    ) as Cell['expected'],
  },
];
