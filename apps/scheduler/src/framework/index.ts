export { CycleState, stateKey, type StateKey } from './cycle-state.js';
export { Framework } from './framework.js';
export type { ScoreOutcome, WeightedScorePlugin } from './score-plugins.js';
export { BIND_ALL_HOST_IP, HostPortInfo, podHostPorts, type HostPort } from './host-ports.js';
export {
  MAX_NODE_SCORE,
  MIN_NODE_SCORE,
  NO_CLUSTER_OBJECTS,
  type ClusterObjects,
  type BindPlugin,
  type FilterPlugin,
  type FrameworkHandle,
  type Plugin,
  type PluginArgs,
  type PluginFactory,
  type PreEnqueuePlugin,
  type PreFilterPlugin,
  type PreScorePlugin,
  type QueueSortPlugin,
  type QueuedPodInfo,
  type ScorePlugin,
} from './interface.js';
export { NodeInfo, newPodInfo, type PodInfo } from './node-info.js';
export { Quantity, QuantityError, canonicalValue } from './quantity.js';
export { Registry } from './registry.js';
export {
  DEFAULT_MEMORY_REQUEST,
  DEFAULT_MILLI_CPU_REQUEST,
  emptyResource,
  nodeAllocatable,
  podNonZeroRequests,
  podRequests,
  type Resource,
} from './resource.js';
export { Code, Status, isSuccess, type MaybeStatus } from './status.js';
export { podName, podUid, type Node, type Pod, type Taint, type Toleration } from './types.js';
