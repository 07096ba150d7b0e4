import type { FilterPlugin, PluginFactory } from '../../framework/interface.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status, type MaybeStatus } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import { TAINT_EFFECT_NO_SCHEDULE, tolerationsTolerateTaint } from '../helper/tolerations.js';

export const NAME = 'NodeUnschedulable';
export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/** Whether the pod tolerates the unschedulable:NoSchedule taint of a cordoned node. */
function toleratesCordon(pod: Pod): boolean {
  return tolerationsTolerateTaint(pod.spec.tolerations ?? [], {
    key: TAINT_NODE_UNSCHEDULABLE,
    effect: TAINT_EFFECT_NO_SCHEDULE,
  });
}

/** A cordoned node takes only pods that tolerate the unschedulable:NoSchedule taint. */
export class NodeUnschedulable implements FilterPlugin {
  readonly name = NAME;

  filter(_state: unknown, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    // The NodeInfo's copy of spec.unschedulable (false without a Node): no Node fetched per node.
    if (!nodeInfo.unschedulable || toleratesCordon(pod)) return undefined;
    return Status.unresolvable(ERR_REASON_UNSCHEDULABLE);
  }
}

export const create: PluginFactory = () => new NodeUnschedulable();
