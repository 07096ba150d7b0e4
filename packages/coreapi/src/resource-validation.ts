/**
 * Resource names and quantities (pkg/apis/core/validation, pkg/apis/core/helper): which names
 * are standard, native or extended, non-negative and integer quantities, and a container's
 * requests against its limits.
 */
import { compareGoStrings, forbiddenField, invalidValue, isQualifiedName, required, type FieldError, type FieldPath } from '@keel/apimachinery';
import {
  compareQuantity,
  formatQuantity,
  parseQuantity,
  quantityMilliValue,
  type Quantity,
} from '@keel/resource';
import type { ResourceList, ResourceRequirements } from './pod-types.js';

const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);
const standardResources = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
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
  'storage',
  'requests.storage',
]);
const integerResources = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

export const isHugePageResourceName = (name: string): boolean => name.startsWith('hugepages-');
export const isNativeResource = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');

/** helper.IsExtendedResourceName: a qualified, non-native name (`example.com/gpu`). */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

export const isOvercommitAllowed = (name: string): boolean => isNativeResource(name) && !isHugePageResourceName(name);
const isIntegerResourceName = (name: string): boolean => integerResources.has(name) || isExtendedResourceName(name);
const isStandardResourceName = (name: string): boolean =>
  standardResources.has(name) || name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');

/** validateResourceName. */
export function validateResourceName(name: string, p: FieldPath): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => invalidValue(p, name, msg));
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !isStandardResourceName(name)) {
    return [invalidValue(p, name, 'must be a standard resource type or fully qualified')];
  }
  return [];
}

/** validateContainerResourceName. */
export function validateContainerResourceName(name: string, p: FieldPath): FieldError[] {
  const errs = validateResourceName(name, p);
  if (!name.includes('/')) {
    if (!standardContainerResources.has(name) && !isHugePageResourceName(name)) {
      return [...errs, invalidValue(p, name, 'must be a standard resource for containers')];
    }
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    return [...errs, invalidValue(p, name, "doesn't follow extended resource name standard")];
  }
  return errs;
}

/** The stored strings are canonical quantities, so they always parse. */
export function quantityOf(text: string): Quantity {
  return parseQuantity(text);
}

/** ValidateResourceQuantityValue: non-negative, and whole for integer resources. */
export function validateResourceQuantityValue(name: string, value: string, p: FieldPath): FieldError[] {
  const q = quantityOf(value);
  const errs: FieldError[] = [];
  if (q.nanos < 0n) errs.push(invalidValue(p, formatQuantity(q), 'must be greater than or equal to 0'));
  if (isIntegerResourceName(name) && quantityMilliValue(q) % 1000n !== 0n) errs.push(invalidValue(p, formatQuantity(q), 'must be an integer'));
  return errs;
}

const sortedKeys = (m: ResourceList | undefined): string[] => Object.keys(m ?? {}).sort(compareGoStrings);

/** ValidateResourceRequirements for a container (or the pod-level resources). */
export function validateResourceRequirements(r: ResourceRequirements | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const limPath = p.child('limits');
  const reqPath = p.child('requests');
  const limits = r?.limits ?? {};
  const requests = r?.requests ?? {};
  let cpuOrMemory = false;
  let hugePages = false;
  for (const name of sortedKeys(limits)) {
    const value = limits[name] ?? '0';
    errs.push(...validateContainerResourceName(name, limPath.key(name)), ...validateResourceQuantityValue(name, value, limPath.key(name)));
    if (isHugePageResourceName(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  for (const name of sortedKeys(requests)) {
    const value = requests[name] ?? '0';
    errs.push(...validateContainerResourceName(name, reqPath.key(name)), ...validateResourceQuantityValue(name, value, reqPath.key(name)));
    const limit = Object.hasOwn(limits, name) ? limits[name] : undefined;
    if (limit !== undefined) {
      const cmp = compareQuantity(quantityOf(value), quantityOf(limit));
      if (cmp !== 0 && !isOvercommitAllowed(name)) {
        errs.push(invalidValue(reqPath, value, `must be equal to ${name} limit of ${limit}`));
      } else if (cmp > 0) {
        errs.push(invalidValue(reqPath, value, `must be less than or equal to ${name} limit of ${limit}`));
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePageResourceName(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  if (!cpuOrMemory && hugePages) errs.push(forbiddenField(p, 'HugePages require cpu or memory'));
  return errs;
}
