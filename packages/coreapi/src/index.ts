export type { CoreResourceView } from './view.js';
export { missingResourceVersion } from './scheme.js';

export {
  namespaceView,
  namespaceStatusView,
  namespaceFinalizeView,
  namespaceNameLabel,
  type Namespace,
  type NamespaceCondition,
} from './namespace.js';

export { nodeView, nodeStatusView, nodeTableColumns, nodeTableRow, validateNodeTaints } from './node-view.js';
export type {
  Node,
  NodeSpec,
  NodeStatus,
  NodeCondition,
  NodeAddress,
  NodeSystemInfo,
  Taint,
} from './node-schema.js';

export {
  podView,
  podViewWith,
  podStatusView,
  preparePodForCreate,
  preparePodForUpdate,
  preparePodStatusUpdate,
} from './pod-view.js';
export {
  defaultPod,
  computePodQOS,
  mergeMatchLabelKeys,
  defaultSchedulerName,
  defaultTerminationGracePeriodSeconds,
} from './pod-defaults.js';
export { podFieldLabels, convertPodFieldLabel, podFields, podSmpSchema } from './pod-fields.js';
export { podTableColumns, podTableRow, podRowConditions } from './pod-table.js';
export {
  validatePodCreate,
  validatePodSpec,
  DEFAULT_POD_VALIDATION,
  type PodValidationOptions,
} from './pod-validation.js';
export {
  validatePodUpdate,
  validatePodStatusUpdate,
  podUpdateForbiddenMessage,
} from './pod-update-validation.js';
export type {
  Pod,
  PodSpec,
  PodStatus,
  PodCondition,
  Container,
  ContainerPort,
  ContainerStatus,
  ContainerState,
  ResourceList,
  ResourceRequirements,
  Toleration,
  Affinity,
  NodeSelectorTerm,
  SelectorRequirement,
  LabelSelector,
  PodAffinityTerm,
  WeightedPodAffinityTerm,
} from './pod-types.js';
export {
  validateTolerations,
  validateAffinity,
  validateTaintEffect,
  taintEffects,
} from './scheduling-validation.js';
export { isExtendedResourceName, isNativeResource, isHugePageResourceName } from './resource-validation.js';

export {
  decodeBinding,
  validateBinding,
  bindingValidationError,
  checkBindingName,
  applyBinding,
  type Binding,
} from './binding.js';

export { configMapView, configMapKeyErrors, maxConfigMapSize, type ConfigMap } from './configmap.js';
export {
  endpointsView,
  formatEndpoints,
  type Endpoints,
  type EndpointSubset,
  type EndpointAddress,
  type EndpointPort,
} from './endpoints.js';
export { leaseView, type Lease, type LeaseSpec } from './lease.js';
export {
  priorityClassView,
  systemPriorityClassList,
  systemPriorityClassObject,
  HIGHEST_USER_DEFINABLE_PRIORITY,
  DEFAULT_PRIORITY_WITHOUT_DEFAULT_CLASS,
  type PriorityClass,
  type SystemPriorityClass,
} from './priorityclass.js';
export {
  rbacClusterRoleBindingView,
  rbacClusterRoleView,
  rbacRoleBindingView,
  rbacRoleView,
  type BindingObject,
  type RoleObject,
} from './rbac/index.js';

export {
  decodeTokenReview,
  tokenReviewResponse,
  tokenReviewResource,
  type TokenReview,
  type TokenReviewResult,
  type UserInfo,
} from './token-review.js';
export {
  decodeSubjectAccessReview,
  validateSubjectAccessReview,
  subjectAccessReviewInvalid,
  subjectAccessReviewInvalidKind,
  subjectAccessReviewResponse,
  subjectAccessReviewResource,
  type SubjectAccessReview,
  type ResourceAttributes,
  type AuthorizationDecision,
} from './subject-access-review.js';
export {
  decodeLocalSubjectAccessReview,
  decodeSelfSubjectAccessReview,
  decodeSelfSubjectRulesReview,
  localSubjectAccessReviewResource,
  localSubjectAccessReviewResponse,
  selfSubjectAccessReviewResource,
  selfSubjectAccessReviewResponse,
  selfSubjectRulesReviewResource,
  selfSubjectRulesReviewResponse,
  type SelfSubjectAccessReview,
  type SelfSubjectRulesReview,
  type SubjectRules,
} from './self-access-reviews.js';
export {
  decodeSelfSubjectReview,
  SELF_SUBJECT_REVIEW_VERSIONS,
  selfSubjectReviewResource,
  selfSubjectReviewResponse,
  type SelfSubjectReview,
  type SelfSubjectReviewVersion,
} from './self-subject-review.js';

export { serviceAccountView, type ServiceAccount } from './serviceaccount.js';
export {
  secretView,
  secretTypes,
  convertSecretFieldLabel,
  serviceAccountNameAnnotation,
  serviceAccountUIDAnnotation,
  type Secret,
} from './secret.js';
export {
  decodeTokenRequest,
  validateTokenRequest,
  tokenRequestResponse,
  tokenRequestGroupKind,
  tokenSubresource,
  defaultTokenExpirationSeconds,
  type TokenRequest,
  type BoundObjectReference,
} from './token-request.js';
export {
  limitRangeView,
  validateLimitRange,
  limitTypes,
  type LimitRange,
  type LimitRangeItem,
} from './limitrange.js';
export {
  resourceQuotaView,
  resourceQuotaStatusView,
  quotaScopes,
  quotaUsageCells,
  isStandardQuotaResourceName,
  type ResourceQuota,
  type ResourceQuotaSpec,
  type ScopedResourceSelectorRequirement,
} from './resourcequota.js';

export * from './admissionregistration/index.js';

export {
  serviceView,
  serviceStatusView,
  defaultService,
  validateService,
  validateClusterIPFields,
  normalizeClusterIPs,
  needsNodePorts,
  isHeadless,
  servicePorts,
  serviceTypes,
  type Service,
  type ServiceSpec,
  type ServicePort,
} from './service.js';
export {
  replicaSetView,
  replicaSetStatusView,
  replicationControllerView,
  replicationControllerStatusView,
  validateReplicaSet,
  validateReplicationController,
  type ReplicaSet,
  type ReplicationController,
} from './workloads/replicaset.js';
export {
  replicaSetScale,
  replicationControllerScale,
  scaleCodec,
  scaleInvalid,
  scaleOf,
  statefulSetScale,
  type Scale,
  type ScaleAccess,
} from './workloads/scale.js';
export {
  statefulSetView,
  statefulSetStatusView,
  validateStatefulSet,
  type StatefulSet,
} from './workloads/statefulset.js';
export {
  persistentVolumeView,
  persistentVolumeStatusView,
  persistentVolumeClaimView,
  persistentVolumeClaimStatusView,
  accessModesString,
  type PersistentVolume,
  type PersistentVolumeClaim,
} from './storage/volumes.js';
export { storageClassView, csiNodeView, type StorageClass, type CSINode } from './storage/storageclass.js';
export {
  podDisruptionBudgetViews,
  podDisruptionBudgetStatusViews,
  type PodDisruptionBudget,
} from './policy/poddisruptionbudget.js';
export {
  csiDriverView,
  csiStorageCapacityView,
  type CSIDriver,
  type CSIStorageCapacity,
} from './storage/csi.js';
