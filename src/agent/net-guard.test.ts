import { describe, expect, it } from 'vitest';
import { addressProblem, embeddedV4, hostNameProblem } from './net-guard.js';

describe('addressProblem', () => {
  it('refuses loopback, private, link-local, metadata, unspecified, multicast and reserved addresses', () => {
    for (const a of [
      '127.0.0.1',
      '127.9.9.9',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fc00::1',
      'fd00:ec2::254',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::10.0.0.1',
      // Every other spelling of an IPv4 address inside IPv6 is judged as that address too.
      '::127.0.0.1',
      '::7f00:1',
      '0:0:0:0:0:ffff:7f00:1',
      '::ffff:0:127.0.0.1',
      '::ffff:0:a00:1',
      '64:ff9b:1:7f00:0:100::',
      '2002:7f00:1::1',
      '2002:c0a8:101::',
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      'fe80::1%eth0',
    ])
      expect(addressProblem(a), a).toBeDefined();
    expect(addressProblem('169.254.169.254')).toMatch(/metadata/);
  });

  it('lets public addresses through, including the neighbours of the private ranges', () => {
    for (const a of [
      '93.184.215.14',
      '8.8.8.8',
      '172.15.255.255',
      '172.32.0.1',
      '192.169.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      '::8.8.8.8',
      '2002:808:808::1',
    ])
      expect(addressProblem(a), a).toBeUndefined();
  });

  it('reads the IPv4 address inside an IPv6 one', () => {
    expect(embeddedV4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedV4('::FFFF:10.0.0.1')).toBe('10.0.0.1');
    expect(embeddedV4('2001:db8::1')).toBeUndefined();
    expect(embeddedV4('::127.0.0.1')).toBe('127.0.0.1');
    expect(embeddedV4('2002:7f00:1::')).toBe('127.0.0.1');
    expect(embeddedV4('64:ff9b:1:7f00:0:100::')).toBe('127.0.0.1');
    expect(embeddedV4('2001:0:4136:e378:8000:63bf:80ff:fffe')).toBe('127.0.0.1');
    expect(addressProblem('::1')).toMatch(/loopback \(::1\)/);
  });
});

describe('hostNameProblem', () => {
  it('refuses names of this machine and of metadata services, whatever DNS would say', () => {
    for (const n of ['localhost', 'LOCALHOST.', 'app.localhost', 'metadata.google.internal', 'metadata'])
      expect(hostNameProblem(n), n).toBeDefined();
    expect(hostNameProblem('example.org')).toBeUndefined();
  });
});
