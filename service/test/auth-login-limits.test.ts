/**
 * Login limits: only failures count, per account-and-address pair with an increasing delay, under a
 * looser per-address ceiling; a success resets its pair; the state lives in the app database.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoginLimits } from '../auth/login-limiter.ts';
import {
  TestClock,
  addTestUsers,
  buildTestApp,
  openStack,
  tempDir,
  testUsers,
  writeCrawl,
  type Stack,
} from './auth-fixture.ts';

const limits: LoginLimits = {
  pairFreeFailures: 3,
  addressFreeFailures: 6,
  firstDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
  memoryMs: 24 * 60 * 60_000,
};

let dataDir: string;
let clock: TestClock;
let stack: Stack | undefined;
let app: FastifyInstance | undefined;

async function open(isFresh = true): Promise<FastifyInstance> {
  if (isFresh) {
    dataDir = tempDir();
    await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 1 });
    clock = new TestClock(new Date('2025-03-03T09:00:00Z'));
  }
  stack = await openStack(dataDir, { clock: clock.fn, loginLimits: limits });
  if (isFresh) await addTestUsers(stack, clock, ['client', 'admin']);
  app = await buildTestApp(stack);
  return app;
}

async function close(): Promise<void> {
  await app?.close();
  await stack?.close();
  app = undefined;
  stack = undefined;
}
afterEach(close);

const CLIENT = testUsers.client;

function attempt(email: string, password: string, remoteAddress: string): Promise<LightMyRequestResponse> {
  return app!.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { email, password } });
}
const wrong = (email: string, remoteAddress: string) => attempt(email, 'wrong-pass', remoteAddress);
const right = (remoteAddress: string) => attempt(CLIENT.email, CLIENT.password, remoteAddress);
const statuses = async (responses: Promise<LightMyRequestResponse>[]) =>
  (await Promise.all(responses)).map((r) => r.statusCode);

async function failTimes(n: number, email: string, remoteAddress: string): Promise<number[]> {
  const codes: number[] = [];
  for (let i = 0; i < n; i += 1) codes.push((await wrong(email, remoteAddress)).statusCode);
  return codes;
}

describe('login limits', () => {
  it('never count successful sign-ins: a whole office behind one address signs in', async () => {
    await open();
    for (let i = 0; i < 3 * limits.addressFreeFailures; i += 1) expect((await right('10.0.0.1')).statusCode).toBe(200);
    expect((await attempt(testUsers.admin.email, testUsers.admin.password, '10.0.0.1')).statusCode).toBe(200);
  });

  it('delay a pair after its free failures, with a growing wait that Retry-After states', async () => {
    await open();
    expect(await failTimes(limits.pairFreeFailures, CLIENT.email, '10.0.0.1')).toEqual([401, 401, 401]);
    const blocked = await wrong(CLIENT.email, '10.0.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ error: 'Too many sign-in attempts; try again later' });
    expect(blocked.headers['retry-after']).toBe('30');
    // Even the right password waits: a lock that only wrong guesses see would tell the attacker when they hit.
    expect((await right('10.0.0.1')).statusCode).toBe(429);
    clock.advance(10_000);
    expect((await wrong(CLIENT.email, '10.0.0.1')).headers['retry-after']).toBe('20');
    clock.advance(20_000);
    expect((await wrong(CLIENT.email, '10.0.0.1')).statusCode).toBe(401);
    const longer = await wrong(CLIENT.email, '10.0.0.1');
    expect([longer.statusCode, longer.headers['retry-after']]).toEqual([429, '60']);
    clock.advance(60_000);
    expect((await wrong(CLIENT.email, '10.0.0.1')).statusCode).toBe(401);
    expect((await wrong(CLIENT.email, '10.0.0.1')).headers['retry-after']).toBe('120');
  });

  it('cap the delay', async () => {
    await open();
    for (let i = 0; i < 12; i += 1) {
      expect((await wrong(CLIENT.email, '10.0.0.1')).statusCode).toBe(401);
      clock.advance(limits.maxDelayMs);
    }
    await wrong(CLIENT.email, '10.0.0.1');
    expect((await wrong(CLIENT.email, '10.0.0.1')).headers['retry-after']).toBe(String(limits.maxDelayMs / 1000));
  });

  it('reset a pair on success', async () => {
    await open();
    await failTimes(limits.pairFreeFailures - 1, CLIENT.email, '10.0.0.1');
    expect((await right('10.0.0.1')).statusCode).toBe(200);
    expect(await failTimes(limits.pairFreeFailures, CLIENT.email, '10.0.0.1')).toEqual([401, 401, 401]);
    expect((await wrong(CLIENT.email, '10.0.0.1')).statusCode).toBe(429);
  });

  it('let the user in from an address with no failures while the account is attacked from elsewhere', async () => {
    await open();
    for (let a = 1; a <= 5; a += 1) await failTimes(limits.pairFreeFailures + 2, CLIENT.email, `10.0.1.${a}`);
    expect((await wrong(CLIENT.email, '10.0.1.1')).statusCode).toBe(429);
    expect((await right('10.0.2.1')).statusCode).toBe(200);
  });

  it('stop credential stuffing with a per-address ceiling that other addresses do not feel', async () => {
    await open();
    const codes: number[] = [];
    for (let i = 0; i < limits.addressFreeFailures; i += 1)
      codes.push((await wrong(`u${i}@x.example`, '10.0.3.1')).statusCode);
    expect(codes).toEqual(Array(limits.addressFreeFailures).fill(401));
    const fresh = await wrong('fresh@x.example', '10.0.3.1');
    expect([fresh.statusCode, fresh.headers['retry-after']]).toEqual([429, '30']);
    expect((await right('10.0.3.1')).statusCode).toBe(429);
    expect((await right('10.0.3.2')).statusCode).toBe(200);
  });

  it('count attempts still in flight, so a burst gets no more than the free failures', async () => {
    await open();
    const codes = await statuses(Array.from({ length: 12 }, () => wrong(CLIENT.email, '10.0.4.1')));
    expect(codes.filter((c) => c === 401)).toHaveLength(limits.pairFreeFailures);
    expect(codes.filter((c) => c === 429)).toHaveLength(12 - limits.pairFreeFailures);
  });

  it('forget failures a day after the last one', async () => {
    await open();
    await failTimes(limits.pairFreeFailures, CLIENT.email, '10.0.0.1');
    clock.advance(limits.memoryMs + 1000);
    expect(await failTimes(limits.pairFreeFailures, CLIENT.email, '10.0.0.1')).toEqual([401, 401, 401]);
    expect((await wrong(CLIENT.email, '10.0.0.1')).statusCode).toBe(429);
  });

  it('survive a restart', async () => {
    await open();
    await failTimes(limits.pairFreeFailures, CLIENT.email, '10.0.0.1');
    await close();
    await open(false);
    const blocked = await right('10.0.0.1');
    expect([blocked.statusCode, blocked.headers['retry-after']]).toEqual([429, '30']);
  });
});
