import type { LabelSelectorSpec, Pod } from './types.js';

/** The parts of a policy/v1 PodDisruptionBudget preemption reads. */
export interface PodDisruptionBudget {
  readonly metadata: { readonly name?: string; readonly namespace?: string };
  readonly spec?: { readonly selector?: LabelSelectorSpec | null } | null;
  readonly status?: {
    readonly disruptionsAllowed?: number | null;
    /** Pods the API server's eviction already counted, by name. */
    readonly disruptedPods?: Readonly<Record<string, unknown>> | null;
  } | null;
}

/** A preemption decided in a scheduling cycle, for the API server. */
export interface PreemptionPlan {
  readonly preemptor: Pod;
  readonly nodeName: string;
  /** The pods to delete, most important first. */
  readonly victims: readonly Pod[];
  /** Lower-priority pods nominated to the node, whose nomination is cleared. */
  readonly nominatedToClear: readonly Pod[];
}

/**
 * What DefaultPreemption needs beyond the snapshot (kube's PDB lister and clientset): the budgets,
 * and the API writes of a chosen preemption, which run in the background while scheduling goes on
 * (kube's asynchronous preemption). Without one, the plugin only decides and nominates.
 */
export interface PreemptionHandle {
  podDisruptionBudgets(): readonly PodDisruptionBudget[];
  execute(plan: PreemptionPlan): void;
}

/** kube's PreemptionAttempts and PreemptionVictims, as DefaultPreemption records them. */
export interface PreemptionMetrics {
  /** One PostFilter run of DefaultPreemption, whatever its outcome. */
  attempt(): void;
  /** The chosen candidate's victim count. */
  victims(count: number): void;
}
