import { FieldPath, internalError, invalid, invalidValue, type FieldError } from '@keel/apimachinery';
import {
  isHeadless,
  needsNodePorts,
  normalizeClusterIPs,
  validateClusterIPFields,
  type Service,
  type ServiceSpec,
} from '@keel/coreapi';
import type { WriteHooks, WriteTransaction } from '../../registry/store-types.js';
import { AllocationError, type IPFamily, type ServiceRanges } from './ranges.js';

const SERVICE = { group: '', kind: 'Service' };
const familyOf = (ip: string): IPFamily => (ip.includes(':') ? 'IPv6' : 'IPv4');

/** What one write took (to give back on failure) and what it frees once stored. */
class Reservation implements WriteTransaction {
  readonly takenIPs: string[] = [];
  readonly takenPorts: number[] = [];
  readonly freeIPs: string[] = [];
  readonly freePorts: number[] = [];

  constructor(
    private readonly ranges: ServiceRanges,
    private readonly dryRun: boolean,
  ) {}

  private async give(ips: readonly string[], ports: readonly number[]): Promise<void> {
    if (this.dryRun) return;
    for (const [family, range] of this.ranges.ips) {
      await range.release(ips.filter((ip) => familyOf(ip) === family));
    }
    await this.ranges.nodePorts.release(ports);
  }

  commit(): Promise<void> {
    return this.give(this.freeIPs, this.freePorts);
  }

  revert(): Promise<void> {
    const ips = this.takenIPs.splice(0);
    const ports = this.takenPorts.splice(0);
    return this.give(ips, ports);
  }
}

const needsClusterIP = (s: ServiceSpec): boolean => s.type !== 'ExternalName';

/** Every node port a Service holds (health check port included). */
export function nodePortsOf(s: ServiceSpec): number[] {
  const ports = (s.ports ?? []).map((p) => p.nodePort ?? 0);
  if (s.healthCheckNodePort) ports.push(s.healthCheckNodePort);
  return [...new Set(ports.filter((p) => p > 0))];
}

/** Every cluster IP a Service holds ('None' is none). */
export function clusterIPsOf(s: ServiceSpec): string[] {
  if (!needsClusterIP(s)) return [];
  return (s.clusterIPs ?? []).filter((ip) => ip !== '' && ip !== 'None');
}

/**
 * The Service registry's allocation (upstream's Allocators): IP families and policy defaulted
 * from the cluster's ranges, cluster IPs and node ports taken from the shared ranges before the
 * Service is validated and stored, given back when the write fails, freed when it is deleted.
 */
export class ServiceAllocator implements WriteHooks<Service> {
  constructor(private readonly ranges: ServiceRanges) {}

  /** initIPFamilyFields: ipFamilyPolicy and ipFamilies as the cluster's ranges allow. */
  private initFamilies(name: string, s: ServiceSpec, old: ServiceSpec | undefined): void {
    if (s.type === 'ExternalName') return;
    if (s.ipFamilyPolicy === undefined) {
      if (old?.ipFamilyPolicy !== undefined) s.ipFamilyPolicy = old.ipFamilyPolicy;
      else if (s.clusterIP === 'None' && Object.keys(s.selector ?? {}).length === 0)
        s.ipFamilyPolicy = 'RequireDualStack';
      else s.ipFamilyPolicy = 'SingleStack';
    }
    const pre = validateClusterIPFields(s);
    if (pre.length > 0) throw invalid(SERVICE, name, pre);
    const errs: FieldError[] = [];
    const policy = FieldPath.of('spec', 'ipFamilyPolicy');
    if (s.ipFamilyPolicy === 'SingleStack') {
      if ((s.clusterIPs ?? []).length === 2)
        errs.push(
          invalidValue(
            policy,
            s.ipFamilyPolicy,
            "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified",
          ),
        );
      if ((s.ipFamilies ?? []).length === 2)
        errs.push(
          invalidValue(
            policy,
            s.ipFamilyPolicy,
            "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
          ),
        );
    }
    const families = (s.ipFamilies ??= []);
    (s.clusterIPs ?? []).forEach((ip, i) => {
      if (ip === 'None' || i < families.length) return;
      const fam = familyOf(ip);
      if (!this.ranges.ips.has(fam)) {
        errs.push(
          invalidValue(
            FieldPath.of('spec', 'clusterIPs').index(i),
            s.clusterIPs,
            `${fam} is not configured on this cluster`,
          ),
        );
      } else families.push(fam);
    });
    if (errs.length > 0) throw invalid(SERVICE, name, errs);
    const other = (f: string): IPFamily => (f === 'IPv4' ? 'IPv6' : 'IPv4');
    if (isHeadless(s) && Object.keys(s.selector ?? {}).length === 0) {
      if (families.length === 0) families.push(this.ranges.primary.family);
      if (families.length < 2 && s.ipFamilyPolicy !== 'SingleStack')
        families.push(other(families[0] ?? 'IPv4'));
      return;
    }
    if (s.ipFamilyPolicy === 'RequireDualStack' && this.ranges.ips.size < 2) {
      errs.push(
        invalidValue(policy, s.ipFamilyPolicy, 'this cluster is not configured for dual-stack services'),
      );
    }
    families.forEach((f, i) => {
      if (!this.ranges.ips.has(f as IPFamily))
        errs.push(
          invalidValue(FieldPath.of('spec', 'ipFamilies').index(i), f, 'not configured on this cluster'),
        );
    });
    if (errs.length > 0) throw invalid(SERVICE, name, errs);
    if (families.length === 0) families.push(this.ranges.primary.family);
    if (s.ipFamilyPolicy !== 'SingleStack' && families.length === 1 && this.ranges.ips.size === 2) {
      families.push(other(families[0] ?? 'IPv4'));
    }
  }

  /** Allocates the cluster IPs the families lack (allocIPs); takes the named ones. */
  private async allocIPs(
    svc: Service,
    s: ServiceSpec,
    from: number,
    r: Reservation,
    dryRun: boolean,
  ): Promise<void> {
    const ips = (s.clusterIPs ??= []);
    const families = s.ipFamilies ?? [];
    for (let i = from; i < families.length; i++) {
      const range = this.ranges.ips.get(families[i] as IPFamily);
      if (!range) continue;
      const wanted = ips[i] ?? '';
      if (wanted === '') {
        try {
          ips[i] = await range.allocateNext(dryRun);
        } catch (err) {
          throw internalError(new Error(`failed to allocate a serviceIP: ${(err as Error).message}`));
        }
      } else {
        try {
          await range.allocate(wanted, dryRun);
        } catch (err) {
          if (!(err instanceof AllocationError)) throw err;
          const detail = `failed to allocate IP ${wanted}: ${err.message}`;
          throw invalid(SERVICE, svc.metadata.name ?? '', [
            invalidValue(FieldPath.of('spec', 'clusterIPs'), ips, detail),
          ]);
        }
      }
      r.takenIPs.push(ips[i] ?? '');
    }
    s.clusterIP = ips[0] ?? '';
  }

  /** initNodePorts / updateNodePorts: named ports are taken, missing ones allocated. */
  private async allocPorts(
    svc: Service,
    s: ServiceSpec,
    held: readonly number[],
    r: Reservation,
    dryRun: boolean,
  ): Promise<void> {
    const allocateMissing = s.type === 'NodePort' || s.allocateLoadBalancerNodePorts !== false;
    const byServicePort = new Map<number, number>();
    const takenNow = new Set<number>();
    const ports = s.ports ?? [];
    for (let i = 0; i < ports.length; i++) {
      const sp = ports[i];
      if (!sp) continue;
      const np = sp.nodePort ?? 0;
      if (np === 0 && !allocateMissing) continue;
      if (np === 0 && byServicePort.has(sp.port ?? 0)) {
        // Two protocols of one port share a node port, as upstream does.
        sp.nodePort = byServicePort.get(sp.port ?? 0);
        continue;
      }
      if (np !== 0) {
        if (held.includes(np) || takenNow.has(np)) continue;
        try {
          await this.ranges.nodePorts.allocate(np, dryRun);
        } catch (err) {
          if (!(err instanceof AllocationError)) throw err;
          const p = FieldPath.of('spec', 'ports').index(i).child('nodePort');
          throw invalid(SERVICE, svc.metadata.name ?? '', [invalidValue(p, np, err.message)]);
        }
      } else {
        try {
          sp.nodePort = await this.ranges.nodePorts.allocateNext(dryRun);
        } catch (err) {
          throw internalError(new Error(`failed to allocate a nodePort: ${(err as Error).message}`));
        }
      }
      takenNow.add(sp.nodePort ?? 0);
      byServicePort.set(sp.port ?? 0, sp.nodePort ?? 0);
      r.takenPorts.push(sp.nodePort ?? 0);
    }
    if (s.type === 'LoadBalancer' && s.externalTrafficPolicy === 'Local') {
      const hc = s.healthCheckNodePort ?? 0;
      if (hc === 0) s.healthCheckNodePort = await this.ranges.nodePorts.allocateNext(dryRun);
      else if (!held.includes(hc)) await this.ranges.nodePorts.allocate(hc, dryRun);
      if (!held.includes(s.healthCheckNodePort ?? 0)) r.takenPorts.push(s.healthCheckNodePort ?? 0);
    }
  }

  async beginCreate(svc: Service, dryRun: boolean): Promise<WriteTransaction> {
    const s = (svc.spec ??= {});
    normalizeClusterIPs(s, undefined);
    this.initFamilies(svc.metadata.name ?? '', s, undefined);
    const r = new Reservation(this.ranges, dryRun);
    try {
      if (needsClusterIP(s) && !isHeadless(s)) await this.allocIPs(svc, s, 0, r, dryRun);
      if (needsNodePorts(s)) await this.allocPorts(svc, s, [], r, dryRun);
    } catch (err) {
      await r.revert();
      throw err;
    }
    return r;
  }

  async beginUpdate(svc: Service, old: Service, dryRun: boolean): Promise<WriteTransaction> {
    const s = (svc.spec ??= {});
    const o = old.spec ?? {};
    patchAllocatedValues(s, o);
    normalizeClusterIPs(s, o);
    this.initFamilies(svc.metadata.name ?? '', s, o);
    const r = new Reservation(this.ranges, dryRun);
    try {
      const oldIPs = clusterIPsOf(o);
      if (!needsClusterIP(o) && needsClusterIP(s)) {
        if (!isHeadless(s)) await this.allocIPs(svc, s, 0, r, dryRun);
      } else if (needsClusterIP(o) && !needsClusterIP(s)) {
        r.freeIPs.push(...oldIPs);
      } else if (needsClusterIP(s) && !isHeadless(o)) {
        const before = (o.ipFamilies ?? []).length;
        const after = (s.ipFamilies ?? []).length;
        if (before === 1 && after === 2) await this.allocIPs(svc, s, 1, r, dryRun);
        if (before === 2 && after === 1) r.freeIPs.push(...oldIPs.slice(1));
      }
      const oldPorts = nodePortsOf(o);
      if (needsNodePorts(s)) await this.allocPorts(svc, s, oldPorts, r, dryRun);
      const keep = new Set(needsNodePorts(s) ? nodePortsOf(s) : []);
      r.freePorts.push(...oldPorts.filter((p) => !keep.has(p)));
    } catch (err) {
      await r.revert();
      throw err;
    }
    return r;
  }

  async afterDelete(svc: Service, dryRun: boolean): Promise<void> {
    if (dryRun) return;
    const r = new Reservation(this.ranges, false);
    r.freeIPs.push(...clusterIPsOf(svc.spec ?? {}));
    r.freePorts.push(...nodePortsOf(svc.spec ?? {}));
    await r.commit();
  }
}

/**
 * patchAllocatedValues: a client that leaves out what the server allocated (kubectl apply
 * without clusterIP or nodePort) keeps it.
 */
function patchAllocatedValues(s: ServiceSpec, o: ServiceSpec): void {
  if (needsClusterIP(o) && needsClusterIP(s)) {
    if (!s.clusterIP && o.clusterIP) s.clusterIP = o.clusterIP;
    if ((s.clusterIPs ?? []).length === 0 && (o.clusterIPs ?? []).length > 0)
      s.clusterIPs = [...(o.clusterIPs ?? [])];
  }
  if (needsNodePorts(o) && needsNodePorts(s)) {
    const used = new Set((s.ports ?? []).map((p) => p.nodePort ?? 0).filter((p) => p > 0));
    const byName = new Map((o.ports ?? []).map((p) => [p.name ?? '', p.nodePort ?? 0]));
    for (const p of s.ports ?? []) {
      const prev = byName.get(p.name ?? '') ?? 0;
      if (!p.nodePort && prev && !used.has(prev)) p.nodePort = prev;
    }
  }
  const hc = (x: ServiceSpec): boolean => x.type === 'LoadBalancer' && x.externalTrafficPolicy === 'Local';
  if (hc(o) && hc(s) && !s.healthCheckNodePort) s.healthCheckNodePort = o.healthCheckNodePort ?? 0;
}
