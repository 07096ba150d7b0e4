/**
 * core/v1 PersistentVolume and PersistentVolumeClaim (SetDefaults_*, ValidatePersistentVolume,
 * ValidatePersistentVolumeClaim, printPersistentVolume(Claim)). Keel runs no volume binder,
 * provisioner or recycler: claims stay Pending and volumes Pending/Available until a client
 * writes their status.
 */
import {
  compareGoStrings,
  defaultMetaFieldLabels,
  FieldPath,
  forbiddenField,
  invalidValue,
  nameIsDNSSubdomain,
  notSupported,
  objectMetaSmpSchema,
  required,
  type FieldError,
} from '@keel/apimachinery';
import {
  ageColumn,
  beforeCreate,
  beforeUpdate,
  column,
  compareQuantity,
  keepFrom,
  list,
  map,
  nameColumn,
  named,
  objectMetaSpec,
  parseQuantity,
  ptr,
  raw,
  resourceList,
  sameJson,
  since,
  statusSubresourceView,
  str,
  struct,
  time,
  validateCoreMeta,
  validateCoreMetaUpdate,
  wireCodec,
  type ObjectMeta,
  type StatusHooks,
} from '@keel/resource';
import { labelSelectorSpec } from '../pod-schema.js';
import type { LabelSelector, ResourceList } from '../pod-types.js';
import { validateResourceQuantityValue } from '../resource-validation.js';
import { validateLabelSelector } from '../scheduling-validation.js';
import { coreTarget } from '../scheme.js';
import type { CoreResourceView } from '../view.js';

export const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'] as const;
const VOLUME_MODES = ['Block', 'Filesystem'] as const;
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'] as const;

/** The persistent volume sources (PersistentVolumeSource's members); exactly one is set. */
export const PV_SOURCES = [
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'hostPath',
  'glusterfs',
  'nfs',
  'rbd',
  'iscsi',
  'cinder',
  'cephfs',
  'fc',
  'flocker',
  'flexVolume',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'local',
  'storageos',
  'csi',
] as const;

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export type PersistentVolumeSpec = {
  capacity?: ResourceList;
  accessModes?: string[];
  claimRef?: ObjectReference;
  persistentVolumeReclaimPolicy?: string;
  storageClassName?: string;
  mountOptions?: string[];
  volumeMode?: string;
  nodeAffinity?: unknown;
  volumeAttributesClassName?: string;
} & { [source in (typeof PV_SOURCES)[number]]?: unknown };

export interface PersistentVolume {
  metadata: ObjectMeta;
  spec?: PersistentVolumeSpec;
  status?: { phase?: string; message?: string; reason?: string; lastPhaseTransitionTime?: string };
}

export interface PersistentVolumeClaimSpec {
  accessModes?: string[];
  selector?: LabelSelector;
  resources?: { limits?: ResourceList; requests?: ResourceList };
  volumeName?: string;
  storageClassName?: string;
  volumeMode?: string;
  dataSource?: unknown;
  dataSourceRef?: unknown;
  volumeAttributesClassName?: string;
}

export interface PersistentVolumeClaim {
  metadata: ObjectMeta;
  spec?: PersistentVolumeClaimSpec;
  status?: { phase?: string; accessModes?: string[]; capacity?: ResourceList; [k: string]: unknown };
}

const strings = list(str, '[]string');
const accessModes = list(named('v1.PersistentVolumeAccessMode'), '[]v1.PersistentVolumeAccessMode');

const persistentVolumeWire = struct('v1.PersistentVolume', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: struct('v1.PersistentVolumeSpec', {
    capacity: resourceList,
    // The sources are many and inline; kept whole as sent (their presence is what is checked).
    ...Object.fromEntries(PV_SOURCES.map((s) => [s, ptr(raw)])),
    accessModes,
    claimRef: ptr(raw),
    persistentVolumeReclaimPolicy: named('v1.PersistentVolumeReclaimPolicy'),
    storageClassName: str,
    mountOptions: strings,
    volumeMode: ptr(named('v1.PersistentVolumeMode')),
    nodeAffinity: ptr(raw),
    volumeAttributesClassName: ptr(str),
  }),
  status: struct('v1.PersistentVolumeStatus', {
    phase: named('v1.PersistentVolumePhase'),
    message: str,
    reason: str,
    lastPhaseTransitionTime: ptr(time),
  }),
});

const persistentVolumeClaimWire = struct('v1.PersistentVolumeClaim', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: struct('v1.PersistentVolumeClaimSpec', {
    accessModes,
    selector: ptr(labelSelectorSpec),
    resources: struct('v1.VolumeResourceRequirements', { limits: resourceList, requests: resourceList }),
    volumeName: str,
    storageClassName: ptr(str),
    volumeMode: ptr(named('v1.PersistentVolumeMode')),
    dataSource: ptr(raw),
    dataSourceRef: ptr(raw),
    volumeAttributesClassName: ptr(str),
  }),
  status: struct('v1.PersistentVolumeClaimStatus', {
    phase: named('v1.PersistentVolumeClaimPhase'),
    accessModes,
    capacity: resourceList,
    conditions: list(raw, '[]v1.PersistentVolumeClaimCondition'),
    allocatedResources: resourceList,
    allocatedResourceStatuses: map(str, 'map[v1.ResourceName]v1.ClaimResourceStatus'),
    currentVolumeAttributesClassName: ptr(str),
    modifyVolumeStatus: ptr(raw),
  }),
});

/** SetDefaults_PersistentVolume. */
function defaultPV(pv: PersistentVolume): void {
  const spec = (pv.spec ??= {});
  spec.persistentVolumeReclaimPolicy ||= 'Retain';
  spec.volumeMode ??= 'Filesystem';
  const status = (pv.status ??= {});
  status.phase ||= 'Pending';
}

/** SetDefaults_PersistentVolumeClaim. */
function defaultPVC(pvc: PersistentVolumeClaim): void {
  const spec = (pvc.spec ??= {});
  spec.volumeMode ??= 'Filesystem';
  const status = (pvc.status ??= {});
  status.phase ||= 'Pending';
}

function validateAccessModes(
  modes: string[] | undefined,
  p: FieldPath,
  requiredDetail: string,
): FieldError[] {
  if (!modes || modes.length === 0) return [required(p, requiredDetail)];
  const errs = modes
    .filter((m) => !(ACCESS_MODES as readonly string[]).includes(m))
    .map((m) => notSupported(p, m, ACCESS_MODES));
  if (modes.includes('ReadWriteOncePod') && modes.length > 1)
    errs.push(forbiddenField(p, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

function validateVolumeMode(mode: string | undefined, p: FieldPath): FieldError[] {
  return mode !== undefined && !(VOLUME_MODES as readonly string[]).includes(mode)
    ? [notSupported(p, mode, VOLUME_MODES)]
    : [];
}

function validateClassName(name: string | undefined, p: FieldPath): FieldError[] {
  if (!name) return [];
  return nameIsDNSSubdomain(name, false).map((msg) => invalidValue(p, name, msg));
}

/** ValidatePersistentVolumeSpec's main checks. */
export function validatePersistentVolume(pv: PersistentVolume): FieldError[] {
  const errs = validateCoreMeta(pv.metadata, false, nameIsDNSSubdomain);
  const spec = pv.spec ?? {};
  const p = FieldPath.of('spec');
  errs.push(...validateAccessModes(spec.accessModes, p.child('accessModes'), ''));
  const capacity = spec.capacity ?? {};
  const names = Object.keys(capacity).sort(compareGoStrings);
  if (names.length === 0) errs.push(required(p.child('capacity'), ''));
  else if (names.length > 1 || names[0] !== 'storage')
    errs.push(notSupported(p.child('capacity'), names, ['storage']));
  for (const n of names)
    errs.push(...validateResourceQuantityValue(n, capacity[n] ?? '0', p.child('capacity').key(n)));
  const policy = spec.persistentVolumeReclaimPolicy ?? '';
  if (!(RECLAIM_POLICIES as readonly string[]).includes(policy))
    errs.push(notSupported(p.child('persistentVolumeReclaimPolicy'), policy, RECLAIM_POLICIES));
  errs.push(...validateClassName(spec.storageClassName, p.child('storageClassName')));
  const sources = PV_SOURCES.filter((s) => spec[s] !== undefined && spec[s] !== null);
  if (sources.length === 0) errs.push(required(p, 'must specify a volume type'));
  for (const extra of sources.slice(1))
    errs.push(forbiddenField(p.child(extra), 'may not specify more than 1 volume type'));
  errs.push(...validateVolumeMode(spec.volumeMode, p.child('volumeMode')));
  return errs;
}

/** ValidatePersistentVolumeUpdate: the volume mode and (once set) the source never change. */
function validatePVUpdate(pv: PersistentVolume, old: PersistentVolume): FieldError[] {
  const errs = [...validateCoreMetaUpdate(pv.metadata, old.metadata), ...validatePersistentVolume(pv)];
  if (pv.spec?.volumeMode !== old.spec?.volumeMode)
    errs.push(
      invalidValue(FieldPath.of('spec', 'volumeMode'), pv.spec?.volumeMode ?? null, 'field is immutable'),
    );
  for (const s of PV_SOURCES)
    if (!sameJson(pv.spec?.[s], old.spec?.[s]))
      errs.push(
        forbiddenField(
          FieldPath.of('spec', 'persistentvolumesource'),
          'spec.persistentvolumesource is immutable after creation',
        ),
      );
  return errs.filter((e, i, all) => all.findIndex((o) => o.field === e.field && o.detail === e.detail) === i);
}

const positive = (name: string, value: string, p: FieldPath): FieldError[] => {
  const errs = validateResourceQuantityValue(name, value, p);
  if (errs.length === 0 && compareQuantity(parseQuantity(value), parseQuantity('0')) <= 0)
    errs.push(invalidValue(p, value, 'must be greater than zero'));
  return errs;
};

/** ValidatePersistentVolumeClaimSpec's main checks. */
export function validatePersistentVolumeClaim(pvc: PersistentVolumeClaim): FieldError[] {
  const errs = validateCoreMeta(pvc.metadata, true, nameIsDNSSubdomain);
  const spec = pvc.spec ?? {};
  const p = FieldPath.of('spec');
  errs.push(
    ...validateAccessModes(spec.accessModes, p.child('accessModes'), 'at least 1 access mode is required'),
  );
  if (spec.selector) errs.push(...validateLabelSelector(spec.selector, p.child('selector')));
  const storage = spec.resources?.requests?.storage;
  if (storage === undefined) errs.push(required(p.child('resources').key('storage'), ''));
  else errs.push(...positive('storage', storage, p.child('resources').key('storage')));
  errs.push(...validateClassName(spec.storageClassName, p.child('storageClassName')));
  errs.push(...validateVolumeMode(spec.volumeMode, p.child('volumeMode')));
  return errs;
}

/**
 * ValidatePersistentVolumeClaimUpdate: the spec is fixed after creation but for the storage
 * request (of a bound claim) and a volumeName that was empty (binding).
 */
function validatePVCUpdate(pvc: PersistentVolumeClaim, old: PersistentVolumeClaim): FieldError[] {
  const errs = [...validateCoreMetaUpdate(pvc.metadata, old.metadata), ...validatePersistentVolumeClaim(pvc)];
  const comparable = (s: PersistentVolumeClaimSpec | undefined, bindable: boolean) => {
    const copy = { ...s, resources: { ...s?.resources, requests: { ...s?.resources?.requests } } };
    delete copy.resources.requests.storage;
    delete copy.volumeAttributesClassName;
    if (bindable) delete copy.volumeName;
    return copy;
  };
  const bindable = !old.spec?.volumeName;
  if (!sameJson(comparable(pvc.spec, bindable), comparable(old.spec, bindable)))
    errs.push(
      forbiddenField(
        FieldPath.of('spec'),
        'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
      ),
    );
  const oldStorage = old.spec?.resources?.requests?.storage;
  const storage = pvc.spec?.resources?.requests?.storage;
  if (oldStorage !== undefined && storage !== undefined && storage !== oldStorage) {
    if (old.status?.phase !== 'Bound')
      errs.push(
        forbiddenField(
          FieldPath.of('spec', 'resources', 'requests', 'storage'),
          'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
        ),
      );
    else if (compareQuantity(parseQuantity(storage), parseQuantity(oldStorage)) < 0)
      errs.push(
        forbiddenField(
          FieldPath.of('spec', 'resources', 'requests', 'storage'),
          'field can not be less than status.capacity',
        ),
      );
  }
  return errs;
}

/** GetAccessModesAsString: the short forms joined by commas. */
export function accessModesString(modes: readonly string[] | undefined): string {
  const short: Record<string, string> = {
    ReadWriteOnce: 'RWO',
    ReadOnlyMany: 'ROX',
    ReadWriteMany: 'RWX',
    ReadWriteOncePod: 'RWOP',
  };
  return Object.keys(short)
    .filter((m) => modes?.includes(m))
    .map((m) => short[m])
    .join(',');
}

/** GetPersistentVolume(Claim)Class: the beta annotation wins over the field. */
function storageClassOf(meta: ObjectMeta, field: string | undefined): string {
  return meta.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? field ?? '';
}

export const persistentVolumeView: CoreResourceView<PersistentVolume> & StatusHooks<PersistentVolume> = {
  group: '',
  version: 'v1',
  apiVersion: 'v1',
  resource: 'persistentvolumes',
  kind: 'PersistentVolume',
  listKind: 'PersistentVolumeList',
  singular: 'persistentvolume',
  shortNames: ['pv'],
  categories: [],
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'HN/zwEC+JgM=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  invalidKind: { group: '', kind: 'PersistentVolume' },
  smpSchema: { ...objectMetaSmpSchema },
  ...wireCodec<PersistentVolume>(coreTarget('PersistentVolume'), persistentVolumeWire, defaultPV),
  prepareForCreate(pv) {
    pv.status = { phase: 'Pending' };
  },
  prepareForUpdate: (pv, old) => keepFrom(pv, old, 'status'),
  prepareStatusUpdate: (pv, old) => keepFrom(pv, old, 'spec'),
  validateCreate: (pv) => beforeCreate(validatePersistentVolume(pv), pv.metadata, false),
  validateUpdate: (pv, old) => beforeUpdate(pv.metadata, old.metadata, false, validatePVUpdate(pv, old)),
  validateStatusUpdate: (pv, old) =>
    beforeUpdate(pv.metadata, old.metadata, false, validateCoreMetaUpdate(pv.metadata, old.metadata)),
  fieldLabels: ['metadata.name'],
  convertFieldLabel: defaultMetaFieldLabels,
  fields: (pv) => ({ 'metadata.name': pv.metadata.name ?? '' }),
  tableColumns: [
    nameColumn,
    column(
      'Capacity',
      "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity",
    ),
    column(
      'Access Modes',
      'accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes',
    ),
    column(
      'Reclaim Policy',
      'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming',
    ),
    column(
      'Status',
      'phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase',
    ),
    column(
      'Claim',
      'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding',
    ),
    column(
      'StorageClass',
      'storageClassName is the name of StorageClass to which this persistent volume belongs. Empty value means that this volume does not belong to any StorageClass.',
    ),
    column(
      'VolumeAttributesClass',
      'Name of VolumeAttributesClass to which this persistent volume belongs. Empty value is not allowed. When this field is not set, it indicates that this volume does not belong to any VolumeAttributesClass. This field is mutable and can be changed by the CSI driver after a volume has been updated successfully to a new class. For an unbound PersistentVolume, the volumeAttributesClassName will be matched with unbound PersistentVolumeClaims during the binding process.',
    ),
    column(
      'Reason',
      'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.',
    ),
    ageColumn,
    column(
      'VolumeMode',
      'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.',
      1,
    ),
  ],
  tableRow: (pv, now) => {
    const claim = pv.spec?.claimRef;
    return [
      pv.metadata.name ?? '',
      pv.spec?.capacity?.storage ?? '0',
      accessModesString(pv.spec?.accessModes),
      pv.spec?.persistentVolumeReclaimPolicy ?? '',
      pv.status?.phase ?? '',
      claim ? `${claim.namespace ?? ''}/${claim.name ?? ''}` : '',
      storageClassOf(pv.metadata, pv.spec?.storageClassName),
      pv.spec?.volumeAttributesClassName ?? '<unset>',
      pv.status?.reason ?? '',
      since(pv.metadata.creationTimestamp, now),
      pv.spec?.volumeMode ?? '<unset>',
    ];
  },
};

export const persistentVolumeStatusView = statusSubresourceView(persistentVolumeView);

export const persistentVolumeClaimView: CoreResourceView<PersistentVolumeClaim> &
  StatusHooks<PersistentVolumeClaim> = {
  group: '',
  version: 'v1',
  apiVersion: 'v1',
  resource: 'persistentvolumeclaims',
  kind: 'PersistentVolumeClaim',
  listKind: 'PersistentVolumeClaimList',
  singular: 'persistentvolumeclaim',
  shortNames: ['pvc'],
  categories: [],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'QWTyNDq0dC4=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  invalidKind: { group: '', kind: 'PersistentVolumeClaim' },
  smpSchema: { ...objectMetaSmpSchema, 'status.conditions': 'type' },
  ...wireCodec<PersistentVolumeClaim>(
    coreTarget('PersistentVolumeClaim'),
    persistentVolumeClaimWire,
    defaultPVC,
  ),
  prepareForCreate(pvc) {
    pvc.status = { phase: 'Pending' };
  },
  prepareForUpdate: (pvc, old) => keepFrom(pvc, old, 'status'),
  prepareStatusUpdate: (pvc, old) => keepFrom(pvc, old, 'spec'),
  validateCreate: (pvc) => beforeCreate(validatePersistentVolumeClaim(pvc), pvc.metadata, true),
  validateUpdate: (pvc, old) => beforeUpdate(pvc.metadata, old.metadata, true, validatePVCUpdate(pvc, old)),
  validateStatusUpdate: (pvc, old) => {
    const errs = validateCoreMetaUpdate(pvc.metadata, old.metadata);
    const modes = pvc.status?.accessModes;
    if (modes?.length) errs.push(...validateAccessModes(modes, FieldPath.of('status', 'accessModes'), ''));
    return beforeUpdate(pvc.metadata, old.metadata, true, errs);
  },
  fieldLabels: ['metadata.name', 'metadata.namespace'],
  convertFieldLabel: defaultMetaFieldLabels,
  fields: (pvc) => ({
    'metadata.name': pvc.metadata.name ?? '',
    'metadata.namespace': pvc.metadata.namespace ?? '',
  }),
  tableColumns: [
    nameColumn,
    column('Status', 'phase represents the current phase of PersistentVolumeClaim.'),
    column('Volume', 'volumeName is the binding reference to the PersistentVolume backing this claim.'),
    column('Capacity', 'capacity represents the actual resources of the underlying volume.'),
    column(
      'Access Modes',
      'accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1',
    ),
    column(
      'StorageClass',
      'storageClassName is the name of the StorageClass required by the claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#class-1',
    ),
    column(
      'VolumeAttributesClass',
      'volumeAttributesClassName may be used to set the VolumeAttributesClass used by this claim.',
    ),
    ageColumn,
    column(
      'VolumeMode',
      'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.',
      1,
    ),
  ],
  tableRow: (pvc, now) => {
    const bound = Boolean(pvc.spec?.volumeName);
    const phase = pvc.metadata.deletionTimestamp ? 'Terminating' : (pvc.status?.phase ?? '');
    return [
      pvc.metadata.name ?? '',
      phase,
      pvc.spec?.volumeName ?? '',
      bound ? (pvc.status?.capacity?.storage ?? '0') : '',
      bound ? accessModesString(pvc.status?.accessModes) : '',
      storageClassOf(pvc.metadata, pvc.spec?.storageClassName),
      pvc.spec?.volumeAttributesClassName ?? '<unset>',
      since(pvc.metadata.creationTimestamp, now),
      pvc.spec?.volumeMode ?? '<unset>',
    ];
  },
};

export const persistentVolumeClaimStatusView = statusSubresourceView(persistentVolumeClaimView);
