/**
 * storage.k8s.io/v1 CSIDriver and CSIStorageCapacity (SetDefaults_CSIDriver, the main checks of
 * ValidateCSIDriver and ValidateCSIStorageCapacity): what a 1.24+ scheduler's volume binding
 * informs on. Keel registers no drivers and publishes no capacity; clients write both.
 */
import {
  defaultMetaFieldLabels,
  FieldPath,
  invalidValue,
  isDNS1123Subdomain,
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
  int64,
  list,
  nameColumn,
  named,
  objectMetaSpec,
  ptr,
  quantity,
  sameJson,
  since,
  str,
  struct,
  validateCoreMeta,
  validateCoreMetaUpdate,
  wireCodec,
  type ObjectMeta,
} from '@keel/resource';
import { labelSelectorSpec } from '../pod-schema.js';
import type { LabelSelector } from '../pod-types.js';
import { validateLabelSelector } from '../scheduling-validation.js';
import { groupTarget } from '../scheme.js';
import type { CoreResourceView } from '../view.js';

export interface CSIDriver {
  metadata: ObjectMeta;
  spec?: {
    attachRequired?: boolean;
    podInfoOnMount?: boolean;
    volumeLifecycleModes?: string[];
    storageCapacity?: boolean;
    fsGroupPolicy?: string;
    tokenRequests?: { audience?: string; expirationSeconds?: number }[];
    requiresRepublish?: boolean;
    seLinuxMount?: boolean;
    nodeAllocatableUpdatePeriodSeconds?: number;
  };
}

export interface CSIStorageCapacity {
  metadata: ObjectMeta;
  nodeTopology?: LabelSelector;
  storageClassName?: string;
  capacity?: string;
  maximumVolumeSize?: string;
}

const csiDriverWire = struct('v1.CSIDriver', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: always(
    struct('v1.CSIDriverSpec', {
      attachRequired: ptr(bool),
      podInfoOnMount: ptr(bool),
      volumeLifecycleModes: list(named('v1.VolumeLifecycleMode'), '[]v1.VolumeLifecycleMode'),
      storageCapacity: ptr(bool),
      fsGroupPolicy: ptr(named('v1.FSGroupPolicy')),
      tokenRequests: list(
        struct('v1.TokenRequest', { audience: always(str), expirationSeconds: ptr(int64) }),
        '[]v1.TokenRequest',
      ),
      requiresRepublish: ptr(bool),
      seLinuxMount: ptr(bool),
      nodeAllocatableUpdatePeriodSeconds: ptr(int64),
    }),
  ),
});

const csiStorageCapacityWire = struct('v1.CSIStorageCapacity', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  nodeTopology: ptr(labelSelectorSpec),
  storageClassName: always(str),
  capacity: ptr(quantity),
  maximumVolumeSize: ptr(quantity),
});

const LIFECYCLE_MODES = ['Persistent', 'Ephemeral'] as const;
const FS_GROUP_POLICIES = ['ReadWriteOnceWithFSType', 'File', 'None'] as const;

/** SetDefaults_CSIDriver. */
function defaultCSIDriver(d: CSIDriver): void {
  const spec = (d.spec ??= {});
  spec.attachRequired ??= true;
  spec.podInfoOnMount ??= false;
  spec.storageCapacity ??= false;
  spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
  if (!spec.volumeLifecycleModes?.length) spec.volumeLifecycleModes = ['Persistent'];
  spec.requiresRepublish ??= false;
  spec.seLinuxMount ??= false;
}

/** ValidateCSIDriverName: at most 63 characters and a DNS-1123 subdomain. */
function validateDriverName(name: string): string[] {
  if (name.length > 63) return ['must be no more than 63 characters'];
  return isDNS1123Subdomain(name.toLowerCase());
}

function validateCSIDriver(d: CSIDriver): FieldError[] {
  const errs = validateCoreMeta(d.metadata, false, validateDriverName);
  const p = FieldPath.of('spec');
  const spec = d.spec ?? {};
  (spec.volumeLifecycleModes ?? []).forEach((m) => {
    if (!(LIFECYCLE_MODES as readonly string[]).includes(m))
      errs.push(notSupported(p.child('volumeLifecycleModes'), m, LIFECYCLE_MODES));
  });
  const policy = spec.fsGroupPolicy;
  if (policy !== undefined && !(FS_GROUP_POLICIES as readonly string[]).includes(policy))
    errs.push(notSupported(p.child('fsGroupPolicy'), policy, FS_GROUP_POLICIES));
  (spec.tokenRequests ?? []).forEach((t, i) => {
    const seconds = t.expirationSeconds;
    if (seconds !== undefined && seconds < 600)
      errs.push(
        invalidValue(
          p.child('tokenRequests').index(i).child('expirationSeconds'),
          seconds,
          'may not specify a duration less than 10 minutes',
        ),
      );
  });
  return errs;
}

export const csiDriverView: CoreResourceView<CSIDriver> = {
  group: 'storage.k8s.io',
  version: 'v1',
  apiVersion: 'storage.k8s.io/v1',
  resource: 'csidrivers',
  kind: 'CSIDriver',
  listKind: 'CSIDriverList',
  singular: 'csidriver',
  shortNames: [],
  categories: [],
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'Z7aeXSiaYTw=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  invalidKind: { group: 'storage.k8s.io', kind: 'CSIDriver' },
  smpSchema: objectMetaSmpSchema,
  ...wireCodec<CSIDriver>(groupTarget('storage.k8s.io', 'CSIDriver'), csiDriverWire, defaultCSIDriver),
  prepareForCreate: () => undefined,
  prepareForUpdate: () => undefined,
  validateCreate: (d) => beforeCreate(validateCSIDriver(d), d.metadata, false),
  validateUpdate: (d, old) => {
    const errs = [...validateCoreMetaUpdate(d.metadata, old.metadata), ...validateCSIDriver(d)];
    // attachRequired, fsGroupPolicy and the lifecycle modes are fixed once the driver exists.
    for (const f of ['attachRequired', 'fsGroupPolicy', 'volumeLifecycleModes'] as const)
      if (!sameJson(d.spec?.[f], old.spec?.[f]))
        errs.push(invalidValue(FieldPath.of('spec', f), d.spec?.[f] ?? null, 'field is immutable'));
    return beforeUpdate(d.metadata, old.metadata, false, errs);
  },
  fieldLabels: ['metadata.name'],
  convertFieldLabel: defaultMetaFieldLabels,
  fields: (d) => ({ 'metadata.name': d.metadata.name ?? '' }),
  tableColumns: [
    nameColumn,
    column(
      'AttachRequired',
      'attachRequired indicates this CSI volume driver requires an attach operation (because it implements the CSI ControllerPublishVolume() method), and that the Kubernetes attach detach controller should call the attach volume interface which checks the volumeattachment status and waits until the volume is attached before proceeding to mounting.',
      0,
      'boolean',
    ),
    column(
      'PodInfoOnMount',
      'podInfoOnMount indicates this CSI volume driver requires additional pod information (like podName, podUID, etc.) during mount operations, if set to true.',
      0,
      'boolean',
    ),
    column(
      'StorageCapacity',
      'storageCapacity indicates that the CSI volume driver wants pod scheduling to consider the storage capacity that the driver deployment will report by creating CSIStorageCapacity objects with capacity information, if set to true.',
      0,
      'boolean',
    ),
    column(
      'TokenRequests',
      "tokenRequests indicates the CSI driver needs pods' service account tokens it is mounting volume for to do necessary authentication.",
    ),
    column(
      'RequiresRepublish',
      'requiresRepublish indicates the CSI driver wants `NodePublishVolume` being periodically called to reflect any possible change in the mounted volume.',
      0,
      'boolean',
    ),
    column('Modes', 'volumeLifecycleModes defines what kind of volumes this CSI volume driver supports.'),
    ageColumn,
  ],
  tableRow: (d, now) => {
    const tokens = d.spec?.tokenRequests ?? [];
    return [
      d.metadata.name ?? '',
      d.spec?.attachRequired ?? true,
      d.spec?.podInfoOnMount ?? false,
      d.spec?.storageCapacity ?? false,
      tokens.length === 0 ? '<unset>' : tokens.map((t) => t.audience ?? '').join(','),
      d.spec?.requiresRepublish ?? false,
      (d.spec?.volumeLifecycleModes ?? []).join(','),
      since(d.metadata.creationTimestamp, now),
    ];
  },
};

function validateCapacity(c: CSIStorageCapacity): FieldError[] {
  const errs = validateCoreMeta(c.metadata, true, nameIsDNSSubdomain);
  const className = c.storageClassName ?? '';
  if (className === '') errs.push(required(FieldPath.of('storageClassName'), ''));
  else
    errs.push(
      ...nameIsDNSSubdomain(className, false).map((msg) =>
        invalidValue(FieldPath.of('storageClassName'), className, msg),
      ),
    );
  errs.push(...validateLabelSelector(c.nodeTopology, FieldPath.of('nodeTopology')));
  for (const f of ['capacity', 'maximumVolumeSize'] as const) {
    const v = c[f];
    if (v?.startsWith('-')) errs.push(invalidValue(FieldPath.of(f), v, 'must be greater than or equal to 0'));
  }
  return errs;
}

export const csiStorageCapacityView: CoreResourceView<CSIStorageCapacity> = {
  group: 'storage.k8s.io',
  version: 'v1',
  apiVersion: 'storage.k8s.io/v1',
  resource: 'csistoragecapacities',
  kind: 'CSIStorageCapacity',
  listKind: 'CSIStorageCapacityList',
  singular: 'csistoragecapacity',
  shortNames: [],
  categories: [],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'xeVl+2Ly1kE=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  invalidKind: { group: 'storage.k8s.io', kind: 'CSIStorageCapacity' },
  smpSchema: objectMetaSmpSchema,
  ...wireCodec<CSIStorageCapacity>(
    groupTarget('storage.k8s.io', 'CSIStorageCapacity'),
    csiStorageCapacityWire,
  ),
  prepareForCreate: () => undefined,
  prepareForUpdate: () => undefined,
  validateCreate: (c) => beforeCreate(validateCapacity(c), c.metadata, true),
  validateUpdate: (c, old) => {
    const errs = [...validateCoreMetaUpdate(c.metadata, old.metadata), ...validateCapacity(c)];
    if (c.storageClassName !== old.storageClassName)
      errs.push(
        invalidValue(FieldPath.of('storageClassName'), c.storageClassName ?? '', 'field is immutable'),
      );
    if (!sameJson(c.nodeTopology, old.nodeTopology))
      errs.push(invalidValue(FieldPath.of('nodeTopology'), c.nodeTopology ?? null, 'field is immutable'));
    return beforeUpdate(c.metadata, old.metadata, true, errs);
  },
  fieldLabels: ['metadata.name', 'metadata.namespace'],
  convertFieldLabel: defaultMetaFieldLabels,
  fields: (c) => ({
    'metadata.name': c.metadata.name ?? '',
    'metadata.namespace': c.metadata.namespace ?? '',
  }),
  tableColumns: [
    nameColumn,
    column(
      'StorageClassName',
      'storageClassName represents the name of the StorageClass that the reported capacity applies to.',
    ),
    column(
      'Capacity',
      'capacity is the value reported by the CSI driver in its GetCapacityResponse for a GetCapacityRequest with topology and parameters that match the previous fields.',
    ),
    ageColumn,
  ],
  tableRow: (c, now) => [
    c.metadata.name ?? '',
    c.storageClassName ?? '',
    c.capacity ?? '',
    since(c.metadata.creationTimestamp, now),
  ],
};
