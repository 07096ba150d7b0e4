/** The informer's cache: objects by `namespace/name`, with the changes each write makes. */
import { objectKey, type KubeObject } from './types.js';

export interface StoreChanges<T> {
  readonly added: T[];
  readonly updated: [oldObj: T, newObj: T][];
  readonly deleted: T[];
}

export class ObjectStore<T extends KubeObject> {
  private readonly items = new Map<string, T>();

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  list(): T[] {
    return [...this.items.values()];
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  get size(): number {
    return this.items.size;
  }

  /** Stores `obj`; returns what it replaced. */
  upsert(obj: T): T | undefined {
    const key = objectKey(obj);
    const old = this.items.get(key);
    this.items.set(key, obj);
    return old;
  }

  /** Removes the object with `obj`'s key; returns what was cached. */
  remove(obj: T): T | undefined {
    const key = objectKey(obj);
    const old = this.items.get(key);
    this.items.delete(key);
    return old;
  }

  /**
   * Makes the cache exactly `objs` (a relist). Objects whose resourceVersion did not change are
   * not reported as updated; objects no longer listed are reported as deleted.
   */
  replace(objs: readonly T[]): StoreChanges<T> {
    const changes: StoreChanges<T> = { added: [], updated: [], deleted: [] };
    const seen = new Set<string>();
    for (const obj of objs) {
      const key = objectKey(obj);
      seen.add(key);
      const old = this.items.get(key);
      this.items.set(key, obj);
      if (!old) changes.added.push(obj);
      else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion)
        changes.updated.push([old, obj]);
    }
    for (const [key, old] of this.items) {
      if (seen.has(key)) continue;
      this.items.delete(key);
      changes.deleted.push(old);
    }
    return changes;
  }
}
