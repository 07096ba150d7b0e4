import type { Snapshot } from '../cache/snapshot.js';

/**
 * A typed key into CycleState. The object itself is the key, so two plugins can use the same
 * label without clashing; the type parameter only ties `write` and `read` together.
 */
export interface StateKey<T> {
  readonly label: string;
  /** Never set: it carries T through structural typing. */
  readonly _type?: T;
}

export function stateKey<T>(label: string): StateKey<T> {
  return { label };
}

/**
 * State a plugin changes after PreFilter (kube's StateData with Clone): PreFilter extensions
 * update it for the pods preemption removes or nominated pods add, on a clone of the cycle state.
 */
export interface CloneableState {
  /** A copy that later changes to either side do not reach the other through. */
  clone(): CloneableState;
}

function isCloneable(v: unknown): v is CloneableState {
  return typeof v === 'object' && v !== null && typeof (v as { clone?: unknown }).clone === 'function';
}

/**
 * Data one scheduling cycle shares between extension points (PreFilter computes, Filter reads).
 * A new CycleState per pod per cycle; never shared between cycles.
 */
export class CycleState {
  private readonly data = new Map<StateKey<unknown>, unknown>();
  /** Plugins whose PreFilter returned Skip: their Filter does not run this cycle. */
  readonly skipFilterPlugins = new Set<string>();
  /** Plugins whose PreScore returned Skip: their Score does not run this cycle. */
  readonly skipScorePlugins = new Set<string>();
  /**
   * Every node of this cycle (kube's SnapshotSharedLister), for plugins that count pods across the
   * cluster, not just on the node being filtered. Set by the scheduler before PreFilter.
   */
  snapshot: Snapshot | undefined;
  /**
   * Whether this cycle records each plugin's duration (kube samples PLUGIN_METRICS_SAMPLE_PERCENT
   * of cycles: timing every call of every plugin would cost more than some plugins do).
   */
  recordPluginMetrics = false;
  /** Nodes whose Filter calls were timed this cycle (see PLUGIN_METRICS_NODES_PER_CYCLE). */
  timedFilterNodes = 0;
  /**
   * The framework's filter plugins left once the skipped ones are taken out, with how many were
   * skipped then (the framework works it out again when that changes); shared by clones.
   */
  activeFilters:
    { readonly owner: object; readonly skipped: number; readonly plugins: readonly object[] } | undefined;
  /** Whether a PreFilter plugin with AddPod/RemovePod runs its Filter, kept as activeFilters is. */
  extensionsActive:
    { readonly owner: object; readonly skipped: number; readonly active: boolean } | undefined;

  /**
   * kube's CycleState.Clone: a state whose cloneable values are copies (the others, written once
   * and only read, are shared), for what-if filtering (preemption's dry run, nominated pods).
   */
  clone(): CycleState {
    const c = new CycleState();
    for (const [k, v] of this.data) c.data.set(k, isCloneable(v) ? v.clone() : v);
    for (const p of this.skipFilterPlugins) c.skipFilterPlugins.add(p);
    for (const p of this.skipScorePlugins) c.skipScorePlugins.add(p);
    c.snapshot = this.snapshot;
    c.recordPluginMetrics = this.recordPluginMetrics;
    c.timedFilterNodes = this.timedFilterNodes;
    c.activeFilters = this.activeFilters;
    c.extensionsActive = this.extensionsActive;
    return c;
  }

  write<T>(key: StateKey<T>, value: T): void {
    this.data.set(key, value);
  }

  read<T>(key: StateKey<T>): T | undefined {
    return this.data.get(key) as T | undefined;
  }
}
