import type { NodeInfo } from './node-info.js';

/**
 * Per-node results that depend only on the node's pods and labels, kept across cycles and
 * recomputed only for nodes whose `generation` moved. Pods of one workload share their selectors,
 * so counting "pods matching this selector on each node" is mostly a lookup after the first cycle
 * instead of a pass over every pod in the cluster. Keyed by a string naming what is computed;
 * the least recently used keys are dropped beyond `maxKeys`.
 */
export class NodeMemo<T> {
  private readonly byKey = new Map<string, WeakMap<NodeInfo, { gen: number; value: T }>>();

  constructor(private readonly maxKeys = 64) {}

  /** The table for one key, moved to the most recently used end. */
  table(key: string): WeakMap<NodeInfo, { gen: number; value: T }> {
    let t = this.byKey.get(key);
    if (t) {
      this.byKey.delete(key);
    } else {
      t = new WeakMap();
      if (this.byKey.size >= this.maxKeys) {
        const oldest = this.byKey.keys().next().value;
        if (oldest !== undefined) this.byKey.delete(oldest);
      }
    }
    this.byKey.set(key, t);
    return t;
  }
}

/** `compute(info)` unless the table holds a value for the node's current generation. */
export function memoized<T>(
  table: WeakMap<NodeInfo, { gen: number; value: T }>,
  info: NodeInfo,
  compute: (info: NodeInfo) => T,
): T {
  const hit = table.get(info);
  if (hit && hit.gen === info.generation) return hit.value;
  const value = compute(info);
  table.set(info, { gen: info.generation, value });
  return value;
}
