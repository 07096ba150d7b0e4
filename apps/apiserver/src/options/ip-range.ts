import { isIP } from 'node:net';
import { parseCidr } from '@keel/flags';

/** An IP network with its host bits cleared, as Go's net.ParseCIDR returns it. */
export interface IpNet {
  readonly family: 4 | 6;
  readonly network: bigint;
  readonly prefix: number;
}

const BITS = { 4: 32, 6: 128 } as const;

function ipv4ToBigInt(ip: string): bigint {
  return ip.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n);
}

function ipv6ToBigInt(ip: string): bigint {
  let text = ip;
  // An embedded dotted quad (::ffff:1.2.3.4) stands for the last two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const v4 = ipv4ToBigInt(dotted[1]);
    text = text.slice(0, -dotted[1].length) + `${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros =
    tail === undefined ? [] : new Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].reduce(
    (acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)),
    0n,
  );
}

/** RFC 5952 text: lower case, the longest run of two or more zero groups written `::`. */
function formatIpv6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt((7 - i) * 16)) & 0xffffn));
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

export function formatIp(family: 4 | 6, value: bigint): string {
  if (family === 6) return formatIpv6(value);
  return [24n, 16n, 8n, 0n].map((shift) => ((value >> shift) & 0xffn).toString()).join('.');
}

/** Parses a CIDR like Go's ParseCIDR: the address may have host bits set; they are cleared. Throws on bad text. */
export function parseIpNet(text: string): IpNet {
  const canonical = parseCidr(text);
  const slash = canonical.lastIndexOf('/');
  const ip = canonical.slice(0, slash);
  const prefix = Number(canonical.slice(slash + 1));
  const family = isIP(ip) === 4 ? 4 : 6;
  const bits = BigInt(BITS[family]);
  const value = family === 4 ? ipv4ToBigInt(ip) : ipv6ToBigInt(ip);
  const hostBits = bits - BigInt(prefix);
  const network = (value >> hostBits) << hostBits;
  return { family, network, prefix };
}

export function formatIpNet(net: IpNet): string {
  return `${formatIp(net.family, net.network)}/${net.prefix}`;
}

/** Parses one IP address (v4, or v6 with an optional embedded dotted quad); undefined when it is none. */
export function parseIp(text: string): { family: 4 | 6; value: bigint } | undefined {
  const family = isIP(text);
  if (family === 4) return { family, value: ipv4ToBigInt(text) };
  if (family === 6) return { family, value: ipv6ToBigInt(text) };
  return undefined;
}

/** How many addresses the network holds. */
export function ipNetSize(net: IpNet): bigint {
  return 1n << BigInt(BITS[net.family] - net.prefix);
}

/** The n-th address of the network (utilnet.GetIndexedIP); the caller checks n < size. */
export function indexedIp(net: IpNet, n: number): string {
  return formatIp(net.family, net.network + BigInt(n));
}
