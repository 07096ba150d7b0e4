/**
 * core/v1 Endpoints (ValidateEndpoints, printEndpoints): enough for annotation-based leader
 * election locks and simple service endpoints. Subsets are validated (addresses, ports) but not
 * repacked (the strategy's Canonicalize regroups them; stored as sent here).
 */
import { defaultMetaFieldLabels, FieldPath, invalidValue, isQualifiedName, nameIsDNSSubdomain, notSupported, required, type FieldError } from '@keel/apimachinery';
import {
  beforeCreate,
  beforeUpdate,
  validateCoreMeta,
  validateCoreMetaUpdate,
  objectMetaSpec,
  objectReferenceSpec,
  type ObjectMeta,
  type ObjectReference,
  ageColumn,
  column,
  nameColumn,
  since,
  wireCodec,
  always,
  int32,
  list,
  named,
  ptr,
  str,
  struct,
} from '@keel/resource';
import type { CoreResourceView } from './view.js';
import { isValidIP } from './pod-update-validation.js';
import { validateDNSLabel } from './pod-validation.js';
import { coreTarget } from './scheme.js';

export interface EndpointAddress {
  ip?: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: ObjectReference;
}

export interface EndpointPort {
  name?: string;
  port?: number;
  protocol?: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

export interface Endpoints {
  metadata: ObjectMeta;
  subsets?: EndpointSubset[];
}

const address = struct('v1.EndpointAddress', { ip: always(str), hostname: str, nodeName: ptr(str), targetRef: ptr(objectReferenceSpec) });
const addresses = list(address, '[]v1.EndpointAddress');

const endpointsSpec = struct('v1.Endpoints', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  subsets: list(
    struct('v1.EndpointSubset', {
      addresses,
      notReadyAddresses: addresses,
      ports: list(
        struct('v1.EndpointPort', { name: str, port: always(int32), protocol: named('v1.Protocol'), appProtocol: ptr(str) }),
        '[]v1.EndpointPort',
      ),
    }),
    '[]v1.EndpointSubset',
  ),
});

/** SetDefaults_EndpointPort. */
function defaults(ep: Endpoints): void {
  for (const s of ep.subsets ?? []) for (const p of s.ports ?? []) p.protocol ||= 'TCP';
}

/** ValidateNonSpecialIP: no unspecified, loopback or link-local addresses. */
function specialIPErrors(ip: string, p: FieldPath): FieldError[] {
  if (!isValidIP(ip)) return [invalidValue(p, ip, 'must be a valid IP address')];
  const v4 = /^\d/.test(ip) && !ip.includes(':');
  const lower = v4 ? ip : new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  const octets = v4 ? ip.split('.').map(Number) : [];
  const errs: FieldError[] = [];
  if (v4 ? octets.every((o) => o === 0) : lower === '::') errs.push(invalidValue(p, ip, `may not be unspecified (${ip})`));
  if (v4 ? octets[0] === 127 : lower === '::1') errs.push(invalidValue(p, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (v4 ? octets[0] === 169 && octets[1] === 254 : /^fe[89ab]/.test(lower)) {
    errs.push(invalidValue(p, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  }
  if (v4 ? octets[0] === 224 && octets[1] === 0 && octets[2] === 0 : lower.startsWith('ff02:')) {
    errs.push(invalidValue(p, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  }
  return errs;
}

function validateAddress(a: EndpointAddress, p: FieldPath): FieldError[] {
  const ip = a.ip ?? '';
  const errs = isValidIP(ip) ? [] : [invalidValue(p.child('ip'), ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
  if (a.hostname) errs.push(...validateDNSLabel(a.hostname, p.child('hostname')));
  if (a.nodeName !== undefined) errs.push(...nameIsDNSSubdomain(a.nodeName, false).map((msg) => invalidValue(p.child('nodeName'), a.nodeName, msg)));
  return [...errs, ...specialIPErrors(ip, p.child('ip'))];
}

function validatePort(port: EndpointPort, requireName: boolean, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = port.name ?? '';
  if (requireName && name === '') errs.push(required(p.child('name')));
  else if (name !== '') errs.push(...validateDNSLabel(name, p.child('name')));
  const n = port.port ?? 0;
  if (n < 1 || n > 65535) errs.push(invalidValue(p.child('port'), n, 'must be between 1 and 65535, inclusive'));
  const protocol = port.protocol ?? '';
  if (protocol === '') errs.push(required(p.child('protocol')));
  else if (!['SCTP', 'TCP', 'UDP'].includes(protocol)) errs.push(notSupported(p.child('protocol'), protocol, ['SCTP', 'TCP', 'UDP']));
  if (port.appProtocol !== undefined) errs.push(...isQualifiedName(port.appProtocol).map((msg) => invalidValue(p.child('appProtocol'), port.appProtocol, msg)));
  return errs;
}

function validateSubsets(subsets: EndpointSubset[] | undefined): FieldError[] {
  return (subsets ?? []).flatMap((s, i) => {
    const p = FieldPath.of('subsets').index(i);
    const errs: FieldError[] = [];
    if (!s.addresses?.length && !s.notReadyAddresses?.length) errs.push(required(p, 'must specify `addresses` or `notReadyAddresses`'));
    (s.addresses ?? []).forEach((a, j) => errs.push(...validateAddress(a, p.child('addresses').index(j))));
    (s.notReadyAddresses ?? []).forEach((a, j) => errs.push(...validateAddress(a, p.child('notReadyAddresses').index(j))));
    const ports = s.ports ?? [];
    ports.forEach((port, j) => errs.push(...validatePort(port, ports.length > 1, p.child('ports').index(j))));
    return errs;
  });
}

/** formatEndpoints: up to three `ip:port` entries, then ` + N more...`; `<none>` without subsets. */
export function formatEndpoints(ep: Endpoints): string {
  if (!ep.subsets?.length) return '<none>';
  const list: string[] = [];
  let count = 0;
  let more = false;
  const add = (entry: string): void => {
    if (list.length === 3) more = true;
    else list.push(entry);
  };
  for (const s of ep.subsets) {
    const addrs = s.addresses ?? [];
    if (!s.ports?.length) {
      count += addrs.length;
      for (const a of addrs) add(a.ip ?? '');
      continue;
    }
    for (const port of s.ports) {
      count += addrs.length;
      for (const a of addrs) add((a.ip ?? '').includes(':') ? `[${a.ip ?? ''}]:${port.port ?? 0}` : `${a.ip ?? ''}:${port.port ?? 0}`);
    }
  }
  return more ? `${list.join(',')} + ${count - 3} more...` : list.join(',');
}

export const endpointsView: CoreResourceView<Endpoints> = {
  group: '',
  version: 'v1',
  apiVersion: 'v1',
  resource: 'endpoints',
  kind: 'Endpoints',
  listKind: 'EndpointsList',
  singular: 'endpoints',
  shortNames: ['ep'],
  categories: [],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'fWeeMqaN/OA=',
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  invalidKind: { group: '', kind: 'Endpoints' },
  smpSchema: { 'metadata.finalizers': { patchStrategy: 'merge' }, 'metadata.ownerReferences': 'uid' },
  ...wireCodec<Endpoints>(coreTarget('Endpoints'), endpointsSpec, defaults),
  prepareForCreate: () => undefined,
  prepareForUpdate: () => undefined,
  validateCreate: (ep) => beforeCreate([...validateCoreMeta(ep.metadata, true, nameIsDNSSubdomain), ...validateSubsets(ep.subsets)], ep.metadata, true),
  validateUpdate: (ep, old) => beforeUpdate(ep.metadata, old.metadata, true, [...validateCoreMetaUpdate(ep.metadata, old.metadata), ...validateSubsets(ep.subsets)]),
  fieldLabels: ['metadata.name', 'metadata.namespace'],
  convertFieldLabel: defaultMetaFieldLabels,
  fields: (ep) => ({ 'metadata.name': ep.metadata.name ?? '', 'metadata.namespace': ep.metadata.namespace ?? '' }),
  tableColumns: [
    nameColumn,
    column(
      'Endpoints',
      'The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.',
    ),
    ageColumn,
  ],
  tableRow: (ep, now) => [ep.metadata.name ?? '', formatEndpoints(ep), since(ep.metadata.creationTimestamp, now)],
};
