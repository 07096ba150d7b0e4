/** The stored core/v1 Node and its wire schema (k8s.io/api core/v1 types.go, Go field order and tags). */
import type { JsonValue } from '@keel/apimachinery';
import {
  objectMetaSpec,
  type ObjectMeta,
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
  struct,
  time,
} from '@keel/resource';
import type { ResourceList } from './pod-types.js';

export interface Taint {
  key?: string;
  value?: string;
  effect?: string;
  timeAdded?: string;
}

export interface NodeCondition {
  type?: string;
  status?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface NodeAddress {
  type?: string;
  address?: string;
}

export interface NodeSystemInfo {
  machineID?: string;
  systemUUID?: string;
  bootID?: string;
  kernelVersion?: string;
  osImage?: string;
  containerRuntimeVersion?: string;
  kubeletVersion?: string;
  kubeProxyVersion?: string;
  operatingSystem?: string;
  architecture?: string;
  swap?: JsonValue;
}

export interface NodeSpec {
  podCIDR?: string;
  podCIDRs?: string[];
  providerID?: string;
  unschedulable?: boolean;
  taints?: Taint[];
  configSource?: JsonValue;
  externalID?: string;
}

export interface NodeStatus {
  capacity?: ResourceList;
  allocatable?: ResourceList;
  phase?: string;
  conditions?: NodeCondition[];
  addresses?: NodeAddress[];
  daemonEndpoints?: { kubeletEndpoint?: { Port?: number } };
  nodeInfo?: NodeSystemInfo;
  images?: { names?: string[]; sizeBytes?: number }[];
  volumesInUse?: string[];
  volumesAttached?: JsonValue[];
  config?: JsonValue;
  runtimeHandlers?: JsonValue[];
  features?: JsonValue;
}

export interface Node {
  metadata: ObjectMeta;
  spec?: NodeSpec;
  status?: NodeStatus;
}

const taint = struct('v1.Taint', {
  key: always(str),
  value: str,
  effect: always(named('v1.TaintEffect')),
  timeAdded: ptr(time),
});

const nodeInfoFields = [
  'machineID',
  'systemUUID',
  'bootID',
  'kernelVersion',
  'osImage',
  'containerRuntimeVersion',
  'kubeletVersion',
  'kubeProxyVersion',
  'operatingSystem',
  'architecture',
] as const;

export const nodeWireSpec = struct('v1.Node', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: struct('v1.NodeSpec', {
    podCIDR: str,
    podCIDRs: list(str, '[]string'),
    providerID: str,
    unschedulable: bool,
    taints: list(taint, '[]v1.Taint'),
    configSource: ptr(raw),
    externalID: str,
  }),
  status: struct('v1.NodeStatus', {
    capacity: resourceList,
    allocatable: resourceList,
    phase: named('v1.NodePhase'),
    conditions: list(
      struct('v1.NodeCondition', {
        type: always(named('v1.NodeConditionType')),
        status: always(named('v1.ConditionStatus')),
        lastHeartbeatTime: time,
        lastTransitionTime: time,
        reason: str,
        message: str,
      }),
      '[]v1.NodeCondition',
    ),
    addresses: list(struct('v1.NodeAddress', { type: always(named('v1.NodeAddressType')), address: always(str) }), '[]v1.NodeAddress'),
    daemonEndpoints: struct('v1.NodeDaemonEndpoints', { kubeletEndpoint: struct('v1.DaemonEndpoint', { Port: always(int32) }) }),
    nodeInfo: struct('v1.NodeSystemInfo', {
      ...Object.fromEntries(nodeInfoFields.map((f) => [f, always(str)])),
      swap: ptr(raw),
    }),
    images: list(struct('v1.ContainerImage', { names: always(list(str, '[]string')), sizeBytes: int64 }), '[]v1.ContainerImage'),
    volumesInUse: list(named('v1.UniqueVolumeName'), '[]v1.UniqueVolumeName'),
    volumesAttached: list(raw, '[]v1.AttachedVolume'),
    config: ptr(raw),
    runtimeHandlers: list(raw, '[]v1.NodeRuntimeHandler'),
    features: ptr(raw),
  }),
});
