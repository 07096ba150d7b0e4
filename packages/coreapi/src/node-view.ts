/**
 * core/v1 Node as served (pkg/registry/core/node, ValidateNode / ValidateNodeUpdate,
 * printNode): cluster-scoped, taints and resource quantities validated, status kept on main
 * updates and spec kept on status updates.
 */
import {
  compareGoStrings,
  duplicate,
  FieldPath,
  forbiddenField,
  invalidValue,
  isValidLabelValue,
  nameIsDNSSubdomain,
  supportedFieldLabels,
  type FieldError,
} from '@keel/apimachinery';
import {
  keepFrom,
  beforeCreate,
  beforeUpdate,
  validateCoreMeta,
  validateCoreMetaUpdate,
  sameJson,
  ageColumn,
  column,
  nameColumn,
  since,
  type TableColumn,
  statusSubresourceView,
  wireCodec,
  type StatusHooks,
} from '@keel/resource';
import type { CoreResourceView } from './view.js';
import { nodeWireSpec, type Node, type Taint } from './node-schema.js';
import { validateResourceQuantityValue } from './resource-validation.js';
import { validateLabelName, validateTaintEffect } from './scheduling-validation.js';
import { coreTarget } from './scheme.js';

/** SetDefaults_NodeStatus (allocatable defaults to capacity) and the podCIDR/podCIDRs conversion. */
function defaultNode(node: Node): void {
  const status = node.status;
  if (status?.capacity && !status.allocatable) status.allocatable = { ...status.capacity };
  const spec = node.spec;
  if (spec?.podCIDR && (!spec.podCIDRs?.length || spec.podCIDRs[0] !== spec.podCIDR)) spec.podCIDRs = [spec.podCIDR];
  if (spec?.podCIDRs?.[0]) spec.podCIDR = spec.podCIDRs[0];
}

const codec = wireCodec<Node>(coreTarget('Node'), nodeWireSpec, defaultNode);

/**
 * validateNodeTaints. Go validates them under `metadata.taints` (ValidateNode builds the path
 * from metadata), which the messages keep.
 */
export function validateNodeTaints(taints: readonly Taint[] | undefined): FieldError[] {
  const p = FieldPath.of('metadata', 'taints');
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (taints ?? []).forEach((t, i) => {
    const ip = p.index(i);
    const [key, value, effect] = [t.key ?? '', t.value ?? '', t.effect ?? ''];
    errs.push(...validateLabelName(key, ip.child('key')));
    const msgs = isValidLabelValue(value);
    if (msgs.length > 0) errs.push(invalidValue(ip.child('value'), value, msgs.join(';')));
    errs.push(...validateTaintEffect(effect, false, ip.child('effect')));
    const id = `${effect}\u0000${key}`;
    if (seen.has(id)) {
      const shown = { Key: key, Value: value, Effect: effect, TimeAdded: t.timeAdded ?? null };
      errs.push({ ...duplicate(ip, shown), detail: 'taints must be unique by key and effect pair' });
      return;
    }
    seen.add(id);
  });
  return errs;
}

/** ValidateNodeResources: capacity and allocatable quantities (paths as Go builds them). */
function validateNodeResources(node: Node): FieldError[] {
  return (['capacity', 'allocatable'] as const).flatMap((field) => {
    const list = node.status?.[field] ?? {};
    return Object.keys(list)
      .sort(compareGoStrings)
      .flatMap((name) => validateResourceQuantityValue(name, list[name] ?? '0', FieldPath.of('status', field, name)));
  });
}

function validateNode(node: Node): FieldError[] {
  return [
    ...validateCoreMeta(node.metadata, false, nameIsDNSSubdomain),
    ...(node.spec?.taints?.length ? validateNodeTaints(node.spec.taints) : []),
    ...validateNodeResources(node),
  ];
}

/** ValidateNodeUpdate. */
function validateNodeUpdate(node: Node, old: Node): FieldError[] {
  const errs = [...validateCoreMetaUpdate(node.metadata, old.metadata), ...validateNodeResources(node)];
  const seen: unknown[] = [];
  (node.status?.addresses ?? []).forEach((a, i) => {
    const shown = { Type: a.type ?? '', Address: a.address ?? '' };
    if (seen.some((s) => sameJson(s, shown))) errs.push(duplicate(FieldPath.of('status', 'addresses').index(i), shown));
    seen.push(shown);
  });
  const [cidrs, oldCidrs] = [node.spec?.podCIDRs ?? [], old.spec?.podCIDRs ?? []];
  if (oldCidrs.length > 0 && !sameJson(cidrs, oldCidrs)) {
    errs.push(forbiddenField(FieldPath.of('spec', 'podCIDRs'), 'node updates may not change podCIDR except from "" to valid'));
  }
  const oldProvider = old.spec?.providerID ?? '';
  if (oldProvider !== '' && oldProvider !== (node.spec?.providerID ?? '')) {
    errs.push(forbiddenField(FieldPath.of('spec', 'providerID'), 'node updates may not change providerID except from "" to valid'));
  }
  if (node.spec?.taints?.length) errs.push(...validateNodeTaints(node.spec.taints));
  if ((node.spec?.externalID ?? '') !== (old.spec?.externalID ?? '')) errs.push(forbiddenField(FieldPath.of('spec', 'externalID'), 'may not be updated'));
  return errs;
}

const rolePrefix = 'node-role.kubernetes.io/';

/** findNodeRoles: `node-role.kubernetes.io/<role>` keys and the `kubernetes.io/role` value, sorted. */
function nodeRoles(node: Node): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith(rolePrefix) && k.length > rolePrefix.length) roles.add(k.slice(rolePrefix.length));
    else if (k === 'kubernetes.io/role' && v !== '') roles.add(v);
  }
  return [...roles].sort(compareGoStrings).join(',') || '<none>';
}

function nodeStatus(node: Node): string {
  const ready = (node.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const status = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

const address = (node: Node, type: string): string => node.status?.addresses?.find((a) => a.type === type)?.address ?? '<none>';
const orUnknown = (s: string | undefined): string => s || '<unknown>';
const addressesDoc =
  'List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/concepts/nodes/node/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node\'s address in its own status or consumers of the downward API (status.hostIP).';

export const nodeTableColumns: readonly TableColumn[] = [
  nameColumn,
  column('Status', 'The status of the node'),
  column('Roles', 'The roles of the node'),
  ageColumn,
  column('Version', 'Kubelet Version reported by the node.'),
  column('Internal-IP', addressesDoc, 1),
  column('External-IP', addressesDoc, 1),
  column('OS-Image', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
  column('Kernel-Version', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
  column('Container-Runtime', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', 1),
];

export function nodeTableRow(node: Node, now: Date): unknown[] {
  const info = node.status?.nodeInfo ?? {};
  return [
    node.metadata.name ?? '',
    nodeStatus(node),
    nodeRoles(node),
    since(node.metadata.creationTimestamp, now),
    info.kubeletVersion ?? '',
    address(node, 'InternalIP'),
    address(node, 'ExternalIP'),
    orUnknown(info.osImage),
    orUnknown(info.kernelVersion),
    orUnknown(info.containerRuntimeVersion),
  ];
}

export const nodeView: CoreResourceView<Node> & StatusHooks<Node> = {
  group: '',
  version: 'v1',
  apiVersion: 'v1',
  resource: 'nodes',
  kind: 'Node',
  listKind: 'NodeList',
  singular: 'node',
  shortNames: ['no'],
  categories: [],
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'XwShjMxG9Fs=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  invalidKind: { group: '', kind: 'Node' },
  smpSchema: {
    'metadata.finalizers': { patchStrategy: 'merge' },
    'metadata.ownerReferences': 'uid',
    'spec.podCIDRs': { patchStrategy: 'merge' },
    'status.conditions': 'type',
    'status.addresses': 'type',
  },
  ...codec,
  prepareForCreate: () => undefined,
  prepareForUpdate: (node, old) => keepFrom(node, old, 'status'),
  prepareStatusUpdate: (node, old) => keepFrom(node, old, 'spec'),
  validateCreate: (node) => beforeCreate(validateNode(node), node.metadata, false),
  validateUpdate: (node, old) => beforeUpdate(node.metadata, old.metadata, false, validateNodeUpdate(node, old)),
  validateStatusUpdate: (node, old) => beforeUpdate(node.metadata, old.metadata, false, validateNodeUpdate(node, old)),
  fieldLabels: ['metadata.name', 'spec.unschedulable'],
  convertFieldLabel: supportedFieldLabels(['metadata.name', 'spec.unschedulable']),
  fields: (node) => ({ 'metadata.name': node.metadata.name ?? '', 'spec.unschedulable': String(node.spec?.unschedulable === true) }),
  tableColumns: nodeTableColumns,
  tableRow: nodeTableRow,
};

/** nodes/status: get, patch, update; only status changes. */
export const nodeStatusView = statusSubresourceView(nodeView);
