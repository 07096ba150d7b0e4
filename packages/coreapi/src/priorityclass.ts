/**
 * scheduling.k8s.io/v1 PriorityClass (pkg/registry/scheduling/priorityclass, ValidatePriorityClass,
 * printPriorityClass): cluster-scoped, short name `pc`. Names starting `system-` are only the two
 * built-in classes with their exact value; other classes stay at or below 1e9; value and
 * preemptionPolicy never change. preemptionPolicy defaults to PreemptLowerPriority.
 */
import {
  defaultMetaFieldLabels,
  FieldPath,
  forbiddenField,
  invalidValue,
  nameIsDNSSubdomain,
  notSupported,
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
  nameColumn,
  named,
  objectMetaSpec,
  ptr,
  since,
  str,
  struct,
  validateCoreMeta,
  validateCoreMetaUpdate,
  wireCodec,
  type ObjectMeta,
} from '@keel/resource';
import { groupTarget } from './scheme.js';
import type { CoreResourceView } from './view.js';

export interface PriorityClass {
  metadata: ObjectMeta;
  value?: number;
  globalDefault?: boolean;
  description?: string;
  preemptionPolicy?: string;
}

/** The highest value a class other than the system ones may have (HighestUserDefinablePriority). */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
/** The value a pod gets when it names no class and no class is the global default. */
export const DEFAULT_PRIORITY_WITHOUT_DEFAULT_CLASS = 0;
const SYSTEM_PREFIX = 'system-';
export const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'] as const;

export interface SystemPriorityClass {
  readonly name: string;
  readonly value: number;
  readonly description: string;
}

/** The built-in classes the server creates at start-up (scheduling/v1 helpers' systemPriorityClasses). */
export const systemPriorityClassList: readonly SystemPriorityClass[] = [
  {
    name: 'system-node-critical',
    value: 2_000_001_000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    name: 'system-cluster-critical',
    value: 2_000_000_000,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

/** The stored form of a built-in class, as the bootstrap hook creates it. */
export function systemPriorityClassObject(c: SystemPriorityClass): PriorityClass & { apiVersion: string; kind: string } {
  return {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: c.name },
    value: c.value,
    description: c.description,
    preemptionPolicy: 'PreemptLowerPriority',
  };
}

const priorityClassSpec = struct('v1.PriorityClass', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  value: always(int32),
  globalDefault: bool,
  description: str,
  preemptionPolicy: ptr(named('v1.PreemptionPolicy')),
});

/** SetDefaults_PriorityClass. */
function defaultPriorityClass(pc: PriorityClass): void {
  pc.preemptionPolicy ??= 'PreemptLowerPriority';
}

/** IsKnownSystemPriorityClass: why `pc` is not one of the built-in classes, or undefined if it is. */
function unknownSystemClass(name: string, value: number, globalDefault: boolean): string | undefined {
  const known = systemPriorityClassList.find((c) => c.name === name);
  if (!known) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${name} PriorityClass must be ${known.value}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

/** ValidatePreemptionPolicy. */
export function validatePreemptionPolicy(policy: string, p: FieldPath): FieldError[] {
  if (policy === '') return [required(p)];
  return (PREEMPTION_POLICIES as readonly string[]).includes(policy) ? [] : [notSupported(p, policy, PREEMPTION_POLICIES)];
}

function validate(pc: PriorityClass): FieldError[] {
  const errs = validateCoreMeta(pc.metadata, false, nameIsDNSSubdomain);
  const name = pc.metadata.name ?? '';
  const value = pc.value ?? 0;
  if (name.startsWith(SYSTEM_PREFIX)) {
    const why = unknownSystemClass(name, value, pc.globalDefault ?? false);
    if (why !== undefined) {
      errs.push(
        forbiddenField(
          FieldPath.of('metadata', 'name'),
          `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${why}`,
        ),
      );
    }
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(forbiddenField(FieldPath.of('value'), `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  if (pc.preemptionPolicy !== undefined) errs.push(...validatePreemptionPolicy(pc.preemptionPolicy, FieldPath.of('preemptionPolicy')));
  return errs;
}

/** ValidatePriorityClassUpdate: name (in the metadata checks), value and preemptionPolicy are immutable. */
function validateUpdate(pc: PriorityClass, old: PriorityClass): FieldError[] {
  const errs = validateCoreMetaUpdate(pc.metadata, old.metadata);
  if ((pc.value ?? 0) !== (old.value ?? 0)) errs.push(forbiddenField(FieldPath.of('value'), 'may not be changed in an update.'));
  if (pc.preemptionPolicy !== old.preemptionPolicy) {
    errs.push(invalidValue(FieldPath.of('preemptionPolicy'), pc.preemptionPolicy ?? null, 'field is immutable'));
  }
  return errs;
}

export const priorityClassView: CoreResourceView<PriorityClass> = {
  group: 'scheduling.k8s.io',
  version: 'v1',
  apiVersion: 'scheduling.k8s.io/v1',
  resource: 'priorityclasses',
  kind: 'PriorityClass',
  listKind: 'PriorityClassList',
  singular: 'priorityclass',
  shortNames: ['pc'],
  categories: [],
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: '1QwjyaZjj3Y=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  invalidKind: { group: 'scheduling.k8s.io', kind: 'PriorityClass' },
  smpSchema: { 'metadata.finalizers': { patchStrategy: 'merge' }, 'metadata.ownerReferences': 'uid' },
  ...wireCodec<PriorityClass>(groupTarget('scheduling.k8s.io', 'PriorityClass'), priorityClassSpec, defaultPriorityClass),
  prepareForCreate: () => undefined,
  prepareForUpdate: () => undefined,
  validateCreate: (pc) => beforeCreate(validate(pc), pc.metadata, false),
  validateUpdate: (pc, old) => beforeUpdate(pc.metadata, old.metadata, false, validateUpdate(pc, old)),
  fieldLabels: ['metadata.name'],
  convertFieldLabel: defaultMetaFieldLabels,
  fields: (pc) => ({ 'metadata.name': pc.metadata.name ?? '' }),
  tableColumns: [
    nameColumn,
    column(
      'Value',
      'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.',
      0,
      'integer',
    ),
    column(
      'Global-Default',
      'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.',
      0,
      'boolean',
    ),
    ageColumn,
    column(
      'PreemptionPolicy',
      'preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.',
    ),
  ],
  tableRow: (pc, now) => [
    pc.metadata.name ?? '',
    pc.value ?? 0,
    pc.globalDefault ?? false,
    since(pc.metadata.creationTimestamp, now),
    pc.preemptionPolicy ?? '',
  ],
};
