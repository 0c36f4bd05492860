/**
 * Which addresses a crawl may connect to: public unicast only. Every range that reaches the machine itself, its
 * network or its cloud (loopback, RFC 1918, link-local with the metadata address, CGNAT, unique-local) is refused, as
 * are unspecified, multicast, broadcast and reserved ones, and IPv6 forms that carry an IPv4 address (mapped,
 * compatible, NAT64, 6to4, Teredo) are judged by the IPv4 address they carry.
 */
import net from 'node:net';

export type AddressKind =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'reserved'
  | 'unique-local';

/** How a refusal names each kind: "10.0.0.5 is a private address". */
export const KIND_TEXT: Record<AddressKind, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  'link-local': 'a link-local address, the cloud metadata range',
  shared: 'a shared (CGNAT) address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved address',
  'unique-local': 'a unique-local address',
};

/** [first address, prefix length, kind]; the first match wins, so narrower ranges come first. */
const IPV4_RANGES: [string, number, AddressKind][] = [
  ['255.255.255.255', 32, 'broadcast'],
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const IPV6_RANGES: [string, number, AddressKind][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b:1::', 48, 'reserved'],
  ['100::', 64, 'reserved'],
  ['2001:db8::', 32, 'reserved'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'],
  ['ff00::', 8, 'multicast'],
];

/** IPv6 prefixes whose addresses carry an IPv4 address, and the byte it starts at. */
const EMBEDDING: [string, number, number][] = [
  ['::ffff:0:0', 96, 12],
  ['::ffff:0:0:0', 96, 12],
  ['::', 96, 12],
  ['64:ff9b::', 96, 12],
  ['2002::', 16, 2],
];
const TEREDO = '2001::';

/** The 4 or 16 bytes of an IP address, or null when it is not one. */
export function addressBytes(ip: string): Uint8Array | null {
  const text = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = net.isIP(text);
  if (family === 4) return Uint8Array.from(text.split('.').map(Number));
  if (family !== 6) return null;
  const words: number[] = [];
  const [head = '', tail] = text.toLowerCase().split('::');
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const first = parse(head);
  const last = tail === undefined ? [] : parse(tail);
  words.push(...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last);
  return Uint8Array.from(words.flatMap((word) => [word >> 8, word & 0xff]));
}

function inPrefix(bytes: Uint8Array, prefix: Uint8Array, bits: number): boolean {
  if (bytes.length !== prefix.length) return false;
  for (let i = 0; i < bits; i += 8) {
    const mask = bits - i >= 8 ? 0xff : (0xff << (8 - (bits - i))) & 0xff;
    if (((bytes[i / 8] ?? 0) & mask) !== ((prefix[i / 8] ?? 0) & mask)) return false;
  }
  return true;
}

const compile = (ranges: [string, number, AddressKind][]): [Uint8Array, number, AddressKind][] =>
  ranges.map(([ip, bits, kind]) => [addressBytes(ip) as Uint8Array, bits, kind]);
const V4 = compile(IPV4_RANGES);
const V6 = compile(IPV6_RANGES);
const EMBEDDED = EMBEDDING.map(([ip, bits, at]) => [addressBytes(ip) as Uint8Array, bits, at] as const);
const TEREDO_PREFIX = addressBytes(TEREDO) as Uint8Array;
const GLOBAL_UNICAST = addressBytes('2000::') as Uint8Array;

const ipv4Text = (bytes: Uint8Array): string => Array.from(bytes).join('.');

/** The IPv4 addresses an IPv6 address carries (none for IPv4 and plain IPv6). */
export function embeddedIpv4(bytes: Uint8Array): string[] {
  if (bytes.length !== 16 || V6.slice(0, 2).some(([prefix, bits]) => inPrefix(bytes, prefix, bits))) return [];
  for (const [prefix, bits, at] of EMBEDDED) {
    if (inPrefix(bytes, prefix, bits)) return [ipv4Text(bytes.subarray(at, at + 4))];
  }
  if (inPrefix(bytes, TEREDO_PREFIX, 32)) {
    const client = bytes.subarray(12, 16).map((byte) => ~byte & 0xff);
    return [ipv4Text(bytes.subarray(4, 8)), ipv4Text(client)];
  }
  return [];
}

/** What kind of non-public address `ip` is, or null when it is public (or not an address). */
export function classifyAddress(ip: string): AddressKind | null {
  const bytes = addressBytes(ip);
  if (bytes === null) return null;
  if (bytes.length === 4) return V4.find(([prefix, bits]) => inPrefix(bytes, prefix, bits))?.[2] ?? null;
  const carried = embeddedIpv4(bytes);
  if (carried.length > 0) return carried.map(classifyAddress).find((kind) => kind !== null) ?? null;
  const kind = V6.find(([prefix, bits]) => inPrefix(bytes, prefix, bits))?.[2];
  if (kind !== undefined) return kind;
  return inPrefix(bytes, GLOBAL_UNICAST, 3) ? null : 'reserved';
}

/** An operator's allow-list: CIDRs (a bare address is one host) and host names. */
export class AllowList {
  private readonly ranges: [Uint8Array, number][] = [];
  private readonly hosts = new Set<string>();

  /** Throws on an entry that is neither a CIDR, an address nor a host name, naming it. */
  constructor(readonly entries: readonly string[]) {
    for (const raw of entries) {
      const entry = raw.trim().toLowerCase().replace(/\.$/, '');
      if (entry === '') continue;
      const [ip = '', length, extra] = entry.split('/');
      const bytes = addressBytes(ip);
      if (bytes !== null) {
        const max = bytes.length * 8;
        const bits = length === undefined ? max : /^\d+$/.test(length) ? Number(length) : NaN;
        if (extra !== undefined || !(bits >= 0 && bits <= max)) throw new Error(`"${raw}" is not a valid CIDR`);
        this.ranges.push([bytes, bits]);
      } else if (/^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(entry)) {
        this.hosts.add(entry);
      } else {
        throw new Error(`"${raw}" is neither a CIDR, an IP address nor a host name`);
      }
    }
  }

  hasHost(hostname: string): boolean {
    return this.hosts.has(hostname.toLowerCase().replace(/\.$/, ''));
  }

  /** The address, or the IPv4 address it carries, is in one of the CIDRs. */
  hasAddress(ip: string): boolean {
    const bytes = addressBytes(ip);
    if (bytes === null) return false;
    const forms = [bytes, ...embeddedIpv4(bytes).map((v4) => addressBytes(v4) as Uint8Array)];
    return forms.some((form) => this.ranges.some(([prefix, bits]) => inPrefix(form, prefix, bits)));
  }
}
