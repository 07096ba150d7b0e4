/**
 * Where a webhook named by a Service (clientConfig.service) is dialed, as kube-apiserver's
 * service resolvers decide it: by default the Service's cluster IP and port (upstream's
 * ClusterIPServiceResolver); with --enable-aggregator-routing one ready endpoint address of the
 * port (its EndpointServiceResolver). Failures carry upstream's words; they surface as the dial
 * error of `Post "https://<name>.<namespace>.svc:<port>/…"`.
 */
import { randomInt } from 'node:crypto';
import type { AdmissionPluginDeps } from '../../definition.js';

export type ServiceRouting = 'cluster-ip' | 'endpoints';

export interface ServiceTarget {
  readonly host: string;
  readonly port: number;
}

/** Reads one object from the store (the admission deps' `read`). */
export type ReadObject = AdmissionPluginDeps['read'];

interface ServicePort {
  readonly name?: string;
  readonly port?: number;
}

interface ServiceShape {
  readonly spec?: {
    readonly type?: string;
    readonly clusterIP?: string;
    readonly externalName?: string;
    readonly ports?: readonly ServicePort[];
  };
}

interface EndpointsShape {
  readonly subsets?: readonly {
    readonly addresses?: readonly { readonly ip?: string }[];
    readonly ports?: readonly { readonly name?: string; readonly port?: number }[];
  }[];
}

async function service(read: ReadObject, namespace: string, name: string): Promise<ServiceShape> {
  const svc = await read('services', namespace, name);
  if (!svc) throw new Error(`service "${name}" not found`);
  return svc as ServiceShape;
}

function servicePort(svc: ServiceShape, name: string, port: number): ServicePort {
  const found = (svc.spec?.ports ?? []).find((p) => p.port === port);
  if (!found) throw new Error(`no service port ${port} found for service "${name}"`);
  return found;
}

async function clusterIP(
  read: ReadObject,
  namespace: string,
  name: string,
  port: number,
): Promise<ServiceTarget> {
  const svc = await service(read, namespace, name);
  const type = svc.spec?.type ?? 'ClusterIP';
  switch (type) {
    case 'ClusterIP':
    case 'NodePort':
    case 'LoadBalancer': {
      const ip = svc.spec?.clusterIP ?? '';
      if (type === 'ClusterIP' && ip === 'None')
        throw new Error('cannot route to service with ClusterIP "None"');
      servicePort(svc, name, port);
      return { host: ip, port };
    }
    case 'ExternalName':
      return { host: svc.spec?.externalName ?? '', port };
    default:
      throw new Error(`unsupported service type "${type}"`);
  }
}

async function endpoint(
  read: ReadObject,
  namespace: string,
  name: string,
  port: number,
): Promise<ServiceTarget> {
  const svc = await service(read, namespace, name);
  const type = svc.spec?.type ?? 'ClusterIP';
  if (type !== 'ClusterIP' && type !== 'NodePort' && type !== 'LoadBalancer') {
    throw new Error(`unsupported service type "${type}"`);
  }
  const portName = servicePort(svc, name, port).name ?? '';
  const eps = (await read('endpoints', namespace, name)) as EndpointsShape | undefined;
  if (!eps) throw new Error(`endpoints "${name}" not found`);
  const subsets = eps.subsets ?? [];
  if (subsets.length === 0) throw new Error(`service ${namespace}/${name} has no endpoints`);
  // As upstream: start at a random subset, take the first with addresses and the port's name,
  // and a random address of it.
  const seed = randomInt(subsets.length);
  for (let i = 0; i < subsets.length; i++) {
    const subset = subsets[(seed + i) % subsets.length];
    const addresses = (subset?.addresses ?? []).filter((a) => a.ip);
    const match = (subset?.ports ?? []).find((p) => (p.name ?? '') === portName);
    if (!match?.port || addresses.length === 0) continue;
    return { host: addresses[randomInt(addresses.length)]?.ip ?? '', port: match.port };
  }
  throw new Error(`no endpoints available for service "${name}"`);
}

export function resolveService(
  routing: ServiceRouting,
  read: ReadObject,
  namespace: string,
  name: string,
  port: number,
): Promise<ServiceTarget> {
  return routing === 'endpoints'
    ? endpoint(read, namespace, name, port)
    : clusterIP(read, namespace, name, port);
}
