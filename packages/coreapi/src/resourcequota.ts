/**
 * core/v1 ResourceQuota (ValidateResourceQuota, ValidateResourceQuotaUpdate,
 * ValidateResourceQuotaStatusUpdate, printResourceQuota): hard limits on standard or qualified
 * resource names, scopes that suit those resources, and a status (hard, used) that only the
 * status subresource changes.
 */
import {
  compareGoStrings,
  defaultMetaFieldLabels,
  FieldPath,
  invalidValue,
  nameIsDNSSubdomain,
  required,
  type FieldError,
} from '@keel/apimachinery';
import {
  ageColumn,
  always,
  beforeCreate,
  beforeUpdate,
  column,
  keepFrom,
  list,
  named,
  nameColumn,
  objectMetaSpec,
  resourceList,
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
import type { ResourceList } from './pod-types.js';
import { validateResourceName, validateResourceQuantityValue } from './resource-validation.js';
import { coreTarget } from './scheme.js';
import type { CoreResourceView } from './view.js';

export interface ScopedResourceSelectorRequirement {
  scopeName: string;
  operator: string;
  values?: string[];
}

export interface ResourceQuotaSpec {
  hard?: ResourceList;
  scopes?: string[];
  scopeSelector?: { matchExpressions?: ScopedResourceSelectorRequirement[] };
}

export interface ResourceQuota {
  metadata: ObjectMeta;
  spec?: ResourceQuotaSpec;
  status?: { hard?: ResourceList; used?: ResourceList };
}

export const quotaScopes = {
  terminating: 'Terminating',
  notTerminating: 'NotTerminating',
  bestEffort: 'BestEffort',
  notBestEffort: 'NotBestEffort',
  priorityClass: 'PriorityClass',
  crossNamespacePodAffinity: 'CrossNamespacePodAffinity',
} as const;

const resourceQuotaSpec = struct('v1.ResourceQuota', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: struct('v1.ResourceQuotaSpec', {
    hard: resourceList,
    scopes: list(named('v1.ResourceQuotaScope'), '[]v1.ResourceQuotaScope'),
    scopeSelector: struct('v1.ScopeSelector', {
      matchExpressions: list(
        struct('v1.ScopedResourceSelectorRequirement', {
          scopeName: always(named('v1.ResourceQuotaScope')),
          operator: always(named('v1.ScopeSelectorOperator')),
          values: list(str, '[]string'),
        }),
        '[]v1.ScopedResourceSelectorRequirement',
      ),
    }),
  }),
  status: struct('v1.ResourceQuotaStatus', { hard: resourceList, used: resourceList }),
});

const standardQuotaResources = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.storage',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'services.nodeports',
  'services.loadbalancers',
]);

/** IsStandardQuotaResourceName. */
export const isStandardQuotaResourceName = (name: string): boolean =>
  standardQuotaResources.has(name) || name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');

const podComputeQuotaResources = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);

/** IsResourceQuotaScopeValidForResource. */
function scopeValidForResource(scope: string, resource: string): boolean {
  switch (scope) {
    case quotaScopes.terminating:
    case quotaScopes.notTerminating:
    case quotaScopes.notBestEffort:
    case quotaScopes.priorityClass:
      return resource === 'pods' || podComputeQuotaResources.has(resource);
    case quotaScopes.bestEffort:
      return resource === 'pods';
    default:
      return true;
  }
}

const standardScopes = new Set<string>([
  quotaScopes.terminating,
  quotaScopes.notTerminating,
  quotaScopes.bestEffort,
  quotaScopes.notBestEffort,
  quotaScopes.priorityClass,
  quotaScopes.crossNamespacePodAffinity,
]);
const conflictingScopes = [
  [quotaScopes.bestEffort, quotaScopes.notBestEffort],
  [quotaScopes.terminating, quotaScopes.notTerminating],
] as const;
const existsOnlyScopes = new Set<string>([quotaScopes.bestEffort, quotaScopes.notBestEffort, quotaScopes.terminating, quotaScopes.notTerminating]);

const sorted = (m: ResourceList | undefined): string[] => Object.keys(m ?? {}).sort(compareGoStrings);
const hardNames = (spec: ResourceQuotaSpec): string[] => sorted(spec.hard);

/** ValidateResourceQuotaResourceName. */
function validateQuotaResourceName(name: string, p: FieldPath): FieldError[] {
  const errs = validateResourceName(name, p);
  if (!name.includes('/') && !isStandardQuotaResourceName(name)) errs.push(invalidValue(p, name, 'must be a standard resource for quota'));
  return errs;
}

function validateResourceMap(m: ResourceList | undefined, p: FieldPath): FieldError[] {
  return sorted(m).flatMap((k) => [
    ...validateQuotaResourceName(k, p.key(k)),
    ...validateResourceQuantityValue(k, m?.[k] ?? '0', p.key(k)),
  ]);
}

function validateScopes(spec: ResourceQuotaSpec): FieldError[] {
  const scopes = spec.scopes ?? [];
  if (scopes.length === 0) return [];
  const p = FieldPath.of('spec', 'scopes');
  const errs: FieldError[] = [];
  for (const scope of scopes) {
    if (!standardScopes.has(scope)) errs.push(invalidValue(p, scopes, 'unsupported scope'));
    for (const k of hardNames(spec))
      if (isStandardQuotaResourceName(k) && !scopeValidForResource(scope, k))
        errs.push(invalidValue(p, scopes, 'unsupported scope applied to resource'));
  }
  for (const pair of conflictingScopes)
    if (pair.every((s) => scopes.includes(s))) errs.push(invalidValue(p, scopes, 'conflicting scopes'));
  return errs;
}

function validateScopeSelector(spec: ResourceQuotaSpec): FieldError[] {
  if (!spec.scopeSelector) return [];
  const p = FieldPath.of('spec', 'scopeSelector', 'matchExpressions');
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const req of spec.scopeSelector.matchExpressions ?? []) {
    if (!standardScopes.has(req.scopeName)) errs.push(invalidValue(p.child('scopeName'), req.scopeName, 'unsupported scope'));
    for (const k of hardNames(spec))
      if (isStandardQuotaResourceName(k) && !scopeValidForResource(req.scopeName, k))
        errs.push(invalidValue(p, spec.scopeSelector, 'unsupported scope applied to resource'));
    if (existsOnlyScopes.has(req.scopeName) && req.operator !== 'Exists')
      errs.push(
        invalidValue(
          p.child('operator'),
          req.operator,
          "must be 'Exist' only operator when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort and ResourceQuotaScopeNotBestEffort",
        ),
      );
    const values = req.values ?? [];
    if (req.operator === 'In' || req.operator === 'NotIn') {
      if (values.length === 0) errs.push(required(p.child('values'), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
    } else if (req.operator === 'Exists' || req.operator === 'DoesNotExist') {
      if (values.length !== 0)
        errs.push(invalidValue(p.child('values'), values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
    } else {
      errs.push(invalidValue(p.child('operator'), req.operator, 'not a valid selector operator'));
    }
    seen.add(req.scopeName);
  }
  for (const pair of conflictingScopes)
    if (pair.every((s) => seen.has(s))) errs.push(invalidValue(p, spec.scopes ?? null, 'conflicting scopes'));
  return errs;
}

/** ValidateResourceQuotaSpec. */
function validateSpec(spec: ResourceQuotaSpec): FieldError[] {
  return [...validateResourceMap(spec.hard, FieldPath.of('spec', 'hard')), ...validateScopes(spec), ...validateScopeSelector(spec)];
}

function validateStatus(rq: ResourceQuota): FieldError[] {
  return [
    ...validateResourceMap(rq.status?.hard, FieldPath.of('status', 'hard')),
    ...validateResourceMap(rq.status?.used, FieldPath.of('status', 'used')),
  ];
}

/** ValidateResourceQuota. */
export function validateResourceQuota(rq: ResourceQuota): FieldError[] {
  return [...validateCoreMeta(rq.metadata, true, nameIsDNSSubdomain), ...validateSpec(rq.spec ?? {}), ...validateStatus(rq)];
}

const sameScopes = (a: string[] | undefined, b: string[] | undefined): boolean => {
  const x = new Set(a ?? []);
  const y = new Set(b ?? []);
  return x.size === y.size && [...x].every((s) => y.has(s));
};

/** ValidateResourceQuotaUpdate: the scopes never change. */
function validateUpdate(rq: ResourceQuota, old: ResourceQuota): FieldError[] {
  const errs = [...validateCoreMetaUpdate(rq.metadata, old.metadata), ...validateSpec(rq.spec ?? {})];
  if (!sameScopes(rq.spec?.scopes, old.spec?.scopes))
    errs.push(invalidValue(FieldPath.of('spec', 'scopes'), rq.spec?.scopes ?? null, 'field is immutable'));
  return errs;
}

/** printResourceQuota's Request and Limit cells: `name: used/hard`, limits.* in the second. */
export function quotaUsageCells(rq: ResourceQuota): [string, string] {
  const request: string[] = [];
  const limit: string[] = [];
  for (const name of sorted(rq.status?.hard)) {
    const cell = `${name}: ${rq.status?.used?.[name] ?? '0'}/${rq.status?.hard?.[name] ?? '0'}`;
    const pieces = name.split('.');
    (pieces.length > 1 && pieces[0] === 'limits' ? limit : request).push(cell);
  }
  return [request.join(', '), limit.join(', ')];
}

export const resourceQuotaView: CoreResourceView<ResourceQuota> & StatusHooks<ResourceQuota> = {
  group: '',
  version: 'v1',
  apiVersion: 'v1',
  resource: 'resourcequotas',
  kind: 'ResourceQuota',
  listKind: 'ResourceQuotaList',
  singular: 'resourcequota',
  shortNames: ['quota'],
  categories: [],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: '8uhSgffRX6w=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  invalidKind: { group: '', kind: 'ResourceQuota' },
  smpSchema: { 'metadata.finalizers': { patchStrategy: 'merge' }, 'metadata.ownerReferences': 'uid' },
  ...wireCodec<ResourceQuota>(coreTarget('ResourceQuota'), resourceQuotaSpec),
  prepareForCreate(rq) {
    delete rq.status;
  },
  prepareForUpdate(rq, old) {
    keepFrom(rq, old, 'status');
  },
  prepareStatusUpdate(rq, old) {
    keepFrom(rq, old, 'spec');
  },
  validateCreate: (rq) => beforeCreate(validateResourceQuota(rq), rq.metadata, true),
  validateUpdate: (rq, old) => beforeUpdate(rq.metadata, old.metadata, true, validateUpdate(rq, old)),
  validateStatusUpdate: (rq, old) =>
    beforeUpdate(rq.metadata, old.metadata, true, [...validateCoreMetaUpdate(rq.metadata, old.metadata), ...validateStatus(rq)]),
  fieldLabels: ['metadata.name', 'metadata.namespace'],
  convertFieldLabel: defaultMetaFieldLabels,
  fields: (rq) => ({ 'metadata.name': rq.metadata.name ?? '', 'metadata.namespace': rq.metadata.namespace ?? '' }),
  tableColumns: [
    nameColumn,
    ageColumn,
    column('Request', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    column('Limit', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
  ],
  tableRow: (rq, now) => [rq.metadata.name ?? '', since(rq.metadata.creationTimestamp, now), ...quotaUsageCells(rq)],
};

/** resourcequotas/status: get, patch, update; only the status changes. */
export const resourceQuotaStatusView = statusSubresourceView(resourceQuotaView);
