/**
 * coordination.k8s.io/v1 Lease (pkg/registry/coordination/lease, ValidateLease, printLease).
 * Leases do not allow unconditional updates: a PUT without metadata.resourceVersion is the 422
 * of `missingResourceVersion` (scheme.ts). MicroTimes are accepted with any fraction width and
 * written with six digits. The coordinated-leader-election fields (strategy, preferredHolder)
 * are dropped, as with their feature gate off (its default).
 */
import {
  defaultMetaFieldLabels,
  FieldPath,
  invalidValue,
  nameIsDNSSubdomain,
  validateObjectMeta,
  validateObjectMetaUpdate,
  type FieldError,
} from '@keel/apimachinery';
import {
  beforeCreate,
  beforeUpdate,
  objectMetaSpec,
  type ObjectMeta,
  ageColumn,
  column,
  nameColumn,
  since,
  wireCodec,
  int32,
  microTime,
  named,
  ptr,
  str,
  struct,
} from '@keel/resource';
import type { CoreResourceView } from './view.js';
import { groupTarget } from './scheme.js';

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  /** MicroTime, six fraction digits. */
  acquireTime?: string;
  /** MicroTime, six fraction digits. */
  renewTime?: string;
  leaseTransitions?: number;
  strategy?: string;
  preferredHolder?: string;
}

export interface Lease {
  metadata: ObjectMeta;
  spec?: LeaseSpec;
}

const leaseSpec = struct('v1.Lease', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: struct('v1.LeaseSpec', {
    holderIdentity: ptr(str),
    leaseDurationSeconds: ptr(int32),
    acquireTime: ptr(microTime),
    renewTime: ptr(microTime),
    leaseTransitions: ptr(int32),
    strategy: ptr(named('v1.CoordinatedLeaseStrategy')),
    preferredHolder: ptr(str),
  }),
});

/** ValidateLeaseSpec. */
function validateLeaseSpec(spec: LeaseSpec | undefined): FieldError[] {
  const p = FieldPath.of('spec');
  const errs: FieldError[] = [];
  const duration = spec?.leaseDurationSeconds;
  if (duration !== undefined && duration <= 0) errs.push(invalidValue(p.child('leaseDurationSeconds'), duration, 'must be greater than 0'));
  const transitions = spec?.leaseTransitions;
  if (transitions !== undefined && transitions < 0) errs.push(invalidValue(p.child('leaseTransitions'), transitions, 'must be greater than or equal to 0'));
  return errs;
}

/** dropDisabledFields with CoordinatedLeaderElection off: keep the fields only if already in use. */
function dropDisabled(lease: Lease, old: Lease | undefined): void {
  if (!lease.spec) return;
  if (old?.spec?.strategy === undefined) delete lease.spec.strategy;
  if (old?.spec?.preferredHolder === undefined) delete lease.spec.preferredHolder;
  if (Object.keys(lease.spec).length === 0) delete lease.spec;
}

const holderDoc =
  'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.';

export const leaseView: CoreResourceView<Lease> = {
  group: 'coordination.k8s.io',
  version: 'v1',
  apiVersion: 'coordination.k8s.io/v1',
  resource: 'leases',
  kind: 'Lease',
  listKind: 'LeaseList',
  singular: 'lease',
  shortNames: [],
  categories: [],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'gqkMMb/YqFM=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  invalidKind: { group: 'coordination.k8s.io', kind: 'Lease' },
  smpSchema: { 'metadata.finalizers': { patchStrategy: 'merge' }, 'metadata.ownerReferences': 'uid' },
  ...wireCodec<Lease>(groupTarget('coordination.k8s.io', 'Lease'), leaseSpec),
  prepareForCreate: (lease) => dropDisabled(lease, undefined),
  prepareForUpdate: (lease, old) => dropDisabled(lease, old),
  // The generic (apimachinery) ObjectMeta rules: Lease validation adds no finalizer check.
  validateCreate: (lease) =>
    beforeCreate([...validateObjectMeta(lease.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain }), ...validateLeaseSpec(lease.spec)], lease.metadata, true),
  validateUpdate: (lease, old) =>
    beforeUpdate(lease.metadata, old.metadata, true, [...validateObjectMetaUpdate(lease.metadata, old.metadata), ...validateLeaseSpec(lease.spec)]),
  fieldLabels: ['metadata.name', 'metadata.namespace'],
  convertFieldLabel: defaultMetaFieldLabels,
  fields: (lease) => ({ 'metadata.name': lease.metadata.name ?? '', 'metadata.namespace': lease.metadata.namespace ?? '' }),
  tableColumns: [nameColumn, column('Holder', holderDoc), ageColumn],
  tableRow: (lease, now) => [lease.metadata.name ?? '', lease.spec?.holderIdentity ?? '', since(lease.metadata.creationTimestamp, now)],
};
