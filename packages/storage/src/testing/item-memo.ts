import type { ListOptions, Storage, StoredObject } from '../storage.js';

/**
 * What a caller that keeps items by key and version hands a list (`decode` and `cached`), as the
 * API server's encoded-item cache does: every item made is kept by its key and version, and
 * given back (a copy, as the store returns fresh objects) whenever a list names that version.
 * The store must then never name a version whose state differs from what it lists.
 */
export function itemMemo(): Required<Pick<ListOptions<StoredObject>, 'decode' | 'cached'>> & {
  readonly made: Map<string, StoredObject>;
} {
  const made = new Map<string, StoredObject>();
  const id = (key: string, rv: string): string => `${rv}\u0000${key}`;
  return {
    made,
    decode: (key, rv, parse) => {
      const o = parse();
      made.set(id(key, rv), structuredClone(o));
      return o;
    },
    cached: (key, rv) => {
      const o = made.get(id(key, rv));
      return o && structuredClone(o);
    },
  };
}

/** A store whose lists all go through one item memo (unless the caller brings its own decode). */
export function withItemMemo(inner: Storage): Storage {
  const memo = itemMemo();
  return new Proxy(inner, {
    get(target, prop) {
      if (prop === 'list')
        return <T extends object>(prefix: string, opts: ListOptions<T> = {}) =>
          opts.decode || opts.cached
            ? target.list(prefix, opts)
            : target.list(prefix, {
                ...opts,
                decode: memo.decode as unknown as NonNullable<ListOptions<T>['decode']>,
                cached: memo.cached as unknown as NonNullable<ListOptions<T>['cached']>,
              });
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
