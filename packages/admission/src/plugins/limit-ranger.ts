/**
 * LimitRanger (kube's plugin/pkg/admission/limitranger) for pods: on create, every LimitRange of
 * the namespace first fills in its Container defaults (default limits, default requests) where a
 * container has none, and records what it set in the `kubernetes.io/limit-ranger` annotation;
 * then the pod must meet every range's min, max and maxLimitRequestRatio per Container and per
 * Pod. PersistentVolumeClaim items are never applied: Keel serves no claims.
 */
import type { StoredObject } from '@keel/resource';
import type { AdmissionAttributes } from '../attributes.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionPlugin } from '../plugin.js';
import type { ObjectIndex } from '../registry.js';
import {
  asPod,
  containersOf,
  initContainersOf,
  type ContainerLike,
  type PodLike,
} from '../quota/pod-shape.js';
import { has, namesOf, type ResourceList } from '../quota/resource-lists.js';
import { limitRangeErrors } from './limit-ranger-checks.js';

export const limitRangerAnnotation = 'kubernetes.io/limit-ranger';

export interface LimitRangeItem {
  type?: string;
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
}

interface LimitRange {
  metadata: { name?: string };
  spec?: { limits?: LimitRangeItem[] };
}

export interface LimitRangerDeps {
  readonly limitRanges: ObjectIndex;
  /** Lists one namespace from the store itself, for a namespace whose copy has none yet. */
  readonly listLive: (namespace: string) => Promise<StoredObject[]>;
  readonly now?: () => number;
}

/** How long a live read of a namespace's (absent) ranges is trusted, as upstream's liveTTL. */
const LIVE_TTL_MS = 30_000;

export function limitRanger(deps: LimitRangerDeps): AdmissionPlugin {
  const live = new Map<string, { expiry: number; items: StoredObject[] }>();
  const now = deps.now ?? Date.now;

  /** The namespace's ranges: the watched copy, else (briefly cached) the store's. */
  async function rangesOf(namespace: string): Promise<LimitRange[]> {
    const items = deps.limitRanges.list(namespace);
    if (items.length > 0) return items;
    let entry = live.get(namespace);
    if (!entry || entry.expiry < now()) {
      entry = { expiry: now() + LIVE_TTL_MS, items: await deps.listLive(namespace) };
      live.set(namespace, entry);
    }
    return entry.items;
  }

  const applies = (attrs: AdmissionAttributes): boolean =>
    attrs.operation === 'CREATE' &&
    attrs.subresource === '' &&
    attrs.kind.group === '' &&
    attrs.kind.kind === 'Pod' &&
    attrs.object !== undefined;

  return {
    name: 'LimitRanger',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async admit(attrs) {
      if (!applies(attrs) || !attrs.object) return;
      const pod = asPod(attrs.object);
      for (const range of await rangesOf(attrs.namespace)) applyDefaults(pod, range.spec?.limits ?? []);
    },
    async validate(attrs) {
      if (!applies(attrs) || !attrs.object) return;
      const pod = asPod(attrs.object);
      for (const range of await rangesOf(attrs.namespace)) {
        const errors = limitRangeErrors(range.spec?.limits ?? [], pod);
        if (errors.length > 0) throw admissionForbidden(attrs, aggregate(errors));
      }
    },
  };
}

/** utilerrors.NewAggregate's message: one error as it is, more in brackets. */
function aggregate(messages: string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] ?? '') : `[${unique.join(', ')}]`;
}

/** defaultContainerResourceRequirements + mergePodResourceRequirements. */
function applyDefaults(pod: PodLike, items: LimitRangeItem[]): void {
  const limits: ResourceList = {};
  const requests: ResourceList = {};
  for (const item of items) {
    if (item.type !== 'Container') continue;
    Object.assign(requests, item.defaultRequest ?? {});
    Object.assign(limits, item.default ?? {});
  }
  const notes = [
    ...containersOf(pod).flatMap((c) => mergeContainer(c, limits, requests, 'container')),
    ...initContainersOf(pod).flatMap((c) => mergeContainer(c, limits, requests, 'init container')),
  ];
  if (notes.length > 0) {
    pod.metadata.annotations = {
      ...pod.metadata.annotations,
      [limitRangerAnnotation]: `LimitRanger plugin set: ${notes.join('; ')}`,
    };
  }
}

function mergeContainer(
  c: ContainerLike,
  limits: ResourceList,
  requests: ResourceList,
  what: string,
): string[] {
  const resources = (c.resources ??= {});
  const setLimits = fill((resources.limits ??= {}), limits);
  const setRequests = fill((resources.requests ??= {}), requests);
  const notes: string[] = [];
  if (setRequests.length > 0) notes.push(`${setRequests.join(', ')} request for ${what} ${c.name ?? ''}`);
  if (setLimits.length > 0) notes.push(`${setLimits.join(', ')} limit for ${what} ${c.name ?? ''}`);
  if (Object.keys(resources.limits).length === 0) delete resources.limits;
  if (Object.keys(resources.requests).length === 0) delete resources.requests;
  return notes;
}

/** Adds each default the list lacks; the names it added, sorted. */
function fill(list: ResourceList, defaults: ResourceList): string[] {
  const set = namesOf(defaults).filter((k) => !has(list, k));
  for (const k of set) list[k] = defaults[k] ?? '0';
  return set;
}
