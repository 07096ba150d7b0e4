import { compareKeys } from '../keys.js';
import type { LogEntry, RawObject } from '../backend.js';

/** What the page algorithm needs from the current state, in key order. */
export interface CurrentState {
  /** Current objects with key >= start, in key order (may run past the prefix). */
  entriesFrom(start: string): Iterable<RawObject>;
  has(key: string): boolean;
  /** Current keys under a `/`-terminated prefix; undefined when not tracked. */
  count?(prefix: string): number | undefined;
}

interface Undo {
  /** The object's state at the snapshot; undefined when it did not exist then. */
  readonly value: string | undefined;
  readonly modRV: number | undefined;
}

/**
 * MVCC read of one page at snapshot S: walk the current index from `start`, and correct it with
 * the log entries newer than S. The first such entry of a key holds the key's state at S
 * (`prev`), which undoes creates (absent at S), updates (old value) and deletes (the key is
 * gone from the index but existed at S, so it is merged back in). The Redis Lua script
 * implements the same algorithm; see docs/storage-and-watch.md.
 */
export function snapshotPage(
  state: CurrentState,
  newer: Iterable<LogEntry>,
  prefix: string,
  start: string,
  count: number,
  offset?: number,
): { items: RawObject[]; more: boolean; remaining: number } {
  const undo = new Map<string, Undo>();
  const seen = new Set<string>();
  // Keys in the prefix at the snapshot minus keys now: from each key's first newer log entry.
  let snapshotMinusNow = 0;
  for (const e of newer) {
    if (seen.has(e.key) || !e.key.startsWith(prefix)) continue;
    seen.add(e.key);
    snapshotMinusNow += (e.prev !== undefined ? 1 : 0) - (state.has(e.key) ? 1 : 0);
    if (compareKeys(e.key, start) < 0) continue;
    undo.set(e.key, { value: e.prev, modRV: e.prevRV });
  }
  // Keys deleted after S that existed at S: absent from the index, so merged in from here.
  const revived = [...undo.entries()]
    .filter(([key, u]) => u.value !== undefined && !state.has(key))
    .map(([key]) => key)
    .sort(compareKeys);

  const items: RawObject[] = [];
  const atSnapshot = (key: string, current: RawObject | undefined): RawObject | undefined => {
    const u = undo.get(key);
    if (!u) return current;
    return u.value === undefined ? undefined : { key, value: u.value, modRV: u.modRV ?? 0 };
  };
  let r = 0;
  for (const cur of state.entriesFrom(start)) {
    if (!cur.key.startsWith(prefix) || items.length > count) break;
    while (r < revived.length && compareKeys(revived[r]!, cur.key) < 0 && items.length <= count)
      items.push(atSnapshot(revived[r++]!, undefined)!);
    if (items.length > count) break;
    const item = atSnapshot(cur.key, cur);
    if (item) items.push(item);
  }
  while (r < revived.length && items.length <= count) items.push(atSnapshot(revived[r++]!, undefined)!);

  const more = items.length > count;
  if (!more) return { items, more, remaining: 0 };
  items.length = count;
  const current = state.count?.(prefix);
  if (offset !== undefined && current !== undefined) {
    // The snapshot's size, less what came before this page and the page itself.
    return { items, more, remaining: current + snapshotMinusNow - offset - count };
  }
  const last = items[count - 1]!.key;
  let remaining = 0;
  for (const cur of state.entriesFrom(last)) {
    if (!cur.key.startsWith(prefix)) break;
    if (cur.key !== last) remaining++;
  }
  for (const [key, u] of undo) {
    if (compareKeys(key, last) <= 0) continue;
    remaining += (u.value !== undefined ? 1 : 0) - (state.has(key) ? 1 : 0);
  }
  return { items, more, remaining };
}
