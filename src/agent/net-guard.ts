/**
 * Which addresses an agent's web request may reach: not this machine (loopback, 0.0.0.0),
 * not the private networks around it (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7),
 * not link-local (169.254/16 with the cloud metadata service, fe80::/10), not multicast or
 * reserved ranges. An IPv4 address written inside IPv6 (::ffff:127.0.0.1, 64:ff9b::7f00:1)
 * is judged as the IPv4 address it is. Pure.
 */
import { BlockList, isIP } from 'node:net';

const V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'this network (0.0.0.0/8)'],
  ['10.0.0.0', 8, 'a private network (10/8)'],
  ['100.64.0.0', 10, 'carrier-grade NAT (100.64/10)'],
  ['127.0.0.0', 8, 'loopback (127/8)'],
  ['169.254.0.0', 16, 'link-local (169.254/16, the cloud metadata service)'],
  ['172.16.0.0', 12, 'a private network (172.16/12)'],
  ['192.0.0.0', 24, 'IETF protocol assignments (192.0.0/24)'],
  ['192.168.0.0', 16, 'a private network (192.168/16)'],
  ['198.18.0.0', 15, 'benchmarking (198.18/15)'],
  ['224.0.0.0', 4, 'multicast (224/4)'],
  ['240.0.0.0', 4, 'reserved (240/4)'],
];
const V6: [string, number, string][] = [
  ['::', 128, 'the unspecified address (::)'],
  ['::1', 128, 'loopback (::1)'],
  ['fc00::', 7, 'a unique local network (fc00::/7)'],
  ['fe80::', 10, 'link-local (fe80::/10)'],
  ['ff00::', 8, 'multicast (ff00::/8)'],
];
/** Names that lead to this machine or to a cloud metadata service whatever DNS says. */
const BLOCKED_NAMES = [/^localhost$/, /\.localhost$/, /^metadata$/, /^metadata\.google\.internal$/, /^instance-data(\.ec2\.internal)?$/];

function ranges(list: [string, number, string][], type: 'ipv4' | 'ipv6'): { block: BlockList; why: string }[] {
  return list.map(([net, prefix, why]) => {
    const block = new BlockList();
    block.addSubnet(net, prefix, type);
    return { block, why };
  });
}
const V4_RANGES = ranges(V4, 'ipv4');
const V6_RANGES = ranges(V6, 'ipv6');

/** The IPv4 address an IPv6 one embeds (IPv4-mapped ::ffff:a.b.c.d or NAT64 64:ff9b::/96), if any. */
export function embeddedV4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const [hi, lo] = [parseInt(hex[1] as string, 16), parseInt(hex[2] as string, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Why an IP address may not be reached, or undefined when it is a public address. */
export function addressProblem(address: string): string | undefined {
  const v4 = isIP(address) === 4 ? address : embeddedV4(address);
  if (v4) return V4_RANGES.find((r) => r.block.check(v4, 'ipv4'))?.why;
  if (isIP(address) !== 6) return 'not an IP address';
  return V6_RANGES.find((r) => r.block.check(address, 'ipv6'))?.why;
}

/** Why a host name may not be asked for at all, before any DNS lookup. */
export function hostNameProblem(host: string): string | undefined {
  const name = host.toLowerCase().replace(/\.$/, '');
  return BLOCKED_NAMES.some((re) => re.test(name)) ? 'a name for this machine or a metadata service' : undefined;
}
