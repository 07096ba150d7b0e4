/**
 * apps/v1 StatefulSet (SetDefaults_StatefulSet, ValidateStatefulSet, printStatefulSet): stored
 * and validated as upstream; Keel runs no StatefulSet controller, so no pods or claims follow.
 */
import {
  defaultMetaFieldLabels,
  FieldPath,
  forbiddenField,
  invalidValue,
  nameIsDNSSubdomain,
  notSupported,
  objectMetaSmpSchema,
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
  named,
  objectMetaSpec,
  ptr,
  raw,
  sameJson,
  since,
  statusSubresourceView,
  str,
  struct,
  validateCoreMeta,
  validateCoreMetaUpdate,
  wireCodec,
  type ObjectMeta,
  type StatusHooks,
} from '@keel/resource';
import { labelSelectorSpec } from '../pod-schema.js';
import type { LabelSelector } from '../pod-types.js';
import { groupTarget } from '../scheme.js';
import type { CoreResourceView } from '../view.js';
import {
  containerCells,
  defaultTemplate,
  podTemplateSpecWire,
  templateSmpSchema,
  validateSelector,
  validateTemplate,
  type PodTemplateSpec,
} from './template.js';

export interface StatefulSetSpec {
  replicas?: number;
  selector?: LabelSelector;
  template?: PodTemplateSpec;
  volumeClaimTemplates?: unknown[];
  serviceName?: string;
  podManagementPolicy?: string;
  updateStrategy?: {
    type?: string;
    rollingUpdate?: { partition?: number; maxUnavailable?: number | string };
  };
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  persistentVolumeClaimRetentionPolicy?: { whenDeleted?: string; whenScaled?: string };
  ordinals?: { start?: number };
}

export interface StatefulSet {
  metadata: ObjectMeta;
  spec?: StatefulSetSpec;
  status?: {
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    observedGeneration?: number;
    [k: string]: unknown;
  };
}

const statefulSetWire = struct('v1.StatefulSet', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: struct('v1.StatefulSetSpec', {
    replicas: ptr(int32),
    selector: ptr(labelSelectorSpec),
    template: podTemplateSpecWire,
    // Claim templates are PersistentVolumeClaims; kept whole as sent.
    volumeClaimTemplates: list(raw, '[]v1.PersistentVolumeClaim'),
    serviceName: str,
    podManagementPolicy: named('v1.PodManagementPolicyType'),
    updateStrategy: struct('v1.StatefulSetUpdateStrategy', {
      type: named('v1.StatefulSetUpdateStrategyType'),
      rollingUpdate: ptr(
        struct('v1.RollingUpdateStatefulSetStrategy', { partition: ptr(int32), maxUnavailable: ptr(raw) }),
      ),
    }),
    revisionHistoryLimit: ptr(int32),
    minReadySeconds: int32,
    persistentVolumeClaimRetentionPolicy: ptr(
      struct('v1.StatefulSetPersistentVolumeClaimRetentionPolicy', {
        whenDeleted: named('v1.PersistentVolumeClaimRetentionPolicyType'),
        whenScaled: named('v1.PersistentVolumeClaimRetentionPolicyType'),
      }),
    ),
    ordinals: ptr(struct('v1.StatefulSetOrdinals', { start: int32 })),
  }),
  status: struct('v1.StatefulSetStatus', {
    observedGeneration: int64,
    replicas: always(int32),
    readyReplicas: int32,
    currentReplicas: int32,
    updatedReplicas: int32,
    currentRevision: str,
    updateRevision: str,
    collisionCount: ptr(int32),
    conditions: list(raw, '[]v1.StatefulSetCondition'),
    availableReplicas: always(int32),
  }),
});

/** SetDefaults_StatefulSet (apps/v1). */
function defaultStatefulSet(sts: StatefulSet): void {
  const spec = (sts.spec ??= {});
  spec.podManagementPolicy ||= 'OrderedReady';
  const strategy = (spec.updateStrategy ??= {});
  strategy.type ||= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = (strategy.rollingUpdate ??= {});
    ru.partition ??= 0;
  }
  const retention = (spec.persistentVolumeClaimRetentionPolicy ??= {});
  retention.whenDeleted ||= 'Retain';
  retention.whenScaled ||= 'Retain';
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  defaultTemplate(spec.template);
}

const nonNegative = (v: number | undefined, p: FieldPath): FieldError[] =>
  (v ?? 0) < 0 ? [invalidValue(p, v, 'must be greater than or equal to 0')] : [];

/** ValidateStatefulSetSpec's main checks. */
export function validateStatefulSet(sts: StatefulSet): FieldError[] {
  const p = FieldPath.of('spec');
  const spec = sts.spec ?? {};
  const errs = validateCoreMeta(sts.metadata, true, nameIsDNSSubdomain);
  const policy = spec.podManagementPolicy ?? '';
  if (policy !== 'OrderedReady' && policy !== 'Parallel')
    errs.push(invalidValue(p.child('podManagementPolicy'), policy, `must be 'OrderedReady' or 'Parallel'`));
  const strategy = spec.updateStrategy?.type ?? '';
  const sp = p.child('updateStrategy');
  if (strategy === 'OnDelete') {
    if (spec.updateStrategy?.rollingUpdate)
      errs.push(
        invalidValue(
          sp.child('rollingUpdate'),
          spec.updateStrategy.rollingUpdate,
          `only allowed for updateStrategy '${'RollingUpdate'}'`,
        ),
      );
  } else if (strategy === 'RollingUpdate') {
    errs.push(
      ...nonNegative(spec.updateStrategy?.rollingUpdate?.partition, sp.child('rollingUpdate', 'partition')),
    );
  } else if (strategy === '') {
    errs.push({ type: 'FieldValueRequired', field: sp.toString(), badValue: '', detail: '' });
  } else {
    errs.push(invalidValue(sp, strategy, `must be 'RollingUpdate' or 'OnDelete'`));
  }
  const retention = spec.persistentVolumeClaimRetentionPolicy;
  for (const f of ['whenDeleted', 'whenScaled'] as const) {
    const v = retention?.[f];
    if (v !== undefined && v !== 'Retain' && v !== 'Delete')
      errs.push(notSupported(p.child('persistentVolumeClaimRetentionPolicy', f), v, ['Retain', 'Delete']));
  }
  errs.push(...nonNegative(spec.replicas, p.child('replicas')));
  errs.push(...nonNegative(spec.minReadySeconds, p.child('minReadySeconds')));
  errs.push(...nonNegative(spec.ordinals?.start, p.child('ordinals', 'start')));
  errs.push(...validateSelector(spec.selector, p.child('selector'), 'statefulset'));
  errs.push(...validateTemplate(spec.template, spec.selector, p.child('template'), 'StatefulSet'));
  return errs;
}

/** ValidateStatefulSetUpdate: only replicas, ordinals, template, updateStrategy, retention policy and minReadySeconds change. */
function validateUpdate(sts: StatefulSet, old: StatefulSet): FieldError[] {
  const errs = [...validateCoreMetaUpdate(sts.metadata, old.metadata), ...validateStatefulSet(sts)];
  const mutable = [
    'replicas',
    'ordinals',
    'template',
    'updateStrategy',
    'persistentVolumeClaimRetentionPolicy',
    'minReadySeconds',
  ];
  const rest = (s: StatefulSetSpec | undefined) =>
    Object.fromEntries(Object.entries(s ?? {}).filter(([k]) => !mutable.includes(k)));
  if (!sameJson(rest(sts.spec), rest(old.spec)))
    errs.push(
      forbiddenField(
        FieldPath.of('spec'),
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  return errs;
}

function validateStatus(sts: StatefulSet): FieldError[] {
  const p = FieldPath.of('status');
  const s = sts.status ?? {};
  const errs: FieldError[] = [];
  for (const f of [
    'replicas',
    'readyReplicas',
    'currentReplicas',
    'updatedReplicas',
    'availableReplicas',
    'observedGeneration',
  ]) {
    const v = s[f];
    if (typeof v === 'number') errs.push(...nonNegative(v, p.child(f)));
  }
  return errs;
}

export const statefulSetView: CoreResourceView<StatefulSet> & StatusHooks<StatefulSet> = {
  group: 'apps',
  version: 'v1',
  apiVersion: 'apps/v1',
  resource: 'statefulsets',
  kind: 'StatefulSet',
  listKind: 'StatefulSetList',
  singular: 'statefulset',
  shortNames: ['sts'],
  categories: ['all'],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'H+vl74LkKdo=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  invalidKind: { group: 'apps', kind: 'StatefulSet' },
  smpSchema: { ...objectMetaSmpSchema, ...templateSmpSchema('spec.template'), 'status.conditions': 'type' },
  ...wireCodec<StatefulSet>(groupTarget('apps', 'StatefulSet'), statefulSetWire, defaultStatefulSet),
  prepareForCreate(sts) {
    sts.status = { replicas: 0, availableReplicas: 0 };
    sts.metadata.generation = 1;
  },
  prepareForUpdate(sts, old) {
    keepFrom(sts, old, 'status');
    const generation = old.metadata.generation ?? 0;
    sts.metadata.generation = sameJson(sts.spec, old.spec) ? generation : generation + 1;
  },
  prepareStatusUpdate: (sts, old) => keepFrom(sts, old, 'spec'),
  validateCreate: (sts) => beforeCreate(validateStatefulSet(sts), sts.metadata, true),
  validateUpdate: (sts, old) => beforeUpdate(sts.metadata, old.metadata, true, validateUpdate(sts, old)),
  validateStatusUpdate: (sts, old) =>
    beforeUpdate(sts.metadata, old.metadata, true, [
      ...validateCoreMetaUpdate(sts.metadata, old.metadata),
      ...validateStatus(sts),
    ]),
  fieldLabels: ['metadata.name', 'metadata.namespace'],
  convertFieldLabel: defaultMetaFieldLabels,
  fields: (sts) => ({
    'metadata.name': sts.metadata.name ?? '',
    'metadata.namespace': sts.metadata.namespace ?? '',
  }),
  tableColumns: [
    nameColumn,
    column('Ready', 'Number of the pod with ready state'),
    ageColumn,
    column('Containers', 'Names of each container in the template.', 1),
    column('Images', 'Images referenced by each container in the template.', 1),
  ],
  tableRow: (sts, now) => [
    sts.metadata.name ?? '',
    `${sts.status?.readyReplicas ?? 0}/${sts.spec?.replicas ?? 0}`,
    since(sts.metadata.creationTimestamp, now),
    ...containerCells(sts.spec?.template?.spec),
  ],
};

export const statefulSetStatusView = statusSubresourceView(statefulSetView);
