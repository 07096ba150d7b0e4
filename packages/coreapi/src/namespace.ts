/**
 * core/v1 Namespace (pkg/registry/core/namespace, pkg/apis/core/validation): cluster-scoped,
 * DNS-1123 label names, `status.phase` Active on create, the `kubernetes` finalizer added on
 * create, and the `kubernetes.io/metadata.name` label kept equal to the name.
 */
import { FieldPath, invalidValue, isQualifiedName, nameIsDNSLabel, supportedFieldLabels, type FieldError } from '@keel/apimachinery';
import {
  keepFrom,
  beforeCreate,
  beforeUpdate,
  kubeFinalizerErrors,
  validateCoreMeta,
  validateCoreMetaUpdate,
  objectMetaSpec,
  type ObjectMeta,
  ageColumn,
  column,
  nameColumn,
  since,
  statusSubresourceView,
  wireCodec,
  type StatusHooks,
  always,
  list,
  named,
  str,
  struct,
  time,
} from '@keel/resource';
import type { CoreResourceView } from './view.js';
import { coreTarget } from './scheme.js';

export interface NamespaceCondition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface Namespace {
  metadata: ObjectMeta;
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: NamespaceCondition[] };
}

export const namespaceNameLabel = 'kubernetes.io/metadata.name';

const namespaceSpec = struct('v1.Namespace', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: struct('v1.NamespaceSpec', { finalizers: list(named('v1.FinalizerName'), '[]v1.FinalizerName') }),
  status: struct('v1.NamespaceStatus', {
    phase: named('v1.NamespacePhase'),
    conditions: list(
      struct('v1.NamespaceCondition', {
        type: always(named('v1.NamespaceConditionType')),
        status: always(named('v1.ConditionStatus')),
        lastTransitionTime: time,
        reason: str,
        message: str,
      }),
      '[]v1.NamespaceCondition',
    ),
  }),
});

/** SetDefaults_Namespace / the strategy's Canonicalize: the name label follows the name. */
function labelWithName(ns: Namespace): void {
  const name = ns.metadata.name ?? '';
  if (name !== '') ns.metadata.labels = { ...(ns.metadata.labels ?? {}), [namespaceNameLabel]: name };
}

function defaults(ns: Namespace): void {
  labelWithName(ns);
  ns.status = { ...(ns.status ?? {}), phase: ns.status?.phase || 'Active' };
}

const codec = wireCodec<Namespace>(coreTarget('Namespace'), namespaceSpec, defaults);

/** ValidateNamespace: label names, and spec.finalizers qualified and standard. */
function validateNamespace(ns: Namespace): FieldError[] {
  const p = FieldPath.of('spec', 'finalizers');
  const errs = validateCoreMeta(ns.metadata, false, nameIsDNSLabel);
  for (const f of ns.spec?.finalizers ?? []) {
    for (const msg of isQualifiedName(f)) errs.push(invalidValue(p, f, msg));
    errs.push(...kubeFinalizerErrors([f], p));
  }
  return errs;
}

/** ValidateNamespaceStatusUpdate: the phase must match whether deletion has started. */
function validateStatusUpdate(ns: Namespace, old: Namespace): FieldError[] {
  const errs = validateCoreMetaUpdate(ns.metadata, old.metadata);
  const phase = ns.status?.phase ?? '';
  const p = FieldPath.of('status', 'Phase');
  if (!ns.metadata.deletionTimestamp) {
    if (phase !== 'Active') errs.push(invalidValue(p, phase, "may only be 'Active' if `deletionTimestamp` is empty"));
  } else if (phase !== 'Terminating') {
    errs.push(invalidValue(p, phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"));
  }
  return errs;
}

export const namespaceView: CoreResourceView<Namespace> & StatusHooks<Namespace> = {
  group: '',
  version: 'v1',
  apiVersion: 'v1',
  resource: 'namespaces',
  kind: 'Namespace',
  listKind: 'NamespaceList',
  singular: 'namespace',
  shortNames: ['ns'],
  categories: [],
  namespaced: false,
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'Q3oi5N2YM8M=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  invalidKind: { group: '', kind: 'Namespace' },
  smpSchema: { 'status.conditions': 'type', 'metadata.finalizers': { patchStrategy: 'merge' }, 'metadata.ownerReferences': 'uid' },
  ...codec,
  prepareForCreate(ns) {
    ns.status = { phase: 'Active' };
    const finalizers = ns.spec?.finalizers ?? [];
    if (!finalizers.includes('kubernetes')) ns.spec = { ...(ns.spec ?? {}), finalizers: [...finalizers, 'kubernetes'] };
    labelWithName(ns);
  },
  prepareForUpdate(ns, old) {
    // spec holds only finalizers, which change through the finalize subresource.
    keepFrom(ns, old, 'spec');
    keepFrom(ns, old, 'status');
    labelWithName(ns);
  },
  prepareStatusUpdate(ns, old) {
    keepFrom(ns, old, 'spec');
    labelWithName(ns);
  },
  validateCreate: (ns) => beforeCreate(validateNamespace(ns), ns.metadata, false),
  validateUpdate: (ns, old) => beforeUpdate(ns.metadata, old.metadata, false, validateCoreMetaUpdate(ns.metadata, old.metadata)),
  validateStatusUpdate: (ns, old) => beforeUpdate(ns.metadata, old.metadata, false, validateStatusUpdate(ns, old)),
  fieldLabels: ['metadata.name', 'status.phase'],
  convertFieldLabel: supportedFieldLabels(['metadata.name', 'status.phase']),
  fields: (ns) => ({ 'metadata.name': ns.metadata.name ?? '', 'status.phase': ns.status?.phase ?? '' }),
  tableColumns: [nameColumn, column('Status', 'The status of the namespace'), ageColumn],
  tableRow: (ns, now) => [ns.metadata.name ?? '', ns.status?.phase ?? '', since(ns.metadata.creationTimestamp, now)],
};

/** namespaces/status: get, patch, update; only status changes. */
export const namespaceStatusView = statusSubresourceView(namespaceView);

/** ValidateNamespaceFinalizeUpdate: metadata as on any update, then each spec.finalizers entry. */
function validateFinalizeUpdate(ns: Namespace, old: Namespace): FieldError[] {
  const errs = validateCoreMetaUpdate(ns.metadata, old.metadata);
  const p = FieldPath.of('spec', 'finalizers');
  (ns.spec?.finalizers ?? []).forEach((f, i) => {
    for (const msg of isQualifiedName(f)) errs.push(invalidValue(p.index(i), f, msg));
    errs.push(...kubeFinalizerErrors([f], p.index(i)));
  });
  return errs;
}

/**
 * namespaces/finalize: update only (the namespace controller's PUT). spec.finalizers changes,
 * status stays as it was; taking the last finalizer off a deleted namespace deletes it.
 */
export const namespaceFinalizeView: CoreResourceView<Namespace> & { readonly subresource: 'finalize' } = {
  ...namespaceView,
  subresource: 'finalize',
  verbs: ['update'],
  allowCreateOnUpdate: false,
  prepareForUpdate(ns, old) {
    keepFrom(ns, old, 'status');
    labelWithName(ns);
  },
  validateUpdate: (ns, old) => beforeUpdate(ns.metadata, old.metadata, false, validateFinalizeUpdate(ns, old)),
};
