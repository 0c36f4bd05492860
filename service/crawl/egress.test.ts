import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubDns, type StubDns } from '../test/helpers/stub-dns.ts';
import { checkEgressPolicy, Egress, egressPolicyFromEnv } from './egress.ts';

/** Never connected to: only its classification matters. */
const PUBLIC = '192.0.3.7';

describe('Egress', () => {
  let dns: StubDns;
  let silent: StubDns;
  let internal: http.Server;
  let internalHits = 0;
  let lastHost = '';
  let port = 0;

  beforeAll(async () => {
    dns = await startStubDns((name, n) => {
      if (name === 'public.test') return PUBLIC;
      if (name === 'evil.test') return '10.0.0.5';
      if (name === 'intranet.test') return '10.0.0.5';
      if (name === 'site.test') return '127.0.0.1';
      if (name === 'internal.test') return '127.0.0.2';
      if (name === 'secure.test') return '127.0.0.1';
      if (name === 'rebind.test') return n === 1 ? PUBLIC : '127.0.0.2';
      return null;
    });
    silent = await startStubDns(() => null, { isSilent: true });
    internal = http.createServer((req, res) => {
      internalHits++;
      lastHost = req.headers.host ?? '';
      res.end('internal');
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.2', resolve));
    port = (internal.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await Promise.all([dns.close(), silent.close(), new Promise((resolve) => internal.close(resolve))]);
  });

  const egress = (allow: string[] = []): Egress => new Egress({ allow, dnsServers: [dns.server] });
  const refusal = (e: Egress, host: string): Promise<string> =>
    e.address(host).then(
      (answer) => `allowed ${answer.address}`,
      (error: Error) => error.message,
    );

  it('resolves through its own DNS servers and refuses names with a non-public answer, saying why', async () => {
    const e = egress();
    expect(await e.address('public.test')).toEqual({ address: PUBLIC, family: 4 });
    expect(await refusal(e, 'evil.test')).toBe(
      'refused by the egress policy: evil.test resolves to 10.0.0.5, a private address (set CRAWL_ALLOW to allow it)',
    );
    expect(await refusal(e, 'localhost')).toBe(
      'refused by the egress policy: localhost resolves to 127.0.0.1, a loopback address (set CRAWL_ALLOW to allow it)',
    );
    expect(await refusal(e, '[::ffff:169.254.169.254]')).toBe(
      'refused by the egress policy: ::ffff:169.254.169.254 is a link-local address, the cloud metadata range ' +
        '(set CRAWL_ALLOW to allow it)',
    );
    expect(await refusal(e, 'nope.test')).toBe('ENOTFOUND');
    expect(dns.queries.has('localhost')).toBe(false);
  });

  it('opens CIDRs and host names from the allow-list; a name is trusted, other names still are judged', async () => {
    const e = egress(['127.0.0.1/32', 'intranet.test']);
    expect(await refusal(e, 'intranet.test')).toBe('allowed 10.0.0.5');
    expect(await refusal(e, 'site.test')).toBe('allowed 127.0.0.1');
    expect(await refusal(e, 'localhost')).toBe('allowed 127.0.0.1');
    expect(await refusal(e, '127.0.0.2')).toMatch(/^refused by the egress policy: 127\.0\.0\.2 is a loopback/);
    expect(await refusal(e, 'evil.test')).toMatch(/^refused by the egress policy: evil\.test resolves to 10\.0\.0\.5/);
  });

  it('asks once per name for the whole crawl, so a second answer (DNS rebinding) is never used', async () => {
    const e = egress();
    for (let i = 0; i < 3; i++) expect(await e.address('rebind.test')).toEqual({ address: PUBLIC, family: 4 });
    expect(dns.queries.get('rebind.test')).toBe(1);
  });

  it('gives up on a DNS server that never answers, once per name', async () => {
    const e = new Egress({ allow: [], dnsServers: [silent.server], dnsTimeoutMs: 300 });
    const started = performance.now();
    expect(await refusal(e, 'slow.test')).toBe('DNS timeout');
    expect(performance.now() - started).toBeLessThan(3000);
    const again = performance.now();
    expect(await refusal(e, 'slow.test')).toBe('DNS timeout');
    expect(performance.now() - again).toBeLessThan(50);
  });

  it('connects an undici Agent only to checked addresses, keeping the name in the Host header', async () => {
    const refused = new Agent({ connect: egress(['site.test']).connector(1000) });
    const before = internalHits;
    await expect(
      refused.request({ origin: `http://127.0.0.2:${port}`, path: '/admin', method: 'GET' }),
    ).rejects.toThrow(/refused by the egress policy: 127\.0\.0\.2 is a loopback address/);
    expect(internalHits).toBe(before);
    await refused.close();

    const allowed = new Agent({ connect: egress(['127.0.0.0/8']).connector(1000) });
    const response = await allowed.request({ origin: `http://internal.test:${port}`, path: '/', method: 'GET' });
    expect(await response.body.text()).toBe('internal');
    expect(internalHits).toBe(before + 1);
    expect(lastHost).toBe(`internal.test:${port}`);
    await allowed.close();
  });

  it('speaks TLS to the checked address under the host name: SNI and the certificate are the name’s', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-egress-tls-'));
    const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
        ...['-subj', '/CN=secure.test', '-addext', 'subjectAltName=DNS:secure.test', '-keyout', key, '-out', cert],
      ],
      { stdio: 'ignore' },
    );
    const names: string[] = [];
    const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (_req, res) =>
      res.end('secure'),
    );
    server.on('secureConnection', (socket: { servername?: string | false }) => names.push(String(socket.servername)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `https://secure.test:${(server.address() as AddressInfo).port}`;
    const agent = new Agent({ connect: egress(['127.0.0.1/32']).connector(1000, { ca: fs.readFileSync(cert) }) });
    try {
      const response = await agent.request({ origin, path: '/', method: 'GET' });
      expect(await response.body.text()).toBe('secure');
      expect(names).toEqual(['secure.test']);
    } finally {
      await agent.close();
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads CRAWL_ALLOW and CRAWL_DNS_SERVERS, and names the setting an entry is wrong in', () => {
    expect(
      egressPolicyFromEnv({ CRAWL_ALLOW: ' 127.0.0.1/32, intranet.example ,', CRAWL_DNS_SERVERS: '127.0.0.1:5353' }),
    ).toEqual({ allow: ['127.0.0.1/32', 'intranet.example'], dnsServers: ['127.0.0.1:5353'] });
    expect(egressPolicyFromEnv({})).toEqual({ allow: [], dnsServers: [] });
    expect(() => checkEgressPolicy({ allow: ['10.0.0.0/99'], dnsServers: [] })).toThrow(
      'CRAWL_ALLOW: "10.0.0.0/99" is not a valid CIDR',
    );
    expect(() => checkEgressPolicy({ allow: [], dnsServers: ['not a server'] })).toThrow(/^CRAWL_DNS_SERVERS: /);
  });
});
