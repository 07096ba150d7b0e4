import type { PluginFactory, PreEnqueuePlugin } from '../../framework/interface.js';
import { Status, type MaybeStatus } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';

export const NAME = 'SchedulingGates';

/** Keeps a pod out of the active queue while it has `spec.schedulingGates`. */
export class SchedulingGates implements PreEnqueuePlugin {
  readonly name = NAME;

  preEnqueue(pod: Pod): MaybeStatus {
    const gates = pod.spec.schedulingGates ?? [];
    if (gates.length === 0) return undefined;
    // Go's %v of a []string: "[a b]".
    return Status.unresolvable(`waiting for scheduling gates: [${gates.map((g) => g.name).join(' ')}]`);
  }
}

export const create: PluginFactory = () => new SchedulingGates();
