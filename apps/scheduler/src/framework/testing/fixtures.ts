import { EXTENSION_POINTS, type ExtensionPoint, type SchedulerProfile } from '../../options/index.js';
import { NodeInfo, newPodInfo } from '../node-info.js';
import type {
  Container,
  ContainerPort,
  Node,
  NodeAffinity,
  Pod,
  ResourceList,
  Taint,
  Toleration,
} from '../types.js';

/** Builders for tests: small, explicit pods and nodes. */

export interface PodOptions {
  readonly namespace?: string;
  readonly uid?: string;
  readonly nodeName?: string;
  readonly schedulerName?: string;
  /** Requests of a single container; `{}` gives a container without requests. */
  readonly requests?: ResourceList;
  readonly containers?: readonly Container[];
  readonly initContainers?: readonly Container[];
  readonly overhead?: ResourceList;
  readonly hostPorts?: readonly ContainerPort[];
  readonly priority?: number;
  readonly tolerations?: readonly Toleration[];
  readonly nodeSelector?: Readonly<Record<string, string>>;
  readonly nodeAffinity?: NodeAffinity;
  readonly schedulingGates?: readonly string[];
  readonly phase?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly deletionTimestamp?: string;
}

export function makePod(name: string, o: PodOptions = {}): Pod {
  const containers = o.containers ?? [
    {
      name: 'c',
      ...(o.requests ? { resources: { requests: o.requests } } : {}),
      ...(o.hostPorts ? { ports: o.hostPorts } : {}),
    },
  ];
  return {
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      uid: o.uid ?? `uid-${name}`,
      ...(o.labels ? { labels: o.labels } : {}),
      ...(o.deletionTimestamp ? { deletionTimestamp: o.deletionTimestamp } : {}),
    },
    spec: {
      containers,
      ...(o.initContainers ? { initContainers: o.initContainers } : {}),
      ...(o.overhead ? { overhead: o.overhead } : {}),
      ...(o.nodeName !== undefined ? { nodeName: o.nodeName } : {}),
      ...(o.schedulerName !== undefined ? { schedulerName: o.schedulerName } : {}),
      ...(o.priority !== undefined ? { priority: o.priority } : {}),
      ...(o.tolerations ? { tolerations: o.tolerations } : {}),
      ...(o.nodeSelector ? { nodeSelector: o.nodeSelector } : {}),
      ...(o.nodeAffinity ? { affinity: { nodeAffinity: o.nodeAffinity } } : {}),
      ...(o.schedulingGates ? { schedulingGates: o.schedulingGates.map((g) => ({ name: g })) } : {}),
    },
    status: { phase: o.phase ?? 'Pending' },
  };
}

export interface NodeOptions {
  readonly cpu?: string;
  readonly memory?: string;
  readonly pods?: string;
  /** Extra allocatable entries (extended resources, ephemeral-storage). */
  readonly allocatable?: ResourceList;
  readonly labels?: Readonly<Record<string, string>>;
  readonly taints?: readonly Taint[];
  readonly unschedulable?: boolean;
}

export function makeNode(name: string, o: NodeOptions = {}): Node {
  return {
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...o.labels } },
    spec: {
      ...(o.unschedulable !== undefined ? { unschedulable: o.unschedulable } : {}),
      ...(o.taints ? { taints: o.taints } : {}),
    },
    status: {
      allocatable: { cpu: o.cpu ?? '4', memory: o.memory ?? '8Gi', pods: o.pods ?? '110', ...o.allocatable },
    },
  };
}

/** A NodeInfo holding `pods` (which need not name the node). */
export function makeNodeInfo(node: Node, ...pods: Pod[]): NodeInfo {
  const info = new NodeInfo(node.metadata.name, node);
  for (const p of pods) info.addPod(newPodInfo(p));
  return info;
}

/** A profile as defaulting produces it, with the given multiPoint plugins and optional overrides. */
export function makeProfile(
  multiPoint: SchedulerProfile['plugins']['multiPoint']['enabled'],
  overrides: Partial<
    Record<keyof SchedulerProfile['plugins'], SchedulerProfile['plugins']['multiPoint']>
  > = {},
  extra: Partial<Pick<SchedulerProfile, 'percentageOfNodesToScore' | 'pluginConfig' | 'schedulerName'>> = {},
): SchedulerProfile {
  const empty = { enabled: [], disabled: [] };
  const plugins = Object.fromEntries(
    EXTENSION_POINTS.filter((p) => p !== 'multiPoint').map((p) => [p, overrides[p] ?? empty]),
  ) as Record<ExtensionPoint, SchedulerProfile['plugins']['multiPoint']>;
  return {
    schedulerName: extra.schedulerName ?? 'default-scheduler',
    ...(extra.percentageOfNodesToScore !== undefined
      ? { percentageOfNodesToScore: extra.percentageOfNodesToScore }
      : {}),
    plugins: { ...plugins, multiPoint: overrides.multiPoint ?? { enabled: multiPoint, disabled: [] } },
    pluginConfig: extra.pluginConfig ?? [],
  };
}
