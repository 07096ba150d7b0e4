/**
 * The stored core/v1 Pod: the v1 wire shape in canonical form (zero values absent, quantities
 * and timestamps normalised). Only the members this package reads are typed; subtrees it keeps
 * without modelling them (volumes, probes, env, security contexts, ...) are plain JSON.
 */
import type { JsonValue } from '@keel/apimachinery';
import type { ObjectMeta } from '@keel/resource';

export type ResourceList = Record<string, string>;

export interface ResourceRequirements {
  limits?: ResourceList;
  requests?: ResourceList;
  claims?: JsonValue[];
}

export interface ContainerPort {
  name?: string;
  hostPort?: number;
  containerPort?: number;
  protocol?: string;
  hostIP?: string;
}

export interface VolumeMount {
  name?: string;
  mountPath?: string;
  [key: string]: JsonValue | undefined;
}

export interface Container {
  name?: string;
  image?: string;
  ports?: ContainerPort[];
  resources?: ResourceRequirements;
  restartPolicy?: string;
  volumeMounts?: VolumeMount[];
  livenessProbe?: Record<string, JsonValue>;
  readinessProbe?: Record<string, JsonValue>;
  startupProbe?: Record<string, JsonValue>;
  lifecycle?: JsonValue;
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  imagePullPolicy?: string;
  [key: string]: JsonValue | undefined | object;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface SelectorRequirement {
  key?: string;
  operator?: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: SelectorRequirement[];
  matchFields?: SelectorRequirement[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: SelectorRequirement[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  namespaces?: string[];
  topologyKey?: string;
  namespaceSelector?: LabelSelector;
  matchLabelKeys?: string[];
  mismatchLabelKeys?: string[];
}

export interface WeightedPodAffinityTerm {
  weight?: number;
  podAffinityTerm?: PodAffinityTerm;
}

export interface PodAffinityRules {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
}

export interface Affinity {
  nodeAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] };
    preferredDuringSchedulingIgnoredDuringExecution?: { weight?: number; preference?: NodeSelectorTerm }[];
  };
  podAffinity?: PodAffinityRules;
  podAntiAffinity?: PodAffinityRules;
}

export interface PodSpec {
  volumes?: { name?: string; [key: string]: JsonValue | undefined }[];
  initContainers?: Container[];
  containers?: Container[];
  ephemeralContainers?: JsonValue[];
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  dnsPolicy?: string;
  nodeSelector?: Record<string, string>;
  serviceAccountName?: string;
  serviceAccount?: string;
  nodeName?: string;
  hostNetwork?: boolean;
  securityContext?: JsonValue;
  hostname?: string;
  subdomain?: string;
  affinity?: Affinity;
  schedulerName?: string;
  tolerations?: Toleration[];
  priorityClassName?: string;
  priority?: number;
  readinessGates?: { conditionType?: string }[];
  enableServiceLinks?: boolean;
  preemptionPolicy?: string;
  schedulingGates?: { name?: string }[];
  resources?: ResourceRequirements;
  [key: string]: JsonValue | undefined | object;
}

export interface PodCondition {
  type?: string;
  observedGeneration?: number;
  status?: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface ContainerState {
  waiting?: { reason?: string; message?: string };
  running?: { startedAt?: string };
  terminated?: { exitCode?: number; signal?: number; reason?: string; message?: string; startedAt?: string; finishedAt?: string; containerID?: string };
}

export interface ContainerStatus {
  name?: string;
  state?: ContainerState;
  lastState?: ContainerState;
  ready?: boolean;
  restartCount?: number;
  image?: string;
  imageID?: string;
  containerID?: string;
  started?: boolean;
  [key: string]: JsonValue | undefined | object;
}

export interface PodStatus {
  observedGeneration?: number;
  phase?: string;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  nominatedNodeName?: string;
  hostIP?: string;
  hostIPs?: { ip?: string }[];
  podIP?: string;
  podIPs?: { ip?: string }[];
  startTime?: string;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  qosClass?: string;
  [key: string]: JsonValue | undefined | object;
}

export interface Pod {
  metadata: ObjectMeta;
  spec?: PodSpec;
  status?: PodStatus;
}
