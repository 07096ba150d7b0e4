import type { FilterPlugin, PluginFactory } from '../../framework/interface.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status, type MaybeStatus } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';

export const NAME = 'NodeName';
export const ERR_REASON = "node(s) didn't match the requested node name";

/** A pod that names a node (spec.nodeName preset) fits only that node. */
export function fits(pod: Pod, nodeName: string): boolean {
  const want = pod.spec.nodeName ?? '';
  return want === '' || want === nodeName;
}

export class NodeName implements FilterPlugin {
  readonly name = NAME;

  filter(_state: unknown, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    return fits(pod, nodeInfo.name) ? undefined : Status.unresolvable(ERR_REASON);
  }
}

export const create: PluginFactory = () => new NodeName();
