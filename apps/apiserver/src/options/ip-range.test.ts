import { describe, expect, it } from 'vitest';
import { formatIpNet, indexedIp, ipNetSize, parseIpNet } from './ip-range.js';

describe('parseIpNet', () => {
  it.each([
    ['10.0.0.0/24', '10.0.0.0/24', 4, 256n, '10.0.0.1'],
    ['10.0.0.7/24', '10.0.0.0/24', 4, 256n, '10.0.0.1'],
    ['192.168.1.1/32', '192.168.1.1/32', 4, 1n, '192.168.1.2'],
    ['fd00::/108', 'fd00::/108', 6, 1n << 20n, 'fd00::1'],
    ['FD00:0:0:0:0:0:0:5/112', 'fd00::/112', 6, 65536n, 'fd00::1'],
    ['2001:db8:0:1::/64', '2001:db8:0:1::/64', 6, 1n << 64n, '2001:db8:0:1::1'],
    ['::ffff:10.1.2.3/120', '::ffff:a01:200/120', 6, 256n, '::ffff:a01:201'],
    ['1:0:0:2:0:0:0:3/128', '1:0:0:2::3/128', 6, 1n, '1:0:0:2::4'],
    ['::/0', '::/0', 6, 1n << 128n, '::1'],
  ])('%s', (text, canonical, family, size, first) => {
    const net = parseIpNet(text);
    expect(formatIpNet(net)).toBe(canonical);
    expect(net.family).toBe(family);
    expect(ipNetSize(net)).toBe(size);
    expect(indexedIp(net, 1)).toBe(first);
  });

  it.each([['10.0.0.0'], ['10.0.0.0/33'], ['fd00::/129'], ['nope/8'], ['']])('rejects %j', (text) => {
    expect(() => parseIpNet(text)).toThrow('invalid CIDR address');
  });
});
