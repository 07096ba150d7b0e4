import type { Pod } from './types.js';

export const BIND_ALL_HOST_IP = '0.0.0.0';

export interface HostPort {
  readonly ip: string;
  readonly protocol: string;
  readonly port: number;
}

/** The host ports a pod's containers ask for, with kube's defaults (all IPs, TCP). */
export function podHostPorts(pod: Pod): HostPort[] {
  const out: HostPort[] = [];
  for (const c of pod.spec.containers ?? []) {
    for (const p of c.ports ?? []) {
      if (p.hostPort === undefined || p.hostPort <= 0) continue;
      out.push({
        ip: p.hostIP || BIND_ALL_HOST_IP,
        protocol: p.protocol || 'TCP',
        port: p.hostPort,
      });
    }
  }
  return out;
}

/**
 * kube's HostPortInfo: ip → (protocol, port) in use. Unlike kube's set this counts users, so two
 * pods on one port (possible after a race between schedulers) do not free it when one leaves.
 */
export class HostPortInfo {
  private readonly byIp = new Map<string, Map<string, number>>();

  add(p: HostPort): void {
    let m = this.byIp.get(p.ip);
    if (!m) this.byIp.set(p.ip, (m = new Map<string, number>()));
    const k = `${p.protocol}/${p.port}`;
    m.set(k, (m.get(k) ?? 0) + 1);
  }

  /** Frees every port (a scratch node copy being reused). */
  clear(): void {
    this.byIp.clear();
  }

  remove(p: HostPort): void {
    const m = this.byIp.get(p.ip);
    const k = `${p.protocol}/${p.port}`;
    const n = m?.get(k);
    if (!m || n === undefined) return;
    if (n > 1) m.set(k, n - 1);
    else m.delete(k);
    if (m.size === 0) this.byIp.delete(p.ip);
  }

  /**
   * Whether `p` collides with a port in use: 0.0.0.0 collides with the same protocol/port on any IP,
   * a specific IP with that IP and with 0.0.0.0.
   */
  conflicts(p: HostPort): boolean {
    const k = `${p.protocol}/${p.port}`;
    if (p.ip === BIND_ALL_HOST_IP) {
      for (const m of this.byIp.values()) if (m.has(k)) return true;
      return false;
    }
    return (this.byIp.get(BIND_ALL_HOST_IP)?.has(k) ?? false) || (this.byIp.get(p.ip)?.has(k) ?? false);
  }

  get size(): number {
    let n = 0;
    for (const m of this.byIp.values()) n += m.size;
    return n;
  }
}
