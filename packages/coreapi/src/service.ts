/**
 * core/v1 Service (SetDefaults_Service, ValidateService, ValidateServiceUpdate,
 * ValidateServiceStatusUpdate, the strategy's NormalizeClusterIPs, printService). Cluster IPs and
 * node ports are allocated by the API server's registry, which runs before these rules (as
 * upstream's BeginCreate/BeginUpdate do), so a stored Service has them set.
 */
import {
  defaultMetaFieldLabels,
  duplicate,
  FieldPath,
  forbiddenField,
  invalidValue,
  isDNS1123Subdomain,
  nameIsDNS1035Label,
  notSupported,
  required,
  validateLabels,
  type FieldError,
} from '@keel/apimachinery';
import {
  ageColumn,
  always,
  beforeCreate,
  beforeUpdate,
  bool,
  column,
  int32,
  keepFrom,
  list,
  named,
  nameColumn,
  objectMetaSpec,
  ptr,
  raw,
  since,
  statusSubresourceView,
  str,
  stringMap,
  struct,
  validateCoreMeta,
  validateCoreMetaUpdate,
  wireCodec,
  type ObjectMeta,
  type StatusHooks,
} from '@keel/resource';
import { isValidIP } from './pod-update-validation.js';
import { portNameErrors, validateDNSLabel } from './pod-validation.js';
import { coreTarget } from './scheme.js';
import type { CoreResourceView } from './view.js';

export interface ServicePort {
  name?: string;
  protocol?: string;
  appProtocol?: string;
  port?: number;
  /** IntOrString: a port number or a named container port. */
  targetPort?: number | string;
  nodePort?: number;
}

export interface ServiceSpec {
  ports?: ServicePort[];
  selector?: Record<string, string>;
  clusterIP?: string;
  clusterIPs?: string[];
  type?: string;
  externalIPs?: string[];
  sessionAffinity?: string;
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
  externalName?: string;
  externalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  publishNotReadyAddresses?: boolean;
  sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } };
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  allocateLoadBalancerNodePorts?: boolean;
  loadBalancerClass?: string;
  internalTrafficPolicy?: string;
  trafficDistribution?: string;
}

export interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ipMode?: string;
  ports?: unknown[];
}

export interface Service {
  metadata: ObjectMeta;
  spec?: ServiceSpec;
  status?: { loadBalancer?: { ingress?: LoadBalancerIngress[] }; conditions?: unknown[] };
}

export const serviceTypes = {
  clusterIP: 'ClusterIP',
  nodePort: 'NodePort',
  loadBalancer: 'LoadBalancer',
  externalName: 'ExternalName',
} as const;

/** DefaultClientIPServiceAffinitySeconds: three hours. */
const DEFAULT_CLIENT_IP_TIMEOUT = 10800;
const MAX_CLIENT_IP_TIMEOUT = 86400;

const servicePortSpec = struct('v1.ServicePort', {
  name: str,
  protocol: named('v1.Protocol'),
  appProtocol: ptr(str),
  port: always(int32),
  targetPort: raw,
  nodePort: int32,
});

const serviceSpec = struct('v1.Service', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: struct('v1.ServiceSpec', {
    ports: list(servicePortSpec, '[]v1.ServicePort'),
    selector: stringMap,
    clusterIP: str,
    clusterIPs: list(str, '[]string'),
    type: named('v1.ServiceType'),
    externalIPs: list(str, '[]string'),
    sessionAffinity: named('v1.ServiceAffinity'),
    loadBalancerIP: str,
    loadBalancerSourceRanges: list(str, '[]string'),
    externalName: str,
    externalTrafficPolicy: named('v1.ServiceExternalTrafficPolicy'),
    healthCheckNodePort: int32,
    publishNotReadyAddresses: bool,
    sessionAffinityConfig: ptr(
      struct('v1.SessionAffinityConfig', {
        clientIP: ptr(struct('v1.ClientIPConfig', { timeoutSeconds: ptr(int32) })),
      }),
    ),
    ipFamilies: list(named('v1.IPFamily'), '[]v1.IPFamily'),
    ipFamilyPolicy: ptr(named('v1.IPFamilyPolicy')),
    allocateLoadBalancerNodePorts: ptr(bool),
    loadBalancerClass: ptr(str),
    internalTrafficPolicy: ptr(named('v1.ServiceInternalTrafficPolicy')),
    trafficDistribution: ptr(str),
  }),
  status: struct('v1.ServiceStatus', {
    loadBalancer: struct('v1.LoadBalancerStatus', {
      ingress: list(
        struct('v1.LoadBalancerIngress', {
          ip: str,
          hostname: str,
          ipMode: ptr(named('v1.LoadBalancerIPMode')),
          ports: list(raw, '[]v1.PortStatus'),
        }),
        '[]v1.LoadBalancerIngress',
      ),
    }),
    conditions: list(raw, '[]v1.Condition'),
  }),
});

export const needsNodePorts = (s: ServiceSpec): boolean =>
  s.type === serviceTypes.nodePort || s.type === serviceTypes.loadBalancer;

/** SetDefaults_Service. */
export function defaultService(svc: Service): void {
  const spec = (svc.spec ??= {});
  spec.sessionAffinity ||= 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_TIMEOUT } };
  }
  spec.type ||= serviceTypes.clusterIP;
  for (const p of spec.ports ?? []) {
    p.protocol ||= 'TCP';
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port ?? 0;
  }
  if (needsNodePorts(spec)) spec.externalTrafficPolicy ||= 'Cluster';
  if (spec.type !== serviceTypes.externalName) spec.internalTrafficPolicy ??= 'Cluster';
  if (spec.type === serviceTypes.loadBalancer) spec.allocateLoadBalancerNodePorts ??= true;
}

export const isHeadless = (s: ServiceSpec): boolean => s.clusterIPs?.length === 1 && s.clusterIPs[0] === 'None';

const ipMessage = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const familyOf = (ip: string): 'IPv4' | 'IPv6' => (ip.includes(':') ? 'IPv6' : 'IPv4');
const P = (...parts: string[]): FieldPath => FieldPath.of('spec', ...parts);

/** ValidateServiceClusterIPsRelatedFields (also run by the allocator before it allocates). */
export function validateClusterIPFields(s: ServiceSpec): FieldError[] {
  if (s.type === serviceTypes.externalName) return [];
  const errs: FieldError[] = [];
  const ips = s.clusterIPs ?? [];
  if ((s.clusterIP ?? '') !== '') {
    if (ips.length === 0) errs.push(required(P('clusterIPs')));
    else if (ips[0] !== s.clusterIP) errs.push(invalidValue(P('clusterIPs'), ips, 'first value must match `clusterIP`'));
  } else if (ips.length !== 0) {
    errs.push(invalidValue(P('clusterIPs'), ips, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  (s.ipFamilies ?? []).forEach((f, i) => {
    if (f !== 'IPv4' && f !== 'IPv6') errs.push(notSupported(P('ipFamilies').index(i), f, ['IPv4', 'IPv6']));
    if (seen.has(f)) errs.push(duplicate(P('ipFamilies').index(i), f));
    seen.add(f);
  });
  const policies = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
  if (s.ipFamilyPolicy !== undefined && !policies.includes(s.ipFamilyPolicy)) {
    errs.push(notSupported(P('ipFamilyPolicy'), s.ipFamilyPolicy, policies));
  }
  let badIPs = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        badIPs = true;
        errs.push(invalidValue(P('clusterIPs'), ips, "'None' must be the first and only value"));
      }
      return;
    }
    if (!isValidIP(ip)) {
      badIPs = true;
      errs.push(invalidValue(P('clusterIPs').index(i), ip, ipMessage));
    }
  });
  if (ips.length > 2) errs.push(invalidValue(P('clusterIPs'), ips, 'may only hold up to 2 values'));
  if (badIPs) return errs;
  if (ips.length > 1 && familyOf(ips[0] ?? '') === familyOf(ips[1] ?? '')) {
    errs.push(invalidValue(P('clusterIPs'), ips, 'may specify no more than one IP for each IP family'));
  }
  if (!isHeadless(s)) {
    ips.forEach((ip, i) => {
      const fam = s.ipFamilies?.[i];
      if (fam === 'IPv4' && familyOf(ip) === 'IPv6')
        errs.push(invalidValue(P('clusterIPs').index(i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (fam === 'IPv6' && familyOf(ip) === 'IPv4')
        errs.push(invalidValue(P('clusterIPs').index(i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

function validatePort(sp: ServicePort, requireName: boolean, names: Set<string>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = sp.name ?? '';
  if (requireName && name === '') errs.push(required(p.child('name')));
  else if (name !== '') {
    errs.push(...validateDNSLabel(name, p.child('name')));
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    names.add(name);
  }
  const port = sp.port ?? 0;
  if (port < 1 || port > 65535) errs.push(invalidValue(p.child('port'), port, 'must be between 1 and 65535, inclusive'));
  const protocols = ['SCTP', 'TCP', 'UDP'];
  if ((sp.protocol ?? '') === '') errs.push(required(p.child('protocol')));
  else if (!protocols.includes(sp.protocol ?? '')) errs.push(notSupported(p.child('protocol'), sp.protocol, protocols));
  const target = sp.targetPort;
  if (typeof target === 'number') {
    if (!Number.isInteger(target) || target < 1 || target > 65535)
      errs.push(invalidValue(p.child('targetPort'), target, 'must be between 1 and 65535, inclusive'));
  } else if (typeof target === 'string') {
    for (const msg of portNameErrors(target)) errs.push(invalidValue(p.child('targetPort'), target, msg));
  } else {
    errs.push(invalidValue(p.child('targetPort'), target ?? null, 'must be an integer or a string'));
  }
  return errs;
}

function validateTrafficPolicies(s: ServiceSpec): FieldError[] {
  const errs: FieldError[] = [];
  const etp = s.externalTrafficPolicy ?? '';
  if (needsNodePorts(s)) {
    if (etp === '') errs.push(required(P('externalTrafficPolicy')));
    else if (etp !== 'Cluster' && etp !== 'Local') errs.push(notSupported(P('externalTrafficPolicy'), etp, ['Cluster', 'Local']));
  } else if (etp !== '') {
    errs.push(invalidValue(P('externalTrafficPolicy'), etp, 'may only be set for externally-accessible services'));
  }
  const needsHealthCheck = s.type === serviceTypes.loadBalancer && etp === 'Local';
  const hc = s.healthCheckNodePort ?? 0;
  if (!needsHealthCheck && hc !== 0) {
    errs.push(invalidValue(P('healthCheckNodePort'), hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  }
  if (s.type !== serviceTypes.externalName) {
    const itp = s.internalTrafficPolicy;
    if (itp === undefined) errs.push(required(P('internalTrafficPolicy')));
    else if (itp !== 'Cluster' && itp !== 'Local') errs.push(notSupported(P('internalTrafficPolicy'), itp, ['Cluster', 'Local']));
  }
  return errs;
}

function validateSpec(s: ServiceSpec): FieldError[] {
  const errs: FieldError[] = [];
  const ports = s.ports ?? [];
  const headless = isHeadless(s);
  if (ports.length === 0 && !headless && s.type !== serviceTypes.externalName) errs.push(required(P('ports')));
  switch (s.type) {
    case serviceTypes.loadBalancer:
    case serviceTypes.nodePort:
      if (headless) errs.push(invalidValue(P('clusterIPs').index(0), 'None', `may not be set to 'None' for ${s.type} services`));
      break;
    case serviceTypes.externalName: {
      if ((s.clusterIPs ?? []).length > 0) errs.push(forbiddenField(P('clusterIPs'), 'may not be set for ExternalName services'));
      if ((s.ipFamilies ?? []).length > 0) errs.push(forbiddenField(P('ipFamilies'), 'may not be set for ExternalName services'));
      if (s.ipFamilyPolicy !== undefined) errs.push(forbiddenField(P('ipFamilyPolicy'), 'may not be set for ExternalName services'));
      const cname = (s.externalName ?? '').replace(/\.$/, '');
      if (cname === '') errs.push(required(P('externalName')));
      else errs.push(...isDNS1123Subdomain(cname).map((msg) => invalidValue(P('externalName'), cname, msg)));
      break;
    }
  }
  const names = new Set<string>();
  ports.forEach((port, i) => errs.push(...validatePort(port, ports.length > 1, names, P('ports').index(i))));
  if (s.selector) errs.push(...validateLabels(s.selector, P('selector')));
  const affinity = s.sessionAffinity ?? '';
  if (affinity === '') errs.push(required(P('sessionAffinity')));
  else if (affinity !== 'ClientIP' && affinity !== 'None') errs.push(notSupported(P('sessionAffinity'), affinity, ['ClientIP', 'None']));
  if (affinity === 'ClientIP') {
    const t = s.sessionAffinityConfig?.clientIP?.timeoutSeconds;
    if (t === undefined) errs.push(required(P('sessionAffinityConfig'), 'when session affinity type is ClientIP'));
    else if (t <= 0 || t > MAX_CLIENT_IP_TIMEOUT)
      errs.push(invalidValue(P('sessionAffinityConfig', 'clientIP', 'timeoutSeconds'), t, `must be greater than 0 and less than ${MAX_CLIENT_IP_TIMEOUT}`));
  } else if (affinity === 'None' && s.sessionAffinityConfig !== undefined) {
    errs.push(forbiddenField(P('sessionAffinityConfig'), 'must not be set when session affinity is None'));
  }
  errs.push(...validateClusterIPFields(s));
  (s.externalIPs ?? []).forEach((ip, i) => {
    if (!isValidIP(ip)) errs.push(invalidValue(P('externalIPs').index(i), ip, ipMessage));
  });
  const types = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
  if ((s.type ?? '') === '') errs.push(required(P('type')));
  else if (!types.includes(s.type ?? '')) errs.push(notSupported(P('type'), s.type, types));
  if (s.type === serviceTypes.clusterIP) {
    ports.forEach((port, i) => {
      if (port.nodePort) errs.push(forbiddenField(P('ports').index(i).child('nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((port, i) => {
    if (!port.nodePort) return;
    if (port.nodePort < 1 || port.nodePort > 65535)
      errs.push(invalidValue(P('ports').index(i).child('nodePort'), port.nodePort, 'must be between 1 and 65535, inclusive'));
    const key = `${port.protocol ?? ''}/${port.nodePort}`;
    if (nodePorts.has(key)) errs.push(duplicate(P('ports').index(i).child('nodePort'), port.nodePort));
    nodePorts.add(key);
  });
  const seen = new Set<string>();
  ports.forEach((port, i) => {
    const key = `${port.protocol ?? ''}/${port.port ?? 0}`;
    if (seen.has(key)) errs.push(duplicate(P('ports').index(i), { port: port.port ?? 0, protocol: port.protocol ?? '' }));
    seen.add(key);
  });
  if ((s.loadBalancerSourceRanges ?? []).length > 0 && s.type !== serviceTypes.loadBalancer) {
    errs.push(forbiddenField(P('LoadBalancerSourceRanges'), "may only be used when `type` is 'LoadBalancer'"));
  }
  if (s.loadBalancerClass !== undefined && s.type !== serviceTypes.loadBalancer) {
    errs.push(forbiddenField(P('loadBalancerClass'), "may only be used when `type` is 'LoadBalancer'"));
  }
  if (s.allocateLoadBalancerNodePorts !== undefined && s.type !== serviceTypes.loadBalancer) {
    errs.push(forbiddenField(P('allocateLoadBalancerNodePorts'), "may only be used when `type` is 'LoadBalancer'"));
  }
  if (s.type === serviceTypes.loadBalancer && s.allocateLoadBalancerNodePorts === undefined) {
    errs.push(required(P('allocateLoadBalancerNodePorts')));
  }
  errs.push(...validateTrafficPolicies(s));
  return errs;
}

/** ValidateService. */
export function validateService(svc: Service): FieldError[] {
  return [...validateCoreMeta(svc.metadata, true, nameIsDNS1035Label), ...validateSpec(svc.spec ?? {})];
}

/** validateUpgradeDowngradeClusterIPs and ...IPFamilies: the primary IP and family never change. */
function validateIPChanges(s: ServiceSpec, old: ServiceSpec): FieldError[] {
  if (s.type === serviceTypes.externalName || old.type === serviceTypes.externalName) return [];
  if (isHeadless(s) && isHeadless(old)) return [];
  const errs: FieldError[] = [];
  const ips = s.clusterIPs ?? [];
  const oldIPs = old.clusterIPs ?? [];
  if (ips.length === oldIPs.length) {
    oldIPs.forEach((ip, i) => {
      if (ip !== ips[i]) errs.push(invalidValue(P('clusterIPs').index(i), ips, 'may not change once set'));
    });
  } else if (oldIPs.length > ips.length) {
    if (ips.length === 0) errs.push(invalidValue(P('clusterIPs').index(0), ips, 'primary clusterIP can not be unset'));
    else if (ips[0] !== oldIPs[0]) errs.push(invalidValue(P('clusterIPs').index(0), ips, 'may not change once set'));
    if (ips.length === 1 && s.ipFamilyPolicy !== 'SingleStack')
      errs.push(invalidValue(P('ipFamilyPolicy'), s.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
  } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) {
    errs.push(invalidValue(P('clusterIPs').index(0), ips, 'may not change once set'));
  }
  if (isHeadless(s) !== isHeadless(old) || isHeadless(s)) return errs;
  const fams = s.ipFamilies ?? [];
  const oldFams = old.ipFamilies ?? [];
  if (fams.length === oldFams.length) {
    if (oldFams.some((f, i) => f !== fams[i])) errs.push(invalidValue(P('ipFamilies').index(0), fams, 'may not change once set'));
  } else if (fams.length > 0 && oldFams.length > 0 && fams[0] !== oldFams[0]) {
    errs.push(invalidValue(P('ipFamilies').index(0), ips, 'may not change once set'));
  }
  return errs;
}

function validateStatus(svc: Service): FieldError[] {
  const errs: FieldError[] = [];
  (svc.status?.loadBalancer?.ingress ?? []).forEach((ing, i) => {
    const p = FieldPath.of('status', 'loadBalancer', 'ingress').index(i);
    if (ing.ip && !isValidIP(ing.ip)) errs.push(invalidValue(p.child('ip'), ing.ip, 'must be a valid IP address'));
    if (ing.hostname) {
      errs.push(...isDNS1123Subdomain(ing.hostname).map((m) => invalidValue(p.child('hostname'), ing.hostname, m)));
      if (isValidIP(ing.hostname)) errs.push(invalidValue(p.child('hostname'), ing.hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

/**
 * NormalizeClusterIPs: an old client names only `clusterIP`; a patch that leaves `clusterIPs`
 * alone while clearing or changing `clusterIP` means the singular field.
 */
export function normalizeClusterIPs(s: ServiceSpec, old: ServiceSpec | undefined): void {
  const same = (a?: string[], b?: string[]): boolean => (a ?? []).join(',') === (b ?? []).join(',');
  if (!old) {
    if (s.clusterIP && (s.clusterIPs ?? []).length === 0) s.clusterIPs = [s.clusterIP];
    return;
  }
  if ((old.clusterIPs ?? []).length > 0 && (s.clusterIPs ?? []).length === 0 && old.clusterIP === s.clusterIP) {
    s.clusterIPs = old.clusterIPs;
  }
  if ((old.clusterIP ?? '') !== (s.clusterIP ?? '')) {
    if (old.clusterIP && !s.clusterIP && same(old.clusterIPs, s.clusterIPs)) delete s.clusterIPs;
    else if (same(old.clusterIPs, s.clusterIPs)) s.clusterIPs = [s.clusterIP ?? ''];
  }
}

/** printService's Ports cell: `port[:nodePort]/protocol`, comma separated. */
export function servicePorts(s: ServiceSpec): string {
  const ports = s.ports ?? [];
  if (ports.length === 0) return '<none>';
  return ports.map((p) => (p.nodePort ? `${p.port ?? 0}:${p.nodePort}/${p.protocol ?? ''}` : `${p.port ?? 0}/${p.protocol ?? ''}`)).join(',');
}

function externalIP(svc: Service): string {
  const s = svc.spec ?? {};
  const external = s.externalIPs ?? [];
  switch (s.type) {
    case serviceTypes.clusterIP:
    case serviceTypes.nodePort:
      return external.length > 0 ? external.join(',') : '<none>';
    case serviceTypes.externalName:
      return s.externalName ?? '';
    case serviceTypes.loadBalancer: {
      const lb = (svc.status?.loadBalancer?.ingress ?? []).map((i) => i.ip || i.hostname || '').filter((x) => x !== '');
      if (external.length > 0) return [...external, ...lb].join(',');
      return lb.length > 0 ? lb.join(',') : '<pending>';
    }
    default:
      return '<unknown>';
  }
}

function selectorCell(selector: Record<string, string> | undefined): string {
  const keys = Object.keys(selector ?? {}).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${selector?.[k] ?? ''}`).join(',');
}

export const serviceView: CoreResourceView<Service> & StatusHooks<Service> = {
  group: '',
  version: 'v1',
  apiVersion: 'v1',
  resource: 'services',
  kind: 'Service',
  listKind: 'ServiceList',
  singular: 'service',
  shortNames: ['svc'],
  categories: ['all'],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: '0/CO1lhkEBI=',
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  invalidKind: { group: '', kind: 'Service' },
  smpSchema: {
    'metadata.finalizers': { patchStrategy: 'merge' },
    'metadata.ownerReferences': 'uid',
    'spec.ports': 'port',
  },
  ...wireCodec<Service>(coreTarget('Service'), serviceSpec, defaultService),
  prepareForCreate(svc) {
    delete svc.status;
    normalizeClusterIPs(svc.spec ?? {}, undefined);
  },
  prepareForUpdate(svc, old) {
    keepFrom(svc, old, 'status');
    normalizeClusterIPs((svc.spec ??= {}), old.spec ?? {});
  },
  prepareStatusUpdate(svc, old) {
    keepFrom(svc, old, 'spec');
  },
  validateCreate: (svc) => beforeCreate(validateService(svc), svc.metadata, true),
  validateUpdate: (svc, old) =>
    beforeUpdate(svc.metadata, old.metadata, true, [
      ...validateCoreMetaUpdate(svc.metadata, old.metadata),
      ...validateIPChanges(svc.spec ?? {}, old.spec ?? {}),
      ...validateSpec(svc.spec ?? {}),
    ]),
  validateStatusUpdate: (svc, old) =>
    beforeUpdate(svc.metadata, old.metadata, true, [...validateCoreMetaUpdate(svc.metadata, old.metadata), ...validateStatus(svc)]),
  fieldLabels: ['metadata.name', 'metadata.namespace', 'spec.clusterIP', 'spec.type'],
  convertFieldLabel: defaultMetaFieldLabels,
  fields: (svc) => ({
    'metadata.name': svc.metadata.name ?? '',
    'metadata.namespace': svc.metadata.namespace ?? '',
    'spec.clusterIP': svc.spec?.clusterIP ?? '',
    'spec.type': svc.spec?.type ?? '',
  }),
  tableColumns: [
    nameColumn,
    column('Type', 'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. "ClusterIP" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is "None", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. "NodePort" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. "LoadBalancer" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. "ExternalName" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types'),
    column('Cluster-IP', 'clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are "None", empty string (""), or a valid IP address. Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies'),
    column('External-IP', 'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.'),
    column('Port(s)', 'The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies'),
    ageColumn,
    column('Selector', 'Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/', 1),
  ],
  tableRow: (svc, now) => [
    svc.metadata.name ?? '',
    svc.spec?.type ?? '',
    svc.spec?.clusterIP || '<none>',
    externalIP(svc),
    servicePorts(svc.spec ?? {}),
    since(svc.metadata.creationTimestamp, now),
    selectorCell(svc.spec?.selector),
  ],
};

/** services/status: get, patch, update; only the status changes. */
export const serviceStatusView = statusSubresourceView(serviceView);
