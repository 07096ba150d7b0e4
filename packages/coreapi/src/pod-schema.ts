/**
 * The core/v1 Pod on the wire (k8s.io/api core/v1 types.go), field by field in Go's order with
 * Go's JSON tags. What a scheduler or this package's rules read is modelled; the other known
 * members (volumes, probes, env, security contexts, ...) are kept as sent (`raw`), so nothing a
 * client sends is lost and only truly unknown fields are reported for fieldValidation.
 */
import {
  objectMetaSpec,
  always,
  bool,
  int32,
  int64,
  list,
  named,
  ptr,
  raw,
  resourceList,
  str,
  stringMap,
  struct,
  time,
  type StructSpec,
  type WireSpec,
} from '@keel/resource';

const strings: WireSpec = list(str, '[]string');
const rawList = (goType: string): WireSpec => list(raw, goType);

export const resourceRequirementsSpec = struct('v1.ResourceRequirements', {
  limits: resourceList,
  requests: resourceList,
  claims: rawList('[]v1.ResourceClaim'),
});

const containerPort = struct('v1.ContainerPort', {
  name: str,
  hostPort: int32,
  containerPort: always(int32),
  protocol: named('v1.Protocol'),
  hostIP: str,
});

const volumeMount = struct('v1.VolumeMount', {
  name: always(str),
  readOnly: bool,
  recursiveReadOnly: ptr(named('v1.RecursiveReadOnlyMode')),
  mountPath: always(str),
  subPath: str,
  mountPropagation: ptr(named('v1.MountPropagationMode')),
  subPathExpr: str,
});

const container = struct('v1.Container', {
  name: always(str),
  image: str,
  command: strings,
  args: strings,
  workingDir: str,
  ports: list(containerPort, '[]v1.ContainerPort'),
  envFrom: rawList('[]v1.EnvFromSource'),
  env: rawList('[]v1.EnvVar'),
  resources: resourceRequirementsSpec,
  resizePolicy: rawList('[]v1.ContainerResizePolicy'),
  restartPolicy: ptr(named('v1.ContainerRestartPolicy')),
  restartPolicyRules: rawList('[]v1.ContainerRestartRule'),
  volumeMounts: list(volumeMount, '[]v1.VolumeMount'),
  volumeDevices: rawList('[]v1.VolumeDevice'),
  livenessProbe: ptr(raw),
  readinessProbe: ptr(raw),
  startupProbe: ptr(raw),
  lifecycle: ptr(raw),
  terminationMessagePath: str,
  terminationMessagePolicy: named('v1.TerminationMessagePolicy'),
  imagePullPolicy: named('v1.PullPolicy'),
  securityContext: ptr(raw),
  stdin: bool,
  stdinOnce: bool,
  tty: bool,
});

export const tolerationSpec = struct('v1.Toleration', {
  key: str,
  operator: named('v1.TolerationOperator'),
  value: str,
  effect: named('v1.TaintEffect'),
  tolerationSeconds: ptr(int64),
});

const selectorRequirement = (goType: string, operator: string): StructSpec =>
  struct(goType, { key: always(str), operator: always(named(operator)), values: strings });

const nodeSelectorTerm = struct('v1.NodeSelectorTerm', {
  matchExpressions: list(
    selectorRequirement('v1.NodeSelectorRequirement', 'v1.NodeSelectorOperator'),
    '[]v1.NodeSelectorRequirement',
  ),
  matchFields: list(
    selectorRequirement('v1.NodeSelectorRequirement', 'v1.NodeSelectorOperator'),
    '[]v1.NodeSelectorRequirement',
  ),
});

export const labelSelectorSpec = struct('v1.LabelSelector', {
  matchLabels: stringMap,
  matchExpressions: list(
    selectorRequirement('v1.LabelSelectorRequirement', 'v1.LabelSelectorOperator'),
    '[]v1.LabelSelectorRequirement',
  ),
});

const podAffinityTerm = struct('v1.PodAffinityTerm', {
  labelSelector: ptr(labelSelectorSpec),
  namespaces: strings,
  topologyKey: always(str),
  namespaceSelector: ptr(labelSelectorSpec),
  matchLabelKeys: strings,
  mismatchLabelKeys: strings,
});

const podAffinityRules = (goType: string): StructSpec =>
  struct(goType, {
    requiredDuringSchedulingIgnoredDuringExecution: list(podAffinityTerm, '[]v1.PodAffinityTerm'),
    preferredDuringSchedulingIgnoredDuringExecution: list(
      struct('v1.WeightedPodAffinityTerm', { weight: always(int32), podAffinityTerm: podAffinityTerm }),
      '[]v1.WeightedPodAffinityTerm',
    ),
  });

const affinity = struct('v1.Affinity', {
  nodeAffinity: ptr(
    struct('v1.NodeAffinity', {
      requiredDuringSchedulingIgnoredDuringExecution: ptr(
        struct('v1.NodeSelector', {
          nodeSelectorTerms: always(list(nodeSelectorTerm, '[]v1.NodeSelectorTerm')),
        }),
      ),
      preferredDuringSchedulingIgnoredDuringExecution: list(
        struct('v1.PreferredSchedulingTerm', { weight: always(int32), preference: nodeSelectorTerm }),
        '[]v1.PreferredSchedulingTerm',
      ),
    }),
  ),
  podAffinity: ptr(podAffinityRules('v1.PodAffinity')),
  podAntiAffinity: ptr(podAffinityRules('v1.PodAntiAffinity')),
});

export const podSpecWire = struct('v1.PodSpec', {
  // Volume sources are many and inline; kept whole so none is dropped.
  volumes: rawList('[]v1.Volume'),
  initContainers: list(container, '[]v1.Container'),
  containers: always(list(container, '[]v1.Container')),
  ephemeralContainers: rawList('[]v1.EphemeralContainer'),
  restartPolicy: named('v1.RestartPolicy'),
  terminationGracePeriodSeconds: ptr(int64),
  activeDeadlineSeconds: ptr(int64),
  dnsPolicy: named('v1.DNSPolicy'),
  nodeSelector: stringMap,
  serviceAccountName: str,
  serviceAccount: str,
  automountServiceAccountToken: ptr(bool),
  nodeName: str,
  hostNetwork: bool,
  hostPID: bool,
  hostIPC: bool,
  shareProcessNamespace: ptr(bool),
  securityContext: ptr(raw),
  imagePullSecrets: rawList('[]v1.LocalObjectReference'),
  hostname: str,
  subdomain: str,
  affinity: ptr(affinity),
  schedulerName: str,
  tolerations: list(tolerationSpec, '[]v1.Toleration'),
  hostAliases: rawList('[]v1.HostAlias'),
  priorityClassName: str,
  priority: ptr(int32),
  dnsConfig: ptr(raw),
  readinessGates: list(
    struct('v1.PodReadinessGate', { conditionType: always(named('v1.PodConditionType')) }),
    '[]v1.PodReadinessGate',
  ),
  runtimeClassName: ptr(str),
  enableServiceLinks: ptr(bool),
  preemptionPolicy: ptr(named('v1.PreemptionPolicy')),
  overhead: resourceList,
  topologySpreadConstraints: rawList('[]v1.TopologySpreadConstraint'),
  setHostnameAsFQDN: ptr(bool),
  os: ptr(raw),
  hostUsers: ptr(bool),
  schedulingGates: list(struct('v1.PodSchedulingGate', { name: always(str) }), '[]v1.PodSchedulingGate'),
  resourceClaims: rawList('[]v1.PodResourceClaim'),
  resources: ptr(resourceRequirementsSpec),
  hostnameOverride: ptr(str),
});

export const podConditionSpec = struct('v1.PodCondition', {
  type: always(named('v1.PodConditionType')),
  observedGeneration: int64,
  status: always(named('v1.ConditionStatus')),
  lastProbeTime: time,
  lastTransitionTime: time,
  reason: str,
  message: str,
});

const containerState = struct('v1.ContainerState', {
  waiting: ptr(struct('v1.ContainerStateWaiting', { reason: str, message: str })),
  running: ptr(struct('v1.ContainerStateRunning', { startedAt: time })),
  terminated: ptr(
    struct('v1.ContainerStateTerminated', {
      exitCode: always(int32),
      signal: int32,
      reason: str,
      message: str,
      startedAt: time,
      finishedAt: time,
      containerID: str,
    }),
  ),
});

const containerStatus = struct('v1.ContainerStatus', {
  name: always(str),
  state: containerState,
  lastState: containerState,
  ready: always(bool),
  restartCount: always(int32),
  image: always(str),
  imageID: always(str),
  containerID: str,
  started: ptr(bool),
  allocatedResources: resourceList,
  resources: ptr(raw),
  volumeMounts: rawList('[]v1.VolumeMountStatus'),
  user: ptr(raw),
  allocatedResourcesStatus: rawList('[]v1.ResourceStatus'),
  stopSignal: ptr(named('v1.Signal')),
});

const ipList = (goType: string): WireSpec => list(struct(goType, { ip: always(str) }), `[]${goType}`);

const podStatus = struct('v1.PodStatus', {
  observedGeneration: int64,
  phase: named('v1.PodPhase'),
  conditions: list(podConditionSpec, '[]v1.PodCondition'),
  message: str,
  reason: str,
  nominatedNodeName: str,
  hostIP: str,
  hostIPs: ipList('v1.HostIP'),
  podIP: str,
  podIPs: ipList('v1.PodIP'),
  startTime: ptr(time),
  initContainerStatuses: list(containerStatus, '[]v1.ContainerStatus'),
  containerStatuses: list(containerStatus, '[]v1.ContainerStatus'),
  qosClass: named('v1.PodQOSClass'),
  ephemeralContainerStatuses: list(containerStatus, '[]v1.ContainerStatus'),
  resize: named('v1.PodResizeStatus'),
  resourceClaimStatuses: rawList('[]v1.PodResourceClaimStatus'),
  extendedResourceClaimStatus: ptr(raw),
});

export const podWireSpec = struct('v1.Pod', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: podSpecWire,
  status: podStatus,
});
