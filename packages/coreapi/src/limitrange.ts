/**
 * core/v1 LimitRange (SetDefaults_LimitRangeItem, ValidateLimitRange, printLimitRange): per
 * limit type the min/max/default/defaultRequest/maxLimitRequestRatio quantities and their
 * consistency. A Container item's default limit falls back to its max, its default request to
 * its default limit, then to its min, as v1 defaulting does.
 */
import {
  compareGoStrings,
  defaultMetaFieldLabels,
  duplicate,
  FieldPath,
  forbiddenField,
  invalidValue,
  isQualifiedName,
  nameIsDNSSubdomain,
  required,
  type FieldError,
} from '@keel/apimachinery';
import {
  always,
  beforeCreate,
  beforeUpdate,
  ageColumn,
  compareQuantity,
  list,
  named,
  nameColumn,
  objectMetaSpec,
  parseQuantity,
  quantityMilliValue,
  quantityValue,
  resourceList,
  str,
  struct,
  validateCoreMeta,
  validateCoreMetaUpdate,
  wireCodec,
  type ObjectMeta,
} from '@keel/resource';
import type { ResourceList } from './pod-types.js';
import { isOvercommitAllowed, validateContainerResourceName, validateResourceName } from './resource-validation.js';
import { coreTarget } from './scheme.js';
import type { CoreResourceView } from './view.js';

export interface LimitRangeItem {
  type: string;
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
}

export interface LimitRange {
  metadata: ObjectMeta;
  spec?: { limits: LimitRangeItem[] };
}

export const limitTypes = { pod: 'Pod', container: 'Container', persistentVolumeClaim: 'PersistentVolumeClaim' } as const;

const limitRangeSpec = struct('v1.LimitRange', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: struct('v1.LimitRangeSpec', {
    limits: always(
      list(
        struct('v1.LimitRangeItem', {
          type: always(named('v1.LimitType')),
          max: resourceList,
          min: resourceList,
          default: resourceList,
          defaultRequest: resourceList,
          maxLimitRequestRatio: resourceList,
        }),
        '[]v1.LimitRangeItem',
      ),
    ),
  }),
});

/** SetDefaults_LimitRangeItem for Container items. */
function defaultItem(item: LimitRangeItem): void {
  if (item.type !== limitTypes.container) return;
  const defaults: ResourceList = { ...item.default };
  const requests: ResourceList = { ...item.defaultRequest };
  for (const [k, v] of Object.entries(item.max ?? {})) if (!Object.hasOwn(defaults, k)) defaults[k] = v;
  for (const [k, v] of Object.entries(defaults)) if (!Object.hasOwn(requests, k)) requests[k] = v;
  for (const [k, v] of Object.entries(item.min ?? {})) if (!Object.hasOwn(requests, k)) requests[k] = v;
  if (Object.keys(defaults).length > 0) item.default = defaults;
  if (Object.keys(requests).length > 0) item.defaultRequest = requests;
}

function defaults(lr: LimitRange): void {
  for (const item of lr.spec?.limits ?? []) defaultItem(item);
}

/** validateLimitRangeTypeName. */
function validateTypeName(value: string, p: FieldPath): FieldError[] {
  const errs = isQualifiedName(value).map((msg) => invalidValue(p, value, msg));
  if (errs.length > 0) return errs;
  const standard = (Object.values(limitTypes) as string[]).includes(value);
  if (!value.includes('/') && !standard) return [invalidValue(p, value, 'must be a standard limit type or fully qualified')];
  return [];
}

/** validateLimitRangeResourceName: Pod and Container items take container resources only. */
function validateItemResourceName(type: string, name: string, p: FieldPath): FieldError[] {
  return type === limitTypes.pod || type === limitTypes.container ? validateContainerResourceName(name, p) : validateResourceName(name, p);
}

const sorted = (m: ResourceList | undefined): string[] => Object.keys(m ?? {}).sort(compareGoStrings);
const q = parseQuantity;
const str6 = (n: number): string => n.toFixed(6);
const maxMilliValue = 9223372036854775n;

/** The consistency checks between one resource's quantities in one item (Go's per-key loop). */
function validateKey(item: LimitRangeItem, k: string, p: FieldPath, defaultsAllowed: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const get = (m: ResourceList | undefined) => (m && Object.hasOwn(m, k) ? m[k] : undefined);
  const min = get(item.min);
  const max = get(item.max);
  const def = defaultsAllowed ? get(item.default) : undefined;
  const defReq = defaultsAllowed ? get(item.defaultRequest) : undefined;
  const ratio = get(item.maxLimitRequestRatio);
  const cmp = (a: string, b: string) => compareQuantity(q(a), q(b));
  if (min !== undefined && max !== undefined && cmp(min, max) > 0)
    errs.push(invalidValue(p.child('min').key(k), min, `min value ${min} is greater than max value ${max}`));
  if (defReq !== undefined && min !== undefined && cmp(min, defReq) > 0)
    errs.push(invalidValue(p.child('defaultRequest').key(k), defReq, `min value ${min} is greater than default request value ${defReq}`));
  if (defReq !== undefined && max !== undefined && cmp(defReq, max) > 0)
    errs.push(invalidValue(p.child('defaultRequest').key(k), defReq, `default request value ${defReq} is greater than max value ${max}`));
  if (defReq !== undefined && def !== undefined && cmp(defReq, def) > 0)
    errs.push(invalidValue(p.child('defaultRequest').key(k), defReq, `default request value ${defReq} is greater than default limit value ${def}`));
  if (def !== undefined && min !== undefined && cmp(min, def) > 0)
    errs.push(invalidValue(p.child('default').key(k), min, `min value ${min} is greater than default value ${def}`));
  if (def !== undefined && max !== undefined && cmp(def, max) > 0)
    errs.push(invalidValue(p.child('default').key(k), max, `default value ${def} is greater than max value ${max}`));
  if (ratio !== undefined && cmp(ratio, '1') < 0)
    errs.push(invalidValue(p.child('maxLimitRequestRatio').key(k), ratio, `ratio ${ratio} is less than 1`));
  if (ratio !== undefined && min !== undefined && max !== undefined) {
    const [r, lo, hi] = [q(ratio), q(min), q(max)];
    const precise = quantityValue(r) < maxMilliValue && quantityValue(lo) < maxMilliValue && quantityValue(hi) < maxMilliValue;
    const ratioValue = precise ? Number(quantityMilliValue(r)) / 1000 : Number(quantityValue(r));
    const limit = precise
      ? Number(quantityMilliValue(hi)) / Number(quantityMilliValue(lo))
      : Number(quantityValue(hi)) / Number(quantityValue(lo));
    if (ratioValue > limit)
      errs.push(invalidValue(p.child('maxLimitRequestRatio').key(k), ratio, `ratio ${ratio} is greater than max/min = ${str6(limit)}`));
  }
  if (!isOvercommitAllowed(k) && def !== undefined && defReq !== undefined && cmp(def, defReq) !== 0)
    errs.push(invalidValue(p.child('defaultRequest').key(k), defReq, `default value ${def} must equal to defaultRequest value ${defReq} in ${k}`));
  return errs;
}

/** ValidateLimitRange. */
export function validateLimitRange(lr: LimitRange): FieldError[] {
  const errs = validateCoreMeta(lr.metadata, true, nameIsDNSSubdomain);
  const seen = new Set<string>();
  (lr.spec?.limits ?? []).forEach((item, i) => {
    const p = FieldPath.of('spec', 'limits').index(i);
    errs.push(...validateTypeName(item.type, p.child('type')));
    if (seen.has(item.type)) errs.push(duplicate(p.child('type'), item.type));
    seen.add(item.type);
    const keys = new Set<string>();
    const names = (field: Exclude<keyof LimitRangeItem, 'type'>, m: ResourceList | undefined) => {
      for (const k of sorted(m)) {
        errs.push(...validateItemResourceName(item.type, k, p.child(field).key(k)));
        keys.add(k);
      }
    };
    names('max', item.max);
    names('min', item.min);
    const isPod = item.type === limitTypes.pod;
    if (isPod) {
      if (Object.keys(item.default ?? {}).length > 0) errs.push(forbiddenField(p.child('default'), "may not be specified when `type` is 'Pod'"));
      if (Object.keys(item.defaultRequest ?? {}).length > 0)
        errs.push(forbiddenField(p.child('defaultRequest'), "may not be specified when `type` is 'Pod'"));
    } else {
      names('default', item.default);
      names('defaultRequest', item.defaultRequest);
    }
    if (item.type === limitTypes.persistentVolumeClaim && !Object.hasOwn(item.min ?? {}, 'storage') && !Object.hasOwn(item.max ?? {}, 'storage'))
      errs.push(required(p.child('limits'), 'either minimum or maximum storage value is required, but neither was provided'));
    names('maxLimitRequestRatio', item.maxLimitRequestRatio);
    for (const k of [...keys].sort(compareGoStrings)) errs.push(...validateKey(item, k, p, !isPod));
  });
  return errs;
}

export const limitRangeView: CoreResourceView<LimitRange> = {
  group: '',
  version: 'v1',
  apiVersion: 'v1',
  resource: 'limitranges',
  kind: 'LimitRange',
  listKind: 'LimitRangeList',
  singular: 'limitrange',
  shortNames: ['limits'],
  categories: [],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'EBKMFVe6cwo=',
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  invalidKind: { group: '', kind: 'LimitRange' },
  smpSchema: { 'metadata.finalizers': { patchStrategy: 'merge' }, 'metadata.ownerReferences': 'uid' },
  ...wireCodec<LimitRange>(coreTarget('LimitRange'), limitRangeSpec, defaults),
  prepareForCreate: () => undefined,
  prepareForUpdate: () => undefined,
  validateCreate: (lr) => beforeCreate(validateLimitRange(lr), lr.metadata, true),
  validateUpdate: (lr, old) =>
    beforeUpdate(lr.metadata, old.metadata, true, [...validateCoreMetaUpdate(lr.metadata, old.metadata), ...validateLimitRange(lr)]),
  fieldLabels: ['metadata.name', 'metadata.namespace'],
  convertFieldLabel: defaultMetaFieldLabels,
  fields: (lr) => ({ 'metadata.name': lr.metadata.name ?? '', 'metadata.namespace': lr.metadata.namespace ?? '' }),
  tableColumns: [
    nameColumn,
    { ...ageColumn, name: 'Created At', type: 'date' },
  ],
  tableRow: (lr) => [lr.metadata.name ?? '', lr.metadata.creationTimestamp ?? ''],
};

