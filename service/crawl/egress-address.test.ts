import { describe, expect, it } from 'vitest';
import { addressBytes, AllowList, classifyAddress } from './egress-address.ts';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['224.0.0.251', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fc00::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'reserved'],
    ['3fff::1', null],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:2', 'loopback'],
    ['::ffff:10.0.0.5', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:0:192.168.0.1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['64:ff9b:1::1', 'reserved'],
    ['2002:a00:1::1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    // Teredo: the server 65.54.227.120 is public, the client ~3f57:fefe = 192.168.1.1 is not.
    ['2001:0:4136:e378:8000:63bf:3f57:fefe', 'private'],
    ['::ffff:8.8.8.8', null],
    ['2002:808:808::1', null],
    ['8.8.8.8', null],
    ['1.1.1.1', null],
    ['100.63.255.255', null],
    ['172.32.0.1', null],
    ['2606:4700::1111', null],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('reads every IPv6 spelling to the same bytes', () => {
    expect(addressBytes('::ffff:127.0.0.1')).toEqual(addressBytes('0:0:0:0:0:ffff:7f00:1'));
    expect(addressBytes('fe80::1')?.length).toBe(16);
    expect(addressBytes('not-an-ip')).toBeNull();
    expect(classifyAddress('example.test')).toBeNull();
  });
});

describe('AllowList', () => {
  const list = new AllowList(['127.0.0.1/32', '10.1.0.0/16', '192.168.5.5', 'fd00::/8', 'Intranet.Example.', ' ']);

  it('opens addresses in its CIDRs, in IPv4-mapped form too, and nothing next to them', () => {
    expect(list.hasAddress('127.0.0.1')).toBe(true);
    expect(list.hasAddress('::ffff:127.0.0.1')).toBe(true);
    expect(list.hasAddress('127.0.0.2')).toBe(false);
    expect(list.hasAddress('10.1.255.255')).toBe(true);
    expect(list.hasAddress('10.2.0.0')).toBe(false);
    expect(list.hasAddress('192.168.5.5')).toBe(true);
    expect(list.hasAddress('192.168.5.6')).toBe(false);
    expect(list.hasAddress('fd12::1')).toBe(true);
    expect(list.hasAddress('fe80::1')).toBe(false);
  });

  it('opens host names exactly, whatever their case or final dot', () => {
    expect(list.hasHost('intranet.example')).toBe(true);
    expect(list.hasHost('INTRANET.example.')).toBe(true);
    expect(list.hasHost('www.intranet.example')).toBe(false);
    expect(list.hasHost('127.0.0.1')).toBe(false);
  });

  it.each([
    ['10.0.0.0/33', '"10.0.0.0/33" is not a valid CIDR'],
    ['10.0.0.0/x', '"10.0.0.0/x" is not a valid CIDR'],
    ['::/129', '"::/129" is not a valid CIDR'],
    ['10.0.0.0/8/8', '"10.0.0.0/8/8" is not a valid CIDR'],
    ['http://intranet', '"http://intranet" is neither a CIDR, an IP address nor a host name'],
    ['bad host', '"bad host" is neither a CIDR, an IP address nor a host name'],
  ])('refuses %s, naming it', (entry, message) => {
    expect(() => new AllowList([entry])).toThrow(message);
  });
});
