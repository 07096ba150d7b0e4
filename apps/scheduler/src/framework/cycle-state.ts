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

  write<T>(key: StateKey<T>, value: T): void {
    this.data.set(key, value);
  }

  read<T>(key: StateKey<T>): T | undefined {
    return this.data.get(key) as T | undefined;
  }
}
