/**
 * policy/v1 and policy/v1beta1 PodDisruptionBudget (ValidatePodDisruptionBudget,
 * printPodDisruptionBudget): one stored object served at both versions (what 1.20's scheduler
 * informs on is v1beta1, later ones v1). Keel runs no disruption controller, so the status stays
 * as created (all counts 0) until a client writes /status.
 */
import {
  defaultMetaFieldLabels,
  FieldPath,
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
  map,
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
  time,
  validateCoreMeta,
  validateCoreMetaUpdate,
  wireCodec,
  type ObjectMeta,
  type StatusHooks,
} from '@keel/resource';
import { labelSelectorSpec } from '../pod-schema.js';
import type { LabelSelector } from '../pod-types.js';
import { validateLabelSelector } from '../scheduling-validation.js';
import { groupTarget } from '../scheme.js';
import type { CoreResourceView } from '../view.js';

type IntOrString = number | string;

export interface PodDisruptionBudget {
  metadata: ObjectMeta;
  spec?: {
    minAvailable?: IntOrString;
    maxUnavailable?: IntOrString;
    selector?: LabelSelector;
    unhealthyPodEvictionPolicy?: string;
  };
  status?: {
    observedGeneration?: number;
    disruptedPods?: Record<string, string>;
    disruptionsAllowed?: number;
    currentHealthy?: number;
    desiredHealthy?: number;
    expectedPods?: number;
    conditions?: unknown[];
  };
}

const wire = (version: string) =>
  struct(`${version}.PodDisruptionBudget`, {
    kind: str,
    apiVersion: str,
    metadata: objectMetaSpec,
    spec: struct(`${version}.PodDisruptionBudgetSpec`, {
      minAvailable: ptr(raw),
      selector: ptr(labelSelectorSpec),
      maxUnavailable: ptr(raw),
      unhealthyPodEvictionPolicy: ptr(named(`${version}.UnhealthyPodEvictionPolicyType`)),
    }),
    status: struct(`${version}.PodDisruptionBudgetStatus`, {
      observedGeneration: int64,
      disruptedPods: map(time, 'map[string]v1.Time'),
      disruptionsAllowed: always(int32),
      currentHealthy: always(int32),
      desiredHealthy: always(int32),
      expectedPods: always(int32),
      conditions: list(raw, '[]v1.Condition'),
    }),
  });

const POLICIES = ['AlwaysAllow', 'IfHealthyBudget'] as const;

/** ValidatePositiveIntOrPercent and IsNotMoreThan100Percent. */
function validateIntOrPercent(v: IntOrString | undefined, p: FieldPath): FieldError[] {
  if (v === undefined) return [];
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) return [invalidValue(p, v, "must be an integer or percentage (e.g '5%')")];
    return v < 0 ? [invalidValue(p, v, 'must be greater than or equal to 0')] : [];
  }
  if (typeof v !== 'string') return [invalidValue(p, v, "must be an integer or percentage (e.g '5%')")];
  const m = /^([0-9]+)%$/.exec(v);
  if (!m)
    return [
      invalidValue(
        p,
        v,
        "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      ),
    ];
  const n = Number(m[1]);
  return n > 100 ? [invalidValue(p, v, 'must not be greater than 100%')] : [];
}

/** ValidatePodDisruptionBudgetSpec. */
export function validatePodDisruptionBudget(pdb: PodDisruptionBudget): FieldError[] {
  const errs = validateCoreMeta(pdb.metadata, true, nameIsDNSSubdomain);
  const spec = pdb.spec ?? {};
  const p = FieldPath.of('spec');
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined)
    errs.push(invalidValue(p, spec, 'minAvailable and maxUnavailable cannot be both set'));
  errs.push(...validateIntOrPercent(spec.minAvailable, p.child('minAvailable')));
  errs.push(...validateIntOrPercent(spec.maxUnavailable, p.child('maxUnavailable')));
  errs.push(...validateLabelSelector(spec.selector, p.child('selector')));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && !(POLICIES as readonly string[]).includes(policy))
    errs.push(notSupported(p.child('unhealthyPodEvictionPolicy'), policy, POLICIES));
  return errs;
}

function validateStatus(pdb: PodDisruptionBudget): FieldError[] {
  const p = FieldPath.of('status');
  const s = pdb.status ?? {};
  const errs: FieldError[] = [];
  for (const f of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'] as const) {
    const v = s[f] ?? 0;
    if (v < 0) errs.push(invalidValue(p.child(f), v, 'must be greater than or equal to 0'));
  }
  return errs;
}

const cell = (v: IntOrString | undefined): string => (v === undefined ? 'N/A' : String(v));

function view(
  version: 'v1' | 'v1beta1',
): CoreResourceView<PodDisruptionBudget> & StatusHooks<PodDisruptionBudget> {
  const target = { ...groupTarget('policy', 'PodDisruptionBudget'), version };
  return {
    group: 'policy',
    version,
    apiVersion: `policy/${version}`,
    resource: 'poddisruptionbudgets',
    kind: 'PodDisruptionBudget',
    listKind: 'PodDisruptionBudgetList',
    singular: 'poddisruptionbudget',
    shortNames: ['pdb'],
    categories: [],
    namespaced: true,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    storageVersionHash: '6BGBu0kpHtk=',
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    invalidKind: { group: 'policy', kind: 'PodDisruptionBudget' },
    smpSchema: { ...objectMetaSmpSchema, 'status.conditions': 'type' },
    ...wireCodec<PodDisruptionBudget>(target, wire(version)),
    prepareForCreate(pdb) {
      pdb.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
      pdb.metadata.generation = 1;
    },
    prepareForUpdate(pdb, old) {
      keepFrom(pdb, old, 'status');
      const generation = old.metadata.generation ?? 0;
      pdb.metadata.generation = sameJson(pdb.spec, old.spec) ? generation : generation + 1;
    },
    prepareStatusUpdate: (pdb, old) => keepFrom(pdb, old, 'spec'),
    validateCreate: (pdb) => beforeCreate(validatePodDisruptionBudget(pdb), pdb.metadata, true),
    validateUpdate: (pdb, old) =>
      beforeUpdate(pdb.metadata, old.metadata, true, [
        ...validateCoreMetaUpdate(pdb.metadata, old.metadata),
        ...validatePodDisruptionBudget(pdb),
      ]),
    validateStatusUpdate: (pdb, old) =>
      beforeUpdate(pdb.metadata, old.metadata, true, [
        ...validateCoreMetaUpdate(pdb.metadata, old.metadata),
        ...validateStatus(pdb),
      ]),
    fieldLabels: ['metadata.name', 'metadata.namespace'],
    convertFieldLabel: defaultMetaFieldLabels,
    fields: (pdb) => ({
      'metadata.name': pdb.metadata.name ?? '',
      'metadata.namespace': pdb.metadata.namespace ?? '',
    }),
    tableColumns: [
      nameColumn,
      column(
        'Min Available',
        'An eviction is allowed if at least "minAvailable" pods selected by "selector" will still be available after the eviction, i.e. even in the absence of the evicted pod.  So for example you can prevent all voluntary evictions by specifying "100%".',
      ),
      column(
        'Max Unavailable',
        'An eviction is allowed if at most "maxUnavailable" pods selected by "selector" are unavailable after the eviction, i.e. even in absence of the evicted pod. For example, one can prevent all voluntary evictions by specifying 0. This is a mutually exclusive setting with "minAvailable".',
      ),
      column('Allowed Disruptions', 'Number of pod disruptions that are currently allowed.', 0, 'integer'),
      ageColumn,
    ],
    tableRow: (pdb, now) => [
      pdb.metadata.name ?? '',
      cell(pdb.spec?.minAvailable),
      cell(pdb.spec?.maxUnavailable),
      pdb.status?.disruptionsAllowed ?? 0,
      since(pdb.metadata.creationTimestamp, now),
    ],
  };
}

/** policy/v1 first: the preferred version. */
export const podDisruptionBudgetViews = [view('v1'), view('v1beta1')] as const;
export const podDisruptionBudgetStatusViews = podDisruptionBudgetViews.map((v) => statusSubresourceView(v));
