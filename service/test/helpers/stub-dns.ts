/**
 * Test helper: a DNS server on UDP 127.0.0.1 that answers A queries for the names a test chooses (NXDOMAIN for
 * others, no data for AAAA), or never answers at all, so the crawler's resolver is tested with no public name asked.
 */
import dgram from 'node:dgram';

export interface StubDns {
  /** `127.0.0.1:PORT`, for CRAWL_DNS_SERVERS or EgressPolicy.dnsServers. */
  server: string;
  /** Queries received, by name (lower case), A and AAAA together. */
  queries: Map<string, number>;
  close(): Promise<void>;
}

/**
 * `answer(name, n)` gives the IPv4 address for the n-th A query of `name` (from 1), or null for NXDOMAIN;
 * `isSilent` drops every query unanswered.
 */
export async function startStubDns(
  answer: (name: string, n: number) => string | null,
  { isSilent = false } = {},
): Promise<StubDns> {
  const socket = dgram.createSocket('udp4');
  const queries = new Map<string, number>();
  const asked = new Map<string, number>();
  socket.on('message', (message, remote) => {
    const question = readQuestion(message);
    if (question === null) return;
    queries.set(question.name, (queries.get(question.name) ?? 0) + 1);
    if (isSilent) return;
    let address: string | null = null;
    if (question.type === TYPE_A) {
      const n = (asked.get(question.name) ?? 0) + 1;
      asked.set(question.name, n);
      address = answer(question.name, n);
    } else {
      address = answer(question.name, 0) === null ? null : '';
    }
    socket.send(reply(message, question.end, address), remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    queries,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

const TYPE_A = 1;

function readQuestion(message: Buffer): { name: string; type: number; end: number } | null {
  if (message.length < 17) return null;
  const labels: string[] = [];
  let at = 12;
  while (at < message.length && message[at] !== 0) {
    const length = message[at] as number;
    labels.push(message.subarray(at + 1, at + 1 + length).toString('ascii'));
    at += 1 + length;
  }
  if (at + 5 > message.length) return null;
  return { name: labels.join('.').toLowerCase(), type: message.readUInt16BE(at + 1), end: at + 5 };
}

/** The query's header and question with one A record (address), none ('' is no data) or NXDOMAIN (null). */
function reply(query: Buffer, questionEnd: number, address: string | null): Buffer {
  const header = Buffer.from(query.subarray(0, questionEnd));
  header.writeUInt16BE(0x8180 | (address === null ? 3 : 0), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(address ? 1 : 0, 6);
  header.writeUInt32BE(0, 8);
  if (!address) return header;
  const record = Buffer.alloc(16);
  record.writeUInt16BE(0xc00c, 0);
  record.writeUInt16BE(TYPE_A, 2);
  record.writeUInt16BE(1, 4);
  record.writeUInt32BE(60, 6);
  record.writeUInt16BE(4, 10);
  address.split('.').forEach((part, i) => record.writeUInt8(Number(part), 12 + i));
  return Buffer.concat([header, record]);
}
