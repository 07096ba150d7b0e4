/**
 * The parts of core/v1 Pod and Node the scheduler reads, as plain JSON shapes. Only what the
 * framework and its plugins use is typed; everything else in the objects is carried along untouched.
 * Quantities may arrive as strings (the wire form) or numbers (lenient JSON decoders).
 */

export type QuantityValue = string | number;
export type ResourceList = Readonly<Record<string, QuantityValue>>;

export interface ObjectMeta {
  readonly name?: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly generation?: number;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly deletionTimestamp?: string | null;
  readonly [key: string]: unknown;
}

export interface ContainerPort {
  readonly containerPort?: number;
  readonly hostPort?: number;
  readonly protocol?: string;
  readonly hostIP?: string;
}

export interface ResourceRequirements {
  readonly requests?: ResourceList;
  readonly limits?: ResourceList;
}

export interface Container {
  readonly name?: string;
  readonly image?: string;
  readonly resources?: ResourceRequirements;
  readonly ports?: readonly ContainerPort[];
  /** `Always` marks a sidecar among the init containers. */
  readonly restartPolicy?: string;
}

export interface Toleration {
  readonly key?: string;
  /** `Equal` (the default when empty) or `Exists`. */
  readonly operator?: string;
  readonly value?: string;
  readonly effect?: string;
  readonly tolerationSeconds?: number | null;
}

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
}

export interface NodeSelectorRequirement {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

export interface NodeSelectorTerm {
  readonly matchExpressions?: readonly NodeSelectorRequirement[] | null;
  readonly matchFields?: readonly NodeSelectorRequirement[] | null;
}

export interface NodeSelector {
  readonly nodeSelectorTerms: readonly NodeSelectorTerm[];
}

export interface PreferredSchedulingTerm {
  readonly weight: number;
  readonly preference: NodeSelectorTerm;
}

export interface NodeAffinity {
  readonly requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector | null;
  readonly preferredDuringSchedulingIgnoredDuringExecution?: readonly PreferredSchedulingTerm[] | null;
}

/** metav1.LabelSelector: nil matches nothing, empty matches everything. */
export interface LabelSelectorSpec {
  readonly matchLabels?: Readonly<Record<string, string>> | null;
  readonly matchExpressions?:
    | readonly {
        readonly key: string;
        readonly operator: string;
        readonly values?: readonly string[] | null;
      }[]
    | null;
}

export interface PodAffinityTerm {
  readonly labelSelector?: LabelSelectorSpec | null;
  readonly namespaces?: readonly string[] | null;
  readonly namespaceSelector?: LabelSelectorSpec | null;
  readonly topologyKey: string;
}

export interface WeightedPodAffinityTerm {
  readonly weight: number;
  readonly podAffinityTerm: PodAffinityTerm;
}

/** PodAffinity and PodAntiAffinity have the same shape. */
export interface PodAffinity {
  readonly requiredDuringSchedulingIgnoredDuringExecution?: readonly PodAffinityTerm[] | null;
  readonly preferredDuringSchedulingIgnoredDuringExecution?: readonly WeightedPodAffinityTerm[] | null;
}

export interface Affinity {
  readonly nodeAffinity?: NodeAffinity | null;
  readonly podAffinity?: PodAffinity | null;
  readonly podAntiAffinity?: PodAffinity | null;
  readonly [key: string]: unknown;
}

export interface TopologySpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  /** `DoNotSchedule` or `ScheduleAnyway`. */
  readonly whenUnsatisfiable: string;
  readonly labelSelector?: LabelSelectorSpec | null;
  readonly minDomains?: number | null;
  /** `Honor` (default) or `Ignore`. */
  readonly nodeAffinityPolicy?: string | null;
  /** `Ignore` (default) or `Honor`. */
  readonly nodeTaintsPolicy?: string | null;
  readonly matchLabelKeys?: readonly string[] | null;
}

/** The volume sources the volume plugins look at; others are carried along untouched. */
export interface Volume {
  readonly name: string;
  readonly persistentVolumeClaim?: { readonly claimName: string; readonly readOnly?: boolean } | null;
  /** A generic ephemeral volume: its claim is `<pod name>-<volume name>`, owned by the pod. */
  readonly ephemeral?: Readonly<Record<string, unknown>> | null;
  readonly gcePersistentDisk?: { readonly pdName: string; readonly readOnly?: boolean } | null;
  readonly awsElasticBlockStore?: { readonly volumeID: string } | null;
  readonly iscsi?: { readonly iqn: string; readonly readOnly?: boolean } | null;
  readonly rbd?: {
    readonly monitors?: readonly string[] | null;
    readonly pool?: string;
    readonly image: string;
    readonly readOnly?: boolean;
  } | null;
  readonly [key: string]: unknown;
}

export interface PodSpec {
  readonly nodeName?: string;
  readonly volumes?: readonly Volume[] | null;
  readonly schedulerName?: string;
  readonly nodeSelector?: Readonly<Record<string, string>> | null;
  readonly affinity?: Affinity | null;
  readonly topologySpreadConstraints?: readonly TopologySpreadConstraint[] | null;
  readonly tolerations?: readonly Toleration[] | null;
  readonly containers?: readonly Container[];
  readonly initContainers?: readonly Container[] | null;
  readonly overhead?: ResourceList | null;
  readonly priority?: number | null;
  readonly schedulingGates?: readonly { readonly name: string }[] | null;
  readonly [key: string]: unknown;
}

export interface PodStatus {
  readonly phase?: string;
  readonly [key: string]: unknown;
}

export interface Pod {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly spec: PodSpec;
  readonly status?: PodStatus;
}

export interface NodeSpec {
  readonly unschedulable?: boolean;
  readonly taints?: readonly Taint[] | null;
  readonly [key: string]: unknown;
}

export interface ContainerImage {
  readonly names?: readonly string[] | null;
  readonly sizeBytes?: number;
}

export interface NodeStatus {
  readonly allocatable?: ResourceList;
  readonly images?: readonly ContainerImage[] | null;
  readonly capacity?: ResourceList;
  readonly [key: string]: unknown;
}

export interface Node {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta & { readonly name: string };
  readonly spec?: NodeSpec;
  readonly status?: NodeStatus;
}

/** `namespace/name`, the key the queue and logs use (kube's MetaNamespaceKeyFunc). */
export function podName(pod: Pod): string {
  const ns = pod.metadata.namespace ?? '';
  const name = pod.metadata.name ?? '';
  return ns === '' ? name : `${ns}/${name}`;
}

/** The cache's key: the UID, which changes when a pod is deleted and recreated under its name. */
export function podUid(pod: Pod): string {
  return pod.metadata.uid ?? podName(pod);
}
