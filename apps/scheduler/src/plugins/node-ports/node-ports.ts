import { stateKey, type CycleState } from '../../framework/cycle-state.js';
import { podHostPorts, type HostPort } from '../../framework/host-ports.js';
import type { FilterPlugin, PluginFactory, PreFilterPlugin } from '../../framework/interface.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status, type MaybeStatus } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';

export const NAME = 'NodePorts';
export const ERR_REASON = "node(s) didn't have free ports for the requested pod ports";

const portsKey = stateKey<readonly HostPort[]>('PreFilter' + NAME);

/** Whether none of `wanted` collides with a host port already in use on the node. */
export function fitsPorts(wanted: readonly HostPort[], nodeInfo: NodeInfo): boolean {
  return !wanted.some((p) => nodeInfo.usedPorts.conflicts(p));
}

/** Rejects nodes where a requested hostPort/protocol/hostIP is taken; pods without host ports skip it. */
export class NodePorts implements PreFilterPlugin, FilterPlugin {
  readonly name = NAME;

  preFilter(state: CycleState, pod: Pod): MaybeStatus {
    const ports = podHostPorts(pod);
    if (ports.length === 0) return Status.skip();
    state.write(portsKey, ports);
    return undefined;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const wanted = state.read(portsKey) ?? podHostPorts(pod);
    return fitsPorts(wanted, nodeInfo) ? undefined : Status.unschedulable(ERR_REASON);
  }
}

export const create: PluginFactory = () => new NodePorts();
