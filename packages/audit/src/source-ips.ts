import { isIP } from 'node:net';

/** Go prints IPv4-mapped IPv6 addresses (Node's dual-stack peers) in dotted form. */
function canonical(ip: string): string | undefined {
  const trimmed = ip.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  if (mapped) return mapped[1];
  return isIP(trimmed) !== 0 ? trimmed.toLowerCase() : undefined;
}

/**
 * kube's utilnet.SourceIPs: the X-Forwarded-For addresses, then X-Real-Ip unless already listed,
 * then the peer unless it is the last one listed. Unparsable entries are skipped.
 */
export function sourceIPs(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  peer: string | undefined,
): string[] {
  const ips: string[] = [];
  const xff = headers['x-forwarded-for'];
  const xffText = Array.isArray(xff) ? xff.join(',') : xff;
  if (xffText) {
    for (const part of xffText.split(',')) {
      const ip = canonical(part);
      if (ip) ips.push(ip);
    }
  }
  const realRaw = headers['x-real-ip'];
  const real = canonical(Array.isArray(realRaw) ? (realRaw[0] ?? '') : (realRaw ?? ''));
  if (real && !ips.includes(real)) ips.push(real);
  const remote = peer ? canonical(peer) : undefined;
  if (remote && ips[ips.length - 1] !== remote) ips.push(remote);
  return ips;
}
