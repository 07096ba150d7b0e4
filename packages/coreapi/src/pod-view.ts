/**
 * core/v1 Pod as served (pkg/registry/core/pod strategy.go): defaults on every decode, status
 * reset on create (Pending, QoS class, the SchedulingGated condition), status kept on main
 * updates and spec kept on status updates, generation counting spec changes.
 */
import { cloneJson } from '@keel/apimachinery';
import {
  keepFrom,
  beforeCreate,
  beforeUpdate,
  sameJson,
  statusSubresourceView,
  wireCodec,
  type StatusHooks,
} from '@keel/resource';
import type { CoreResourceView } from './view.js';
import { computePodQOS, defaultPod, mergeMatchLabelKeys } from './pod-defaults.js';
import { convertPodFieldLabel, podFieldLabels, podFields, podSmpSchema } from './pod-fields.js';
import { podWireSpec } from './pod-schema.js';
import { podTableColumns, podTableRow } from './pod-table.js';
import type { Pod } from './pod-types.js';
import { DEFAULT_POD_VALIDATION, validatePodCreate, type PodValidationOptions } from './pod-validation.js';
import { validatePodStatusUpdate, validatePodUpdate } from './pod-update-validation.js';
import { coreTarget } from './scheme.js';

const codec = wireCodec<Pod>(coreTarget('Pod'), podWireSpec, defaultPod);

/** The strategy's PrepareForCreate (the priority is the Priority admission plugin's). */
export function preparePodForCreate(pod: Pod): void {
  const spec = (pod.spec ??= {});
  pod.status = { phase: 'Pending', qosClass: computePodQOS(pod) };
  if (spec.schedulingGates?.length) {
    pod.status.conditions = [
      { type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' },
    ];
  }
  mergeMatchLabelKeys(pod);
  pod.metadata.generation = 1;
}

/** The strategy's PrepareForUpdate: status is the stored one; a spec change bumps generation. */
export function preparePodForUpdate(pod: Pod, old: Pod): void {
  keepFrom(pod, old, 'status');
  const generation = old.metadata.generation ?? 0;
  const bumped = generation + (sameJson(pod.spec, old.spec) ? 0 : 1);
  if (bumped > 0) pod.metadata.generation = bumped;
}

/** podStatusStrategy.PrepareForUpdate: spec and ownerReferences are the stored ones, QoS backfilled. */
export function preparePodStatusUpdate(pod: Pod, old: Pod): void {
  keepFrom(pod, old, 'spec');
  if (old.metadata.ownerReferences) pod.metadata.ownerReferences = cloneJson(old.metadata.ownerReferences);
  else delete pod.metadata.ownerReferences;
  if (old.metadata.generation !== undefined) pod.metadata.generation = old.metadata.generation;
  if (!pod.status?.qosClass && old.status?.qosClass) pod.status = { ...(pod.status ?? {}), qosClass: old.status.qosClass };
}

/** Pods as served under the cluster's pod policy (--allow-privileged). */
export function podViewWith(policy: PodValidationOptions): CoreResourceView<Pod> & StatusHooks<Pod> {
  return {
    ...podView,
    validateCreate: (pod) => beforeCreate(validatePodCreate(pod, policy), pod.metadata, true),
    validateUpdate: (pod, old) => beforeUpdate(pod.metadata, old.metadata, true, validatePodUpdate(pod, old, policy)),
  };
}

/** Pods under the real server's default policy (no privileged containers). */
export const podView: CoreResourceView<Pod> & StatusHooks<Pod> = {
  group: '',
  version: 'v1',
  apiVersion: 'v1',
  resource: 'pods',
  kind: 'Pod',
  listKind: 'PodList',
  singular: 'pod',
  shortNames: ['po'],
  categories: ['all'],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'xPOwRZ+Yhw8=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  invalidKind: { group: '', kind: 'Pod' },
  smpSchema: podSmpSchema,
  ...codec,
  prepareForCreate: preparePodForCreate,
  prepareForUpdate: preparePodForUpdate,
  prepareStatusUpdate: preparePodStatusUpdate,
  validateCreate: (pod) => beforeCreate(validatePodCreate(pod, DEFAULT_POD_VALIDATION), pod.metadata, true),
  validateUpdate: (pod, old) => beforeUpdate(pod.metadata, old.metadata, true, validatePodUpdate(pod, old, DEFAULT_POD_VALIDATION)),
  validateStatusUpdate: (pod, old) => beforeUpdate(pod.metadata, old.metadata, true, validatePodStatusUpdate(pod, old)),
  fieldLabels: podFieldLabels,
  convertFieldLabel: convertPodFieldLabel,
  fields: podFields,
  tableColumns: podTableColumns,
  tableRow: podTableRow,
};

/** pods/status: get, patch, update; only status changes. */
export const podStatusView = statusSubresourceView(podView);
