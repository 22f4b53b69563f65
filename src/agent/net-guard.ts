/**
 * Which addresses an agent's web request may reach: not this machine (loopback, 0.0.0.0),
 * not the private networks around it (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7),
 * not link-local (169.254/16 with the cloud metadata service, fe80::/10), not multicast or
 * reserved ranges. An IPv4 address written inside IPv6 (::ffff:127.0.0.1, ::127.0.0.1,
 * 64:ff9b::7f00:1, 6to4, Teredo) is judged as the IPv4 address it is. Pure.
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

/** The 16 bytes of an IPv6 address (any spelling: `::`, a dotted tail, a zone), or undefined. */
export function ipv6Bytes(address: string): number[] | undefined {
  const plain = address.replace(/%.*$/, '').toLowerCase();
  if (isIP(plain) !== 6) return undefined;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(plain);
  const hex = dotted
    ? plain.slice(0, dotted.index) + [1, 3].map((i) => (Number(dotted[i]) * 256 + Number(dotted[i + 1])).toString(16)).join(':')
    : plain;
  const [head = '', tail] = hex.split('::');
  const groups = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const [front, back] = [groups(head), tail === undefined ? [] : groups(tail)];
  const words = [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  return words.flatMap((w) => [w >> 8, w & 255]);
}

const startsWith = (bytes: number[], prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
const ZEROS = (n: number) => Array<number>(n).fill(0);

/**
 * The IPv4 address an IPv6 one embeds, if any: IPv4-compatible ::a.b.c.d, IPv4-mapped
 * ::ffff:a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4
 * 2002:a.b.c.d::/16 and Teredo 2001::/32 (the client's address, inverted). Each may lead to the
 * IPv4 address through a stack, a translator or a relay, so each is judged as that address.
 */
export function embeddedV4(address: string): string | undefined {
  const b = ipv6Bytes(address);
  if (!b) return undefined;
  const last = b.slice(12);
  let v4: number[] | undefined;
  if (startsWith(b, ZEROS(12)) && !startsWith(last, [0, 0]))
    v4 = last; // leaves :: and ::1 to the IPv6 table
  else if (startsWith(b, [...ZEROS(10), 255, 255]) || startsWith(b, [...ZEROS(8), 255, 255, 0, 0])) v4 = last;
  else if (startsWith(b, [0, 0x64, 0xff, 0x9b, ...ZEROS(8)])) v4 = last;
  else if (startsWith(b, [0, 0x64, 0xff, 0x9b, 0, 1]))
    v4 = b.slice(6, 8).concat(b.slice(9, 11)); // RFC 6052 /48: bits 64-71 are zero
  else if (startsWith(b, [0x20, 0x02])) v4 = b.slice(2, 6);
  else if (startsWith(b, [0x20, 0x01, 0, 0])) v4 = last.map((x) => x ^ 255);
  return v4?.join('.');
}

/** Why an IP address may not be reached, or undefined when it is a public address. */
export function addressProblem(address: string): string | undefined {
  if (isIP(address) === 4) return V4_RANGES.find((r) => r.block.check(address, 'ipv4'))?.why;
  const plain = address.replace(/%.*$/, '');
  if (isIP(plain) !== 6) return 'not an IP address';
  // The IPv6 table first: :: and ::1 are themselves, not 0.0.0.0 and 0.0.0.1.
  const v6 = V6_RANGES.find((r) => r.block.check(plain, 'ipv6'))?.why;
  const v4 = embeddedV4(address);
  return v6 ?? (v4 ? V4_RANGES.find((r) => r.block.check(v4, 'ipv4'))?.why : undefined);
}

/** Why a host name may not be asked for at all, before any DNS lookup. */
export function hostNameProblem(host: string): string | undefined {
  const name = host.toLowerCase().replace(/\.$/, '');
  return BLOCKED_NAMES.some((re) => re.test(name)) ? 'a name for this machine or a metadata service' : undefined;
}
