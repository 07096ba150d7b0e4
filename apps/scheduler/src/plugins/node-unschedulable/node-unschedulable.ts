import type { FilterPlugin, PluginFactory } from '../../framework/interface.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status, type MaybeStatus } from '../../framework/status.js';
import type { Node, Pod } from '../../framework/types.js';
import { TAINT_EFFECT_NO_SCHEDULE, tolerationsTolerateTaint } from '../helper/tolerations.js';

export const NAME = 'NodeUnschedulable';
export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/** A cordoned node takes only pods that tolerate the unschedulable:NoSchedule taint. */
export function fits(pod: Pod, node: Node): boolean {
  if (!node.spec?.unschedulable) return true;
  return tolerationsTolerateTaint(pod.spec.tolerations ?? [], {
    key: TAINT_NODE_UNSCHEDULABLE,
    effect: TAINT_EFFECT_NO_SCHEDULE,
  });
}

export class NodeUnschedulable implements FilterPlugin {
  readonly name = NAME;

  filter(_state: unknown, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    // The NodeInfo's copy of spec.unschedulable: no Node to fetch for the nodes that are not.
    if (!nodeInfo.unschedulable || !nodeInfo.node || fits(pod, nodeInfo.node)) return undefined;
    return Status.unresolvable(ERR_REASON_UNSCHEDULABLE);
  }
}

export const create: PluginFactory = () => new NodeUnschedulable();
