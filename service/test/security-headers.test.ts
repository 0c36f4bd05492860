/**
 * Security headers per deployment: the ones that only make sense over https (COOP, HSTS, Origin-Agent-Cluster)
 * are sent only when the service is behind https, so a plain-HTTP install logs no browser errors.
 */
import { describe, expect, it } from 'vitest';
import { TestClock, buildTestApp, openStack, tempDir } from './auth-fixture.ts';

const HTTPS_ONLY = ['cross-origin-opener-policy', 'strict-transport-security', 'origin-agent-cluster'];
const ALWAYS = ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy'];

async function headersWith(env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const stack = await openStack(tempDir(), { clock: new TestClock(new Date('2025-03-03T09:00:00Z')).fn, env });
  const app = await buildTestApp(stack);
  try {
    const pages = await Promise.all(['/api/health', '/technical-health-check'].map((url) => app.inject({ url })));
    expect(pages[0]!.statusCode).toBe(200);
    // The page and the API answer with the same headers.
    for (const name of [...HTTPS_ONLY, ...ALWAYS]) expect(pages[1]!.headers[name]).toEqual(pages[0]!.headers[name]);
    return pages[0]!.headers;
  } finally {
    await app.close();
    await stack.close();
  }
}

describe('security headers', () => {
  it('over plain HTTP: none of the https-only headers', async () => {
    for (const env of [{}, { PUBLIC_URL: 'http://thc.agency.example' }, { TRUST_PROXY: '0' }]) {
      const headers = await headersWith(env);
      for (const name of HTTPS_ONLY)
        expect({ env, name, value: headers[name] }).toEqual({ env, name, value: undefined });
      for (const name of ALWAYS) expect(headers[name]).toBeTruthy();
    }
  });

  it('behind https (TRUST_PROXY=1 or an https PUBLIC_URL): COOP, HSTS and Origin-Agent-Cluster too', async () => {
    for (const env of [{ TRUST_PROXY: '1' }, { PUBLIC_URL: 'https://thc.agency.example/' }]) {
      const headers = await headersWith(env);
      expect(headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      expect(headers['origin-agent-cluster']).toBe('?1');
      for (const name of ALWAYS) expect(headers[name]).toBeTruthy();
    }
  });
});
