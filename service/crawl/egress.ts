/**
 * The egress policy: the one place that decides whether the crawler may connect, for every request a crawl makes
 * (pages, robots.txt, sitemaps, external checks, the renderer's page loads and subresources). Host names are resolved
 * here, with a timeout, through a resolver the tests can point at a loopback stub, every answer is checked, and the
 * connection goes to the checked address itself: nothing resolves the name a second time, so DNS rebinding cannot
 * swap in another address, and redirects are new requests that come through here again.
 *
 * Public addresses only, unless the operator's allow-list (CRAWL_ALLOW) opens a CIDR or a host name. A host name in
 * the list is trusted whatever it resolves to; a name not in it is judged by its addresses.
 */
import dns from 'node:dns';
import net from 'node:net';
import { buildConnector } from 'undici';
import { AllowList, classifyAddress, KIND_TEXT } from './egress-address.ts';

export interface EgressPolicy {
  /** CIDRs (a bare address is one host) and host names opened although their addresses are not public. */
  allow: string[];
  /** DNS servers as `host[:port]`; the system's (from /etc/resolv.conf) when empty. */
  dnsServers: string[];
  /** One DNS query's timeout (tried twice); 5 s by default. */
  dnsTimeoutMs?: number;
}

export const DNS_TIMEOUT_MS = 5000;
const DNS_TRIES = 2;
/** Host names whose answers a crawl keeps (the oldest go first). */
const DNS_CACHE_SIZE = 10_000;
export const REFUSED = 'refused by the egress policy';

/** Why a connection was not made: the row's fetch error, as it is. */
export class EgressError extends Error {
  override name = 'EgressError';
}

/** CRAWL_ALLOW (comma-separated CIDRs and host names) and CRAWL_DNS_SERVERS (comma-separated `host[:port]`). */
export function egressPolicyFromEnv(env: NodeJS.ProcessEnv): EgressPolicy {
  const list = (value: string | undefined): string[] =>
    (value ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
  return { allow: list(env.CRAWL_ALLOW), dnsServers: list(env.CRAWL_DNS_SERVERS) };
}

/** Throws an Error naming the setting and the entry that is wrong; the policy as given otherwise. */
export function checkEgressPolicy(
  policy: EgressPolicy,
  names = { allow: 'CRAWL_ALLOW', dns: 'CRAWL_DNS_SERVERS' },
): EgressPolicy {
  try {
    new AllowList(policy.allow);
  } catch (error) {
    throw new Error(`${names.allow}: ${(error as Error).message}`);
  }
  try {
    if (policy.dnsServers.length > 0) new dns.promises.Resolver().setServers(policy.dnsServers);
  } catch {
    throw new Error(`${names.dns}: "${policy.dnsServers.join(',')}" is not a list of host[:port] DNS servers`);
  }
  return policy;
}

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

const LOCALHOST: CheckedAddress = { address: '127.0.0.1', family: 4 };

export class Egress {
  private readonly allowList: AllowList;
  private readonly resolver: dns.promises.Resolver;
  private readonly answers = new Map<string, Promise<string[]>>();

  constructor(readonly policy: EgressPolicy) {
    checkEgressPolicy(policy);
    this.allowList = new AllowList(policy.allow);
    this.resolver = new dns.promises.Resolver({ timeout: policy.dnsTimeoutMs ?? DNS_TIMEOUT_MS, tries: DNS_TRIES });
    if (policy.dnsServers.length > 0) this.resolver.setServers(policy.dnsServers);
  }

  /**
   * The address to connect to for `host` (a name or an IP literal, IPv6 with or without brackets), checked against
   * the policy; an EgressError says why not (refused, DNS timeout, not found).
   */
  async address(host: string): Promise<CheckedAddress> {
    const hostname = host.replace(/^\[|\]$/g, '').toLowerCase();
    const family = net.isIP(hostname);
    if (family !== 0) {
      this.check(hostname, null);
      return { address: hostname, family: family as 4 | 6 };
    }
    const isLocalhost = hostname === 'localhost' || hostname.endsWith('.localhost');
    const addresses = isLocalhost ? [LOCALHOST.address] : await this.lookup(hostname);
    if (!this.allowList.hasHost(hostname)) for (const address of addresses) this.check(address, hostname);
    const address = addresses[0] as string;
    return { address, family: net.isIP(address) as 4 | 6 };
  }

  /**
   * An undici `connect` option: every connection of the agent goes to an address this policy checked. `tls` adds
   * options for https connections (a private CA).
   */
  connector(timeoutMs: number, tls: buildConnector.BuildOptions = {}): buildConnector.connector {
    const connect = buildConnector({ ...tls, timeout: timeoutMs });
    return (options, callback) => {
      this.address(options.hostname).then(
        // The name stays in `host`, so TLS still sends it as SNI and checks the certificate against it.
        ({ address }) => connect({ ...options, hostname: address }, callback),
        (error: unknown) => callback(error as Error, null),
      );
    };
  }

  private check(address: string, hostname: string | null): void {
    if (this.allowList.hasAddress(address)) return;
    const kind = classifyAddress(address);
    if (kind === null) return;
    const what =
      hostname === null ? `${address} is ${KIND_TEXT[kind]}` : `${hostname} resolves to ${address}, ${KIND_TEXT[kind]}`;
    throw new EgressError(`${REFUSED}: ${what} (set CRAWL_ALLOW to allow it)`);
  }

  /** A and else AAAA answers, asked once per crawl for each name (failures included), through the resolver. */
  private lookup(hostname: string): Promise<string[]> {
    let answer = this.answers.get(hostname);
    if (answer === undefined) {
      answer = this.resolve(hostname);
      answer.catch(() => undefined);
      if (this.answers.size >= DNS_CACHE_SIZE) this.answers.delete(this.answers.keys().next().value as string);
      this.answers.set(hostname, answer);
    }
    return answer;
  }

  private async resolve(hostname: string): Promise<string[]> {
    try {
      const v4 = await this.resolver.resolve4(hostname).catch((error: NodeJS.ErrnoException) => {
        if (error.code === dns.NODATA) return [];
        throw error;
      });
      const addresses = v4.length > 0 ? v4 : await this.resolver.resolve6(hostname);
      if (addresses.length === 0) throw new EgressError('ENOTFOUND');
      return addresses;
    } catch (error) {
      if (error instanceof EgressError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === dns.TIMEOUT) throw new EgressError('DNS timeout');
      if (code === dns.NOTFOUND || code === dns.NODATA) throw new EgressError('ENOTFOUND');
      throw new EgressError(`DNS ${code ?? (error as Error).message}`);
    }
  }

  /** Stops lookups in flight: they fail at once. */
  close(): void {
    this.resolver.cancel();
  }
}
