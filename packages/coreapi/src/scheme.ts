/**
 * The kinds the real server's scheme registers per group/version, as far as decoding needs
 * them: a body naming a registered kind of another type fails conversion, an unregistered one
 * fails the scheme lookup (type-meta.ts). Only the groups this package serves are listed, plus
 * the meta/v1 option kinds every group/version carries.
 */
import { invalid, invalidValue, path, type StatusError } from '@keel/apimachinery';
import type { KindTarget, Scheme } from '@keel/resource';

const optionKinds = [
  'WatchEvent',
  'ListOptions',
  'GetOptions',
  'DeleteOptions',
  'CreateOptions',
  'UpdateOptions',
  'PatchOptions',
];

const withLists = (kinds: string[]): string[] => kinds.flatMap((k) => [k, `${k}List`]);

const coreV1 = [
  ...withLists([
    'Pod',
    'PodTemplate',
    'ReplicationController',
    'Service',
    'Endpoints',
    'Node',
    'Event',
    'LimitRange',
    'ResourceQuota',
    'Namespace',
    'Secret',
    'ServiceAccount',
    'PersistentVolume',
    'PersistentVolumeClaim',
    'ComponentStatus',
    'ConfigMap',
  ]),
  'PodStatusResult',
  'Binding',
  'List',
  'RangeAllocation',
  'SerializedReference',
  'PodAttachOptions',
  'PodLogOptions',
  'PodExecOptions',
  'PodPortForwardOptions',
  'PodProxyOptions',
  'NodeProxyOptions',
  'ServiceProxyOptions',
];

const reviews = {
  authn: ['TokenReview', 'SelfSubjectReview'],
  authz: [
    'SubjectAccessReview',
    'SelfSubjectAccessReview',
    'LocalSubjectAccessReview',
    'SelfSubjectRulesReview',
  ],
};

const entries: [string, string[]][] = [
  ['v1', coreV1],
  ['coordination.k8s.io/v1', withLists(['Lease'])],
  ['coordination.k8s.io/v1beta1', withLists(['Lease'])],
  ['authentication.k8s.io/v1', [...reviews.authn, 'TokenRequest']],
  ['authentication.k8s.io/v1beta1', reviews.authn],
  ['authentication.k8s.io/v1alpha1', ['SelfSubjectReview']],
  ['authorization.k8s.io/v1', reviews.authz],
  ['authorization.k8s.io/v1beta1', reviews.authz],
  ['scheduling.k8s.io/v1', withLists(['PriorityClass'])],
  // Only Scale: the scale subresources' kind (Keel serves no HorizontalPodAutoscaler).
  ['autoscaling/v1', ['Scale']],
  ['apps/v1', withLists(['Deployment', 'DaemonSet', 'ReplicaSet', 'StatefulSet', 'ControllerRevision'])],
  [
    'storage.k8s.io/v1',
    withLists([
      'StorageClass',
      'VolumeAttachment',
      'CSINode',
      'CSIDriver',
      'CSIStorageCapacity',
      'VolumeAttributesClass',
    ]),
  ],
  ['policy/v1', [...withLists(['PodDisruptionBudget']), 'Eviction']],
  ['policy/v1beta1', [...withLists(['PodDisruptionBudget', 'PodSecurityPolicy']), 'Eviction']],
  ['rbac.authorization.k8s.io/v1', withLists(['Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding'])],
  [
    'admissionregistration.k8s.io/v1',
    withLists(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']),
  ],
];

export const coreScheme: Scheme = new Map(
  entries.map(([gv, kinds]) => [gv, new Set([...kinds, ...optionKinds])]),
);

export function coreTarget(kind: string): KindTarget {
  return {
    group: '',
    version: 'v1',
    kind,
    scheme: coreScheme,
    internalPackage: 'k8s.io/kubernetes/pkg/apis/core',
  };
}

export function groupTarget(group: string, kind: string): KindTarget {
  const pkg = group.split('.')[0] ?? group;
  return {
    group,
    version: 'v1',
    kind,
    scheme: coreScheme,
    internalPackage: `k8s.io/kubernetes/pkg/apis/${pkg}`,
  };
}

/**
 * The 422 of a PUT without metadata.resourceVersion on a resource that does not allow
 * unconditional updates. Go names the qualified *resource* here, not the kind:
 * `leases.coordination.k8s.io "x" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`.
 */
export function missingResourceVersion(
  view: { readonly group: string; readonly resource: string },
  name: string,
): StatusError {
  return invalid({ group: view.group, kind: view.resource }, name, [
    invalidValue(path('metadata', 'resourceVersion'), 0, 'must be specified for an update'),
  ]);
}
