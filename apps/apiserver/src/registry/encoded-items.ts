import { LRUCache } from 'lru-cache';
import type { InternalObject, ResourceView } from './resource-view.js';

/** Encoded list items kept, in string length (≈ bytes of JSON). */
const DEFAULT_MAX_CHARS = 64 * 1024 * 1024;

/**
 * The JSON of list items and watch events per view, keyed by what makes a stored state unique:
 * its storage key and resourceVersion (one counter orders every write of a store). Informers
 * relist, controllers page through the same unchanged objects again and again, and every watcher
 * of a view gets the same events; like the real server's caching objects, the encoding is done
 * once per state, view and form, not once per request. One cache per store, so versions of
 * different stores never meet.
 */
export class EncodedItems<I extends InternalObject> {
  private readonly cache: LRUCache<string, string>;

  /** `keyOf` gives an object's storage key. */
  constructor(
    private readonly keyOf: (item: I) => string,
    maxChars = DEFAULT_MAX_CHARS,
  ) {
    this.cache = new LRUCache<string, string>({
      maxSize: maxChars,
      sizeCalculation: (text, key) => text.length + key.length,
    });
  }

  /** The item's JSON as a list member: without kind and apiVersion, as the real server's lists. */
  listItem(view: ResourceView<I>, item: I): string {
    const rv = item.metadata.resourceVersion ?? '';
    return this.cached(view, 'item', this.keyOf(item), rv, () => encodeItem(view, item));
  }

  /** The same by storage key and version; `load` decodes the stored object only on a miss. */
  listItemAt(view: ResourceView<I>, storageKey: string, rv: string, load: () => I): string {
    return this.cached(view, 'item', storageKey, rv, () => encodeItem(view, load()));
  }

  /**
   * A watch event's line (without the newline). Every watcher of a view receives the same event:
   * it is encoded once, not once per watcher.
   */
  watchEvent(view: ResourceView<I>, type: string, item: I): string {
    const rv = item.metadata.resourceVersion ?? '';
    return this.cached(view, type, this.keyOf(item), rv, () =>
      JSON.stringify({ type, object: view.encode(item) }),
    );
  }

  private cached(
    view: ResourceView<I>,
    form: string,
    storageKey: string,
    rv: string,
    encode: () => string,
  ): string {
    if (rv === '') return encode();
    const key = `${view.group}/${view.version}/${view.resource}\0${form}\0${rv}\0${storageKey}`;
    let text = this.cache.get(key);
    if (text === undefined) {
      text = encode();
      this.cache.set(key, text);
    }
    return text;
  }
}

function encodeItem<I extends InternalObject>(view: ResourceView<I>, item: I): string {
  const { kind: _k, apiVersion: _a, ...rest } = view.encode(item);
  return JSON.stringify(rest);
}
