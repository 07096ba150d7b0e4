/**
 * kube's DefaultPreemption PostFilter plugin (with the preemption Evaluator it drives): when a pod
 * fits nowhere, find nodes where deleting pods of lower priority lets it fit, pick the one that
 * costs least, nominate the pod to it and have the victims deleted. The choice is made inside
 * the scheduling cycle (after the extenders with a preempt verb had their say); the API writes
 * run in the background (see PreemptionHandle).
 */
import type { Extenders } from '../../extender/extenders.js';
import type { Victims } from '../../extender/wire.js';
import type { CycleState } from '../../framework/cycle-state.js';
import type {
  FilterRunner,
  FrameworkHandle,
  PluginFactory,
  PodNominator,
  PostFilterOutcome,
  PostFilterPlugin,
} from '../../framework/interface.js';
import { NodeInfo } from '../../framework/node-info.js';
import { NodeToStatus } from '../../framework/node-to-status.js';
import type { PreemptionHandle, PreemptionMetrics } from '../../framework/preemption-handle.js';
import { Code, Status } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import { nodesAvailableMessage } from '../../scheduling/fit-error.js';
import { nominatedNodeName } from '../../scheduling/nominator.js';
import { podPriority } from '../priority-sort/priority-sort.js';
import { numCandidates, parseDefaultPreemptionArgs, type DefaultPreemptionArgs } from './args.js';
import { pickOneNodeForPreemption, type Candidate } from './pick-node.js';
import { selectVictimsOnNode } from './victims.js';

export const NAME = 'DefaultPreemption';

export const NOT_HELPFUL = 'Preemption is not helpful for scheduling';

/** kube's podTerminatingByPreemption: deleted, with the DisruptionTarget condition preemption sets. */
export function podTerminatingByPreemption(pod: Pod): boolean {
  if (!pod.metadata.deletionTimestamp) return false;
  const conditions = pod.status?.['conditions'];
  if (!Array.isArray(conditions)) return false;
  const c = (conditions as { type?: string; status?: string; reason?: string }[]).find(
    (x) => x?.type === 'DisruptionTarget',
  );
  return c?.status === 'True' && c.reason === 'PreemptionByScheduler';
}

export interface DefaultPreemptionOptions {
  /** [0, 1): where the dry run starts among the potential nodes (kube picks at random). */
  readonly random?: () => number;
  readonly now?: () => number;
}

export class DefaultPreemption implements PostFilterPlugin {
  readonly name = NAME;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly nominator: PodNominator | undefined;
  private readonly preemption: PreemptionHandle | undefined;
  private readonly extenders: Extenders | undefined;
  private readonly metrics: PreemptionMetrics | undefined;

  constructor(
    readonly args: DefaultPreemptionArgs,
    handle: Pick<FrameworkHandle, 'nominator' | 'preemption' | 'extenders' | 'preemptionMetrics'>,
    options: DefaultPreemptionOptions = {},
  ) {
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.nominator = handle.nominator;
    this.preemption = handle.preemption;
    this.extenders = handle.extenders;
    this.metrics = handle.preemptionMetrics;
  }

  async postFilter(
    state: CycleState,
    pod: Pod,
    m: NodeToStatus,
    filters: FilterRunner,
  ): Promise<PostFilterOutcome> {
    // kube counts every PostFilter run of DefaultPreemption as an attempt, whatever its outcome.
    this.metrics?.attempt();
    let out: PostFilterOutcome;
    try {
      out = await this.preempt(state, pod, m, filters);
    } catch (err) {
      out = { status: Status.fromError(err) };
    }
    const msg = out.status.message();
    return msg === '' ? out : { ...out, status: Status.of(out.status.code, `preemption: ${msg}`) };
  }

  /**
   * kube's PodEligibleToPreemptOthers: not with preemptionPolicy Never, nor while the node it was
   * nominated to still has lower-priority pods terminating because of a preemption (unless that
   * node is now out of the question).
   */
  podEligibleToPreemptOthers(
    pod: Pod,
    m: NodeToStatus,
    nodes: (name: string) => NodeInfo | undefined,
  ): string {
    if (pod.spec['preemptionPolicy'] === 'Never') return 'not eligible due to preemptionPolicy=Never.';
    const nominated = nominatedNodeName(pod) || (this.nominator?.nominatedNodeOf(pod) ?? '');
    if (nominated === '') return '';
    if (m.get(nominated).code === Code.UnschedulableAndUnresolvable) return '';
    const priority = podPriority(pod);
    for (const p of nodes(nominated)?.pods.values() ?? []) {
      if (podPriority(p.pod) < priority && podTerminatingByPreemption(p.pod))
        return 'not eligible due to a terminating pod on the nominated node.';
    }
    return '';
  }

  private async preempt(
    state: CycleState,
    pod: Pod,
    m: NodeToStatus,
    filters: FilterRunner,
  ): Promise<PostFilterOutcome> {
    const snapshot = state.snapshot;
    if (!snapshot) return { status: Status.fromError(new Error('no snapshot in the cycle state')) };
    const notEligible = this.podEligibleToPreemptOthers(pod, m, (n) => snapshot.get(n));
    if (notEligible !== '') return { status: Status.unschedulable(notEligible) };

    const allNodes = snapshot.nodeInfos;
    if (allNodes.length === 0) return { status: Status.fromError(new Error('no nodes available')) };
    const { candidates, nodeStatuses, errors } = this.findCandidates(state, pod, m, filters, allNodes);
    if (candidates.length === 0 && errors.length > 0) {
      const text = errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]`;
      return { status: Status.fromError(new Error(text)) };
    }
    if (candidates.length === 0) {
      nodeStatuses.setAbsentNodesStatus(Status.unresolvable(NOT_HELPFUL));
      return {
        result: { nominatedNodeName: '' },
        status: Status.unschedulable(nodesAvailableMessage(allNodes.length, nodeStatuses)),
      };
    }
    const narrowed = await this.callExtenders(pod, candidates, snapshot);
    const best = pickOneNodeForPreemption(narrowed, this.now());
    if (!best) return { status: Status.unschedulable('no candidate node for preemption') };
    this.metrics?.victims(best.victims.length);
    const priority = podPriority(pod);
    const nominatedToClear = (this.nominator?.nominatedPodsForNode(best.nodeName) ?? [])
      .map((p) => p.pod)
      .filter((p) => podPriority(p) < priority);
    this.preemption?.execute({
      preemptor: pod,
      nodeName: best.nodeName,
      victims: best.victims,
      nominatedToClear,
    });
    return { result: { nominatedNodeName: best.nodeName }, status: Status.of(Code.Success) };
  }

  /**
   * kube's callExtenders: the extenders with a preempt verb that are interested in the pod narrow
   * the candidates (victims per node) in turn; what is left, possibly nothing, is what the best
   * candidate is picked from. Without such extenders the candidates pass unchanged and nothing
   * waits. A non-ignorable extender's failure throws (an Error status, as in kube).
   */
  private async callExtenders(
    pod: Pod,
    candidates: readonly Candidate[],
    snapshot: NonNullable<CycleState['snapshot']>,
  ): Promise<readonly Candidate[]> {
    const ext = this.extenders;
    if (!ext || !ext.list.some((e) => e.supportsPreemption() && e.isInterested(pod))) return candidates;
    const byNode = new Map<string, Victims>();
    for (const c of candidates) {
      if (!byNode.has(c.nodeName))
        byNode.set(c.nodeName, { pods: c.victims, numPDBViolations: c.numPDBViolations });
    }
    const out = await ext.preempt(pod, byNode, snapshot);
    return [...out].map(([nodeName, v]) => ({
      nodeName,
      victims: v.pods,
      numPDBViolations: v.numPDBViolations,
    }));
  }

  /**
   * kube's findCandidates and DryRunPreemption: over the nodes whose failure was Unschedulable
   * (not UnschedulableAndUnresolvable), from a random offset, until enough candidates are found
   * (at least one that violates no budget). Candidates without violations come first.
   */
  private findCandidates(
    state: CycleState,
    pod: Pod,
    m: NodeToStatus,
    filters: FilterRunner,
    allNodes: readonly NodeInfo[],
  ): { candidates: Candidate[]; nodeStatuses: NodeToStatus; errors: string[] } {
    const nodeStatuses = new NodeToStatus();
    const potential = m.nodesForStatusCode(allNodes, Code.Unschedulable);
    if (potential.length === 0) return { candidates: [], nodeStatuses, errors: [] };
    const pdbs = this.preemption?.podDisruptionBudgets() ?? [];
    const offset = Math.floor(this.random() * potential.length);
    const wanted = numCandidates(this.args, potential.length);
    const nonViolating: Candidate[] = [];
    const violating: Candidate[] = [];
    const errors: string[] = [];
    const now = this.now();
    // One copy for the whole dry run, made into each candidate in turn (kube copies per node).
    const scratch = new NodeInfo('');
    for (let i = 0; i < potential.length; i++) {
      const node = potential[(offset + i) % potential.length] as NodeInfo;
      let status: Status;
      try {
        const v = selectVictimsOnNode(filters, state, pod, node, pdbs, now, scratch);
        if (v.ok && v.victims.length > 0) {
          const c: Candidate = {
            nodeName: node.name,
            victims: v.victims,
            numPDBViolations: v.numPDBViolations,
          };
          const list = v.numPDBViolations === 0 ? nonViolating : violating;
          if (list.length < wanted) list.push(c);
          if (nonViolating.length > 0 && nonViolating.length + violating.length >= wanted) break;
          continue;
        }
        status = v.ok
          ? Status.fromError(
              new Error(`expected at least one victim pod on node ${JSON.stringify(node.name)}`),
            )
          : v.status;
      } catch (err) {
        status = Status.fromError(err);
      }
      if (status.code === Code.Error) errors.push(status.message());
      nodeStatuses.set(node.name, status);
    }
    return { candidates: [...nonViolating, ...violating], nodeStatuses, errors };
  }
}

export const create: PluginFactory = (args, handle) =>
  new DefaultPreemption(parseDefaultPreemptionArgs(args), handle);
