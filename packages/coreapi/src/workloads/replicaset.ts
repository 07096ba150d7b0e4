/**
 * apps/v1 ReplicaSet and core/v1 ReplicationController (ValidateReplicaSet,
 * ValidateReplicationController, printReplicaSet, printReplicationController): stored and
 * validated as upstream; Keel runs no replication controller, so nothing creates their pods or
 * fills their status except a client writing /status.
 */
import {
  defaultMetaFieldLabels,
  FieldPath,
  invalidValue,
  nameIsDNSSubdomain,
  objectMetaSmpSchema,
  required,
  type FieldError,
} from '@keel/apimachinery';
import {
  ageColumn,
  always,
  beforeCreate,
  beforeUpdate,
  column,
  int32,
  int64,
  keepFrom,
  list,
  nameColumn,
  objectMetaSpec,
  ptr,
  raw,
  sameJson,
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
import { labelSelectorSpec } from '../pod-schema.js';
import type { LabelSelector } from '../pod-types.js';
import { validateLabelSelector } from '../scheduling-validation.js';
import { coreTarget, groupTarget } from '../scheme.js';
import type { CoreResourceView } from '../view.js';
import {
  containerCells,
  defaultTemplate,
  formatSelector,
  podTemplateSpecWire,
  templateSmpSchema,
  validateTemplate,
  validateSelector,
  type PodTemplateSpec,
} from './template.js';

export interface ReplicaStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: unknown[];
}

export interface ReplicaSet {
  metadata: ObjectMeta;
  spec?: {
    replicas?: number;
    minReadySeconds?: number;
    selector?: LabelSelector;
    template?: PodTemplateSpec;
  };
  status?: ReplicaStatus;
}

export interface ReplicationController {
  metadata: ObjectMeta;
  spec?: {
    replicas?: number;
    minReadySeconds?: number;
    selector?: Record<string, string>;
    template?: PodTemplateSpec;
  };
  status?: ReplicaStatus;
}

const statusWire = (goType: string) =>
  struct(goType, {
    replicas: always(int32),
    fullyLabeledReplicas: int32,
    readyReplicas: int32,
    availableReplicas: int32,
    observedGeneration: int64,
    conditions: list(raw, `[]${goType.replace('Status', 'Condition')}`),
  });

const replicaSetWire = struct('v1.ReplicaSet', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: struct('v1.ReplicaSetSpec', {
    replicas: ptr(int32),
    minReadySeconds: int32,
    selector: ptr(labelSelectorSpec),
    template: podTemplateSpecWire,
  }),
  status: statusWire('v1.ReplicaSetStatus'),
});

const replicationControllerWire = struct('v1.ReplicationController', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: struct('v1.ReplicationControllerSpec', {
    replicas: ptr(int32),
    minReadySeconds: int32,
    selector: stringMap,
    template: ptr(podTemplateSpecWire),
  }),
  status: statusWire('v1.ReplicationControllerStatus'),
});

/** SetDefaults_ReplicaSet. */
function defaultReplicaSet(rs: ReplicaSet): void {
  const spec = (rs.spec ??= {});
  spec.replicas ??= 1;
  defaultTemplate(spec.template);
}

/** SetDefaults_ReplicationController: the selector and labels default to the template's labels. */
function defaultReplicationController(rc: ReplicationController): void {
  const spec = (rc.spec ??= {});
  const labels = spec.template?.metadata?.labels;
  if (labels && Object.keys(labels).length > 0) {
    if (!spec.selector || Object.keys(spec.selector).length === 0) spec.selector = { ...labels };
    if (!rc.metadata.labels || Object.keys(rc.metadata.labels).length === 0)
      rc.metadata.labels = { ...labels };
  }
  spec.replicas ??= 1;
  defaultTemplate(spec.template);
}

function validateCounts(spec: { replicas?: number; minReadySeconds?: number }, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if ((spec.replicas ?? 0) < 0)
    errs.push(invalidValue(p.child('replicas'), spec.replicas, 'must be greater than or equal to 0'));
  if ((spec.minReadySeconds ?? 0) < 0)
    errs.push(
      invalidValue(p.child('minReadySeconds'), spec.minReadySeconds, 'must be greater than or equal to 0'),
    );
  return errs;
}

/** ValidateReplicaSetStatus / ValidateReplicationControllerStatus. */
function validateReplicaStatus(s: ReplicaStatus | undefined): FieldError[] {
  const p = FieldPath.of('status');
  const errs: FieldError[] = [];
  for (const f of [
    'replicas',
    'fullyLabeledReplicas',
    'readyReplicas',
    'availableReplicas',
    'observedGeneration',
  ] as const) {
    const v = s?.[f] ?? 0;
    if (v < 0) errs.push(invalidValue(p.child(f), v, 'must be greater than or equal to 0'));
  }
  const replicas = s?.replicas ?? 0;
  if ((s?.fullyLabeledReplicas ?? 0) > replicas)
    errs.push(
      invalidValue(
        p.child('fullyLabeledReplicas'),
        s?.fullyLabeledReplicas,
        'cannot be greater than status.replicas',
      ),
    );
  if ((s?.readyReplicas ?? 0) > replicas)
    errs.push(
      invalidValue(p.child('readyReplicas'), s?.readyReplicas, 'cannot be greater than status.replicas'),
    );
  if ((s?.availableReplicas ?? 0) > replicas)
    errs.push(
      invalidValue(
        p.child('availableReplicas'),
        s?.availableReplicas,
        'cannot be greater than status.replicas',
      ),
    );
  if ((s?.availableReplicas ?? 0) > (s?.readyReplicas ?? 0))
    errs.push(
      invalidValue(
        p.child('availableReplicas'),
        s?.availableReplicas,
        'cannot be greater than readyReplicas',
      ),
    );
  return errs;
}

/** ValidateReplicaSet. */
export function validateReplicaSet(rs: ReplicaSet): FieldError[] {
  const p = FieldPath.of('spec');
  const spec = rs.spec ?? {};
  return [
    ...validateCoreMeta(rs.metadata, true, nameIsDNSSubdomain),
    ...validateCounts(spec, p),
    ...validateSelector(spec.selector, p.child('selector'), 'deployment'),
    ...validateTemplate(spec.template, spec.selector, p.child('template'), 'ReplicaSet'),
  ];
}

/** ValidateReplicationController (its selector is a plain map, required and non-empty). */
export function validateReplicationController(rc: ReplicationController): FieldError[] {
  const p = FieldPath.of('spec');
  const spec = rc.spec ?? {};
  const errs = [...validateCoreMeta(rc.metadata, true, nameIsDNSSubdomain), ...validateCounts(spec, p)];
  const selector = spec.selector ?? {};
  if (Object.keys(selector).length === 0) errs.push(required(p.child('selector'), ''));
  else errs.push(...validateLabelSelector({ matchLabels: selector }, p.child('selector')));
  if (spec.template)
    errs.push(
      ...validateTemplate(
        spec.template,
        { matchLabels: selector },
        p.child('template'),
        'ReplicationController',
      ),
    );
  else errs.push(required(p.child('template'), ''));
  return errs;
}

/** PrepareForUpdate of both: status is the stored one; a spec change bumps the generation. */
function prepareUpdate<T extends { metadata: ObjectMeta; spec?: unknown; status?: ReplicaStatus }>(
  obj: T,
  old: T,
): void {
  keepFrom(obj, old, 'status');
  const generation = old.metadata.generation ?? 0;
  obj.metadata.generation = sameJson(obj.spec, old.spec) ? generation : generation + 1;
}

function prepareCreate(obj: { metadata: ObjectMeta; status?: ReplicaStatus }): void {
  obj.status = { replicas: 0 };
  obj.metadata.generation = 1;
}

const replicaColumns = [
  nameColumn,
  column(
    'Desired',
    'Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.',
    0,
    'integer',
  ),
  column('Current', 'The most recently observed number of replicas.', 0, 'integer'),
  column('Ready', 'The number of ready replicas for this replica set.', 0, 'integer'),
  ageColumn,
  column('Containers', 'Names of each container in the template.', 1),
  column('Images', 'Images referenced by each container in the template.', 1),
  column(
    'Selector',
    'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.',
    1,
  ),
];

const fieldLabels = ['metadata.name', 'metadata.namespace', 'status.replicas'];

export const replicaSetView: CoreResourceView<ReplicaSet> & StatusHooks<ReplicaSet> = {
  group: 'apps',
  version: 'v1',
  apiVersion: 'apps/v1',
  resource: 'replicasets',
  kind: 'ReplicaSet',
  listKind: 'ReplicaSetList',
  singular: 'replicaset',
  shortNames: ['rs'],
  categories: ['all'],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'P1RzHs8/mWQ=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  invalidKind: { group: 'apps', kind: 'ReplicaSet' },
  smpSchema: { ...objectMetaSmpSchema, ...templateSmpSchema('spec.template'), 'status.conditions': 'type' },
  ...wireCodec<ReplicaSet>(groupTarget('apps', 'ReplicaSet'), replicaSetWire, defaultReplicaSet),
  prepareForCreate: prepareCreate,
  prepareForUpdate: prepareUpdate,
  prepareStatusUpdate: (rs, old) => keepFrom(rs, old, 'spec'),
  validateCreate: (rs) => beforeCreate(validateReplicaSet(rs), rs.metadata, true),
  validateUpdate: (rs, old) =>
    beforeUpdate(rs.metadata, old.metadata, true, [
      ...validateCoreMetaUpdate(rs.metadata, old.metadata),
      ...validateReplicaSet(rs),
      ...(sameJson(rs.spec?.selector, old.spec?.selector)
        ? []
        : [invalidValue(FieldPath.of('spec', 'selector'), rs.spec?.selector ?? null, 'field is immutable')]),
    ]),
  validateStatusUpdate: (rs, old) =>
    beforeUpdate(rs.metadata, old.metadata, true, [
      ...validateCoreMetaUpdate(rs.metadata, old.metadata),
      ...validateReplicaStatus(rs.status),
    ]),
  fieldLabels,
  convertFieldLabel: defaultMetaFieldLabels,
  fields: (rs) => ({
    'metadata.name': rs.metadata.name ?? '',
    'metadata.namespace': rs.metadata.namespace ?? '',
    'status.replicas': String(rs.status?.replicas ?? 0),
  }),
  tableColumns: replicaColumns,
  tableRow: (rs, now) => [
    rs.metadata.name ?? '',
    rs.spec?.replicas ?? 0,
    rs.status?.replicas ?? 0,
    rs.status?.readyReplicas ?? 0,
    since(rs.metadata.creationTimestamp, now),
    ...containerCells(rs.spec?.template?.spec),
    formatSelector(rs.spec?.selector),
  ],
};

export const replicaSetStatusView = statusSubresourceView(replicaSetView);

export const replicationControllerView: CoreResourceView<ReplicationController> &
  StatusHooks<ReplicationController> = {
  group: '',
  version: 'v1',
  apiVersion: 'v1',
  resource: 'replicationcontrollers',
  kind: 'ReplicationController',
  listKind: 'ReplicationControllerList',
  singular: 'replicationcontroller',
  shortNames: ['rc'],
  categories: ['all'],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'Jond2If31h0=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  invalidKind: { group: '', kind: 'ReplicationController' },
  smpSchema: { ...objectMetaSmpSchema, ...templateSmpSchema('spec.template'), 'status.conditions': 'type' },
  ...wireCodec<ReplicationController>(
    coreTarget('ReplicationController'),
    replicationControllerWire,
    defaultReplicationController,
  ),
  prepareForCreate: prepareCreate,
  prepareForUpdate: prepareUpdate,
  prepareStatusUpdate: (rc, old) => keepFrom(rc, old, 'spec'),
  validateCreate: (rc) => beforeCreate(validateReplicationController(rc), rc.metadata, true),
  validateUpdate: (rc, old) =>
    beforeUpdate(rc.metadata, old.metadata, true, [
      ...validateCoreMetaUpdate(rc.metadata, old.metadata),
      ...validateReplicationController(rc),
    ]),
  validateStatusUpdate: (rc, old) =>
    beforeUpdate(rc.metadata, old.metadata, true, [
      ...validateCoreMetaUpdate(rc.metadata, old.metadata),
      ...validateReplicaStatus(rc.status),
    ]),
  fieldLabels,
  convertFieldLabel: defaultMetaFieldLabels,
  fields: (rc) => ({
    'metadata.name': rc.metadata.name ?? '',
    'metadata.namespace': rc.metadata.namespace ?? '',
    'status.replicas': String(rc.status?.replicas ?? 0),
  }),
  tableColumns: replicaColumns.map((c) =>
    c.name === 'Selector'
      ? {
          ...c,
          description:
            'Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels#label-selectors',
        }
      : c,
  ),
  tableRow: (rc, now) => [
    rc.metadata.name ?? '',
    rc.spec?.replicas ?? 0,
    rc.status?.replicas ?? 0,
    rc.status?.readyReplicas ?? 0,
    since(rc.metadata.creationTimestamp, now),
    ...containerCells(rc.spec?.template?.spec),
    formatSelector(rc.spec?.selector ? { matchLabels: rc.spec.selector } : undefined),
  ],
};

export const replicationControllerStatusView = statusSubresourceView(replicationControllerView);
