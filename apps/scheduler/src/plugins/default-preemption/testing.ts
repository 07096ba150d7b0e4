import { SchedulerCache } from '../../cache/cache.js';
import { Framework } from '../../framework/framework.js';
import type { BindPlugin } from '../../framework/interface.js';
import type { Extenders } from '../../extender/extenders.js';
import type {
  PodDisruptionBudget,
  PreemptionHandle,
  PreemptionMetrics,
  PreemptionPlan,
} from '../../framework/preemption-handle.js';
import type { Node, Pod } from '../../framework/types.js';
import { applyDefaults, type SchedulerConfiguration } from '../../options/index.js';
import { Nominator } from '../../scheduling/nominator.js';
import { PodScheduler } from '../../scheduling/schedule-one.js';
import { newInTreeRegistry } from '../default-registry.js';

/** A PreemptionHandle that records the plans instead of calling an API server. */
export class RecordingPreemption implements PreemptionHandle {
  readonly plans: PreemptionPlan[] = [];
  constructor(readonly pdbs: PodDisruptionBudget[] = []) {}
  podDisruptionBudgets(): readonly PodDisruptionBudget[] {
    return this.pdbs;
  }
  execute(plan: PreemptionPlan): void {
    this.plans.push(plan);
  }
}

/**
 * The default profile (DefaultPreemption included, with `args` if given) over a cache holding
 * `nodes` and the assigned `pods`; `attempt` runs one scheduling cycle and, after a FitError,
 * PostFilter, as the scheduling loop does.
 */
export function preemptionCluster(
  nodes: readonly Node[],
  pods: readonly Pod[],
  o: {
    pdbs?: PodDisruptionBudget[];
    args?: Record<string, unknown>;
    /** The profile as a config file's `profiles[0]` says it (defaulted). */
    profile?: Parameters<typeof applyDefaults>[0]['profiles'];
    /** Given to the framework as the handle's extenders and preemption metrics. */
    extenders?: Extenders;
    metrics?: PreemptionMetrics;
  } = {},
) {
  const cache = new SchedulerCache();
  for (const n of nodes) cache.addNode(n);
  for (const p of pods) cache.addPod(p);
  const nominator = new Nominator();
  const preemption = new RecordingPreemption(o.pdbs);
  const config: SchedulerConfiguration = applyDefaults(o.profile ? { profiles: o.profile } : {});
  const base = config.profiles[0];
  if (!base) throw new Error('no default profile');
  const profile = o.args ? { ...base, pluginConfig: [{ name: 'DefaultPreemption', args: o.args }] } : base;
  const binder: BindPlugin = { name: 'DefaultBinder', bind: () => Promise.resolve(undefined) };
  const fwk = Framework.fromProfile(
    profile,
    newInTreeRegistry().register('DefaultBinder', () => binder),
    undefined,
    {
      nominator,
      preemption,
      ...(o.extenders ? { extenders: o.extenders } : {}),
      ...(o.metrics ? { preemptionMetrics: o.metrics } : {}),
    },
  );
  const scheduler = new PodScheduler({ percentageOfNodesToScore: 0 });
  const attempt = async (pod: Pod) => {
    const out = scheduler.schedulePod(fwk, cache.snapshot(), pod);
    if (out.ok) return { host: out.result.suggestedHost };
    if (!out.fitError || !out.state || !fwk.hasPostFilterPlugins()) return { error: out.message };
    const post = await fwk.runPostFilterPlugins(out.state, pod, out.fitError.diagnosis.nodeToStatus);
    out.fitError.diagnosis.postFilterMsg = post.status.message();
    return {
      code: post.status.code,
      nominated: post.result?.nominatedNodeName,
      message: out.fitError.text(),
      state: out.state,
      nodeToStatus: out.fitError.diagnosis.nodeToStatus,
    };
  };
  return { cache, nominator, preemption, fwk, attempt };
}
