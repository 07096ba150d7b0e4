/**
 * storage.k8s.io/v1 StorageClass and CSINode (SetDefaults_StorageClass, ValidateStorageClass(Update),
 * ValidateCSINode, printStorageClass, printCSINode). Keel provisions nothing: a class is what a
 * scheduler's volume binding reads, and a CSINode what its volume-limits check reads.
 */
import {
  defaultMetaFieldLabels,
  duplicate,
  FieldPath,
  forbiddenField,
  invalidValue,
  isQualifiedName,
  nameIsDNSSubdomain,
  notSupported,
  objectMetaSmpSchema,
  required,
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
  list,
  nameColumn,
  named,
  objectMetaSpec,
  ptr,
  raw,
  sameJson,
  since,
  str,
  stringMap,
  struct,
  validateCoreMeta,
  validateCoreMetaUpdate,
  wireCodec,
  type ObjectMeta,
} from '@keel/resource';
import { groupTarget } from '../scheme.js';
import type { CoreResourceView } from '../view.js';

export interface StorageClass {
  metadata: ObjectMeta;
  provisioner?: string;
  parameters?: Record<string, string>;
  reclaimPolicy?: string;
  mountOptions?: string[];
  allowVolumeExpansion?: boolean;
  volumeBindingMode?: string;
  allowedTopologies?: unknown[];
}

export interface CSINodeDriver {
  name?: string;
  nodeID?: string;
  topologyKeys?: string[];
  allocatable?: { count?: number };
}

export interface CSINode {
  metadata: ObjectMeta;
  spec?: { drivers?: CSINodeDriver[] };
}

const storageClassWire = struct('v1.StorageClass', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  provisioner: always(str),
  parameters: stringMap,
  reclaimPolicy: ptr(named('v1.PersistentVolumeReclaimPolicy')),
  mountOptions: list(str, '[]string'),
  allowVolumeExpansion: ptr(bool),
  volumeBindingMode: ptr(named('v1.VolumeBindingMode')),
  allowedTopologies: list(raw, '[]v1.TopologySelectorTerm'),
});

const csiNodeWire = struct('v1.CSINode', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: struct('v1.CSINodeSpec', {
    drivers: always(
      list(
        struct('v1.CSINodeDriver', {
          name: always(str),
          nodeID: always(str),
          topologyKeys: always(list(str, '[]string')),
          allocatable: ptr(struct('v1.VolumeNodeResources', { count: ptr(int32) })),
        }),
        '[]v1.CSINodeDriver',
      ),
    ),
  }),
});

const RECLAIM_POLICIES = ['Delete', 'Retain'] as const;
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'] as const;
const MAX_PARAMETERS_SIZE = 256 * 1024;

/** SetDefaults_StorageClass. */
function defaultStorageClass(sc: StorageClass): void {
  sc.reclaimPolicy ??= 'Delete';
  sc.volumeBindingMode ??= 'Immediate';
}

/** validateProvisioner: required, a qualified name, lower case. */
function validateProvisioner(provisioner: string, p: FieldPath): FieldError[] {
  if (provisioner === '') return [required(p, '')];
  const errs = isQualifiedName(provisioner.toLowerCase()).map((msg) => invalidValue(p, provisioner, msg));
  return errs;
}

/** ValidateStorageClass. */
export function validateStorageClass(sc: StorageClass): FieldError[] {
  const errs = validateCoreMeta(sc.metadata, false, nameIsDNSSubdomain);
  errs.push(...validateProvisioner(sc.provisioner ?? '', FieldPath.of('provisioner')));
  const params = sc.parameters ?? {};
  let size = 0;
  for (const [k, v] of Object.entries(params)) {
    if (k === '') errs.push(invalidValue(FieldPath.of('parameters'), params, 'key cannot be empty'));
    size += k.length + v.length;
  }
  if (size > MAX_PARAMETERS_SIZE)
    errs.push({
      type: 'FieldValueTooLong',
      field: 'parameters',
      badValue: '',
      detail: `must have at most ${MAX_PARAMETERS_SIZE} bytes`,
    });
  const policy = sc.reclaimPolicy ?? '';
  if (!(RECLAIM_POLICIES as readonly string[]).includes(policy))
    errs.push(notSupported(FieldPath.of('reclaimPolicy'), policy, RECLAIM_POLICIES));
  const mode = sc.volumeBindingMode;
  if (mode === undefined) errs.push(required(FieldPath.of('volumeBindingMode'), ''));
  else if (!(BINDING_MODES as readonly string[]).includes(mode))
    errs.push(notSupported(FieldPath.of('volumeBindingMode'), mode, BINDING_MODES));
  return errs;
}

/** ValidateStorageClassUpdate: provisioner, parameters, reclaimPolicy and volumeBindingMode are fixed. */
function validateStorageClassUpdate(sc: StorageClass, old: StorageClass): FieldError[] {
  const errs = [...validateCoreMetaUpdate(sc.metadata, old.metadata), ...validateStorageClass(sc)];
  if (!sameJson(sc.parameters ?? {}, old.parameters ?? {}))
    errs.push(forbiddenField(FieldPath.of('parameters'), 'updates to parameters are forbidden.'));
  if (sc.provisioner !== old.provisioner)
    errs.push(forbiddenField(FieldPath.of('provisioner'), 'updates to provisioner are forbidden.'));
  if (sc.reclaimPolicy !== old.reclaimPolicy)
    errs.push(forbiddenField(FieldPath.of('reclaimPolicy'), 'updates to reclaimPolicy are forbidden.'));
  if (sc.volumeBindingMode !== old.volumeBindingMode)
    errs.push(
      invalidValue(FieldPath.of('volumeBindingMode'), sc.volumeBindingMode ?? null, 'field is immutable'),
    );
  return errs;
}

const isDefaultClass = (sc: StorageClass): boolean =>
  sc.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true' ||
  sc.metadata.annotations?.['storageclass.beta.kubernetes.io/is-default-class'] === 'true';

export const storageClassView: CoreResourceView<StorageClass> = {
  group: 'storage.k8s.io',
  version: 'v1',
  apiVersion: 'storage.k8s.io/v1',
  resource: 'storageclasses',
  kind: 'StorageClass',
  listKind: 'StorageClassList',
  singular: 'storageclass',
  shortNames: ['sc'],
  categories: [],
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'K+m6uJwbjGY=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  invalidKind: { group: 'storage.k8s.io', kind: 'StorageClass' },
  smpSchema: objectMetaSmpSchema,
  ...wireCodec<StorageClass>(
    groupTarget('storage.k8s.io', 'StorageClass'),
    storageClassWire,
    defaultStorageClass,
  ),
  prepareForCreate: () => undefined,
  prepareForUpdate: () => undefined,
  validateCreate: (sc) => beforeCreate(validateStorageClass(sc), sc.metadata, false),
  validateUpdate: (sc, old) =>
    beforeUpdate(sc.metadata, old.metadata, false, validateStorageClassUpdate(sc, old)),
  fieldLabels: ['metadata.name'],
  convertFieldLabel: defaultMetaFieldLabels,
  fields: (sc) => ({ 'metadata.name': sc.metadata.name ?? '' }),
  tableColumns: [
    nameColumn,
    column('Provisioner', 'provisioner indicates the type of the provisioner.'),
    column(
      'ReclaimPolicy',
      'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.',
    ),
    column(
      'VolumeBindingMode',
      'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.',
    ),
    column(
      'AllowVolumeExpansion',
      'allowVolumeExpansion shows whether the storage class allow volume expand.',
    ),
    ageColumn,
  ],
  tableRow: (sc, now) => [
    isDefaultClass(sc) ? `${sc.metadata.name ?? ''} (default)` : (sc.metadata.name ?? ''),
    sc.provisioner ?? '',
    sc.reclaimPolicy ?? 'Delete',
    sc.volumeBindingMode ?? 'Immediate',
    sc.allowVolumeExpansion ?? false,
    since(sc.metadata.creationTimestamp, now),
  ],
};

/** ValidateCSINode's main checks: each driver named, with a node ID, once. */
export function validateCSINode(node: CSINode): FieldError[] {
  const errs = validateCoreMeta(node.metadata, false, nameIsDNSSubdomain);
  const p = FieldPath.of('spec', 'drivers');
  const seen = new Set<string>();
  (node.spec?.drivers ?? []).forEach((d, i) => {
    const dp = p.index(i);
    const name = d.name ?? '';
    if (name === '') errs.push(required(dp.child('name'), ''));
    else if (name.length > 63)
      errs.push({
        type: 'FieldValueTooLong',
        field: dp.child('name').toString(),
        badValue: '',
        detail: 'may not be more than 63 bytes',
      });
    if ((d.nodeID ?? '') === '') errs.push(required(dp.child('nodeID'), ''));
    if (seen.has(name)) errs.push(duplicate(dp.child('name'), name));
    seen.add(name);
    if ((d.allocatable?.count ?? 0) < 0)
      errs.push(
        invalidValue(
          dp.child('allocatable', 'count'),
          d.allocatable?.count,
          'must be greater than or equal to 0',
        ),
      );
  });
  return errs;
}

export const csiNodeView: CoreResourceView<CSINode> = {
  group: 'storage.k8s.io',
  version: 'v1',
  apiVersion: 'storage.k8s.io/v1',
  resource: 'csinodes',
  kind: 'CSINode',
  listKind: 'CSINodeList',
  singular: 'csinode',
  shortNames: [],
  categories: [],
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'Pe62DkZtjuo=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  invalidKind: { group: 'storage.k8s.io', kind: 'CSINode' },
  smpSchema: { ...objectMetaSmpSchema, 'spec.drivers': 'name' },
  ...wireCodec<CSINode>(groupTarget('storage.k8s.io', 'CSINode'), csiNodeWire),
  prepareForCreate: () => undefined,
  prepareForUpdate: () => undefined,
  validateCreate: (n) => beforeCreate(validateCSINode(n), n.metadata, false),
  validateUpdate: (n, old) =>
    beforeUpdate(n.metadata, old.metadata, false, [
      ...validateCoreMetaUpdate(n.metadata, old.metadata),
      ...validateCSINode(n),
    ]),
  fieldLabels: ['metadata.name'],
  convertFieldLabel: defaultMetaFieldLabels,
  fields: (n) => ({ 'metadata.name': n.metadata.name ?? '' }),
  tableColumns: [
    nameColumn,
    column('Drivers', 'Drivers indicates the number of CSI drivers registered on the node', 0, 'integer'),
    ageColumn,
  ],
  tableRow: (n, now) => [
    n.metadata.name ?? '',
    n.spec?.drivers?.length ?? 0,
    since(n.metadata.creationTimestamp, now),
  ],
};
