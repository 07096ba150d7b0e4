import { LRUCache } from 'lru-cache';
import type { Storage } from '@keel/storage';
import type { InternalObject, ResourceView } from './resource-view.js';

/** Encoded list items and watch events kept per storage, in string length (≈ bytes of JSON). */
const MAX_CHARS = 64 * 1024 * 1024;

/** An object as a member of a list: without kind and apiVersion, as the real server's lists. */
export function listMember<I extends InternalObject>(
  view: ResourceView<I>,
  item: I,
): Record<string, unknown> {
  const { kind: _k, apiVersion: _a, ...rest } = view.encode(item);
  return rest;
}

/**
 * The JSON of list items and watch events, keyed by what makes a stored state unique: its
 * storage key and resourceVersion (one counter orders every write of a storage), and by view and
 * form. Informers relist, controllers page through the same unchanged objects again and again,
 * and every watcher of a view gets the same events; like the real server's caching objects, the
 * encoding is done once per state, view and form, not once per request. One cache per storage,
 * shared by every store on it (one memory bound), so versions of different storages never meet.
 */
export class EncodedItems {
  private readonly cache: LRUCache<string, Entry>;
  /** Entries added so far: an entry's recency in the LRU only matters against entries added after it was last touched. */
  private added = 0;

  constructor(maxChars = MAX_CHARS) {
    this.cache = new LRUCache<string, Entry>({
      maxSize: maxChars,
      sizeCalculation: (entry, key) => entry.value.length + key.length,
      // Evicted, replaced or deleted: forget it in its slot too (unless a newer state took it).
      dispose: (entry) => {
        if (entry.slot.get(entry.storageKey) === entry) entry.slot.delete(entry.storageKey);
      },
    });
  }

  /**
   * The last state cached per view, form and storage key: a look-up by the key a list read from
   * the store hashes only that key, not a key built per item (view, form, version and name). A
   * slot entry lives exactly as long as its LRU entry (dispose above), and is an answer only for
   * its own version; anything else falls back to the LRU's full key.
   */
  private readonly slots = new WeakMap<object, Map<string, Slot>>();
  /**
   * The wire line last encoded from an object. An object is only shared, and so only found here
   * again, while it is one stored state (a watch event's object); it is forgotten with it.
   */
  private readonly lastWire = new WeakMap<
    object,
    { readonly view: object; readonly type: string; readonly wire: Buffer }
  >();

  /** The item's JSON as a list member, as UTF-8 bytes; `load` gives the object only on a miss. */
  listItem<I extends InternalObject>(
    view: ResourceView<I>,
    storageKey: string,
    rv: string,
    load: () => I,
  ): Buffer {
    return this.cached(view, 'item-bytes', storageKey, rv, () =>
      Buffer.from(JSON.stringify(listMember(view, load()))),
    );
  }

  /**
   * The item's list-member bytes if this state is cached, without encoding it otherwise: a list
   * reads the values of the misses only (ListOptions.cached).
   */
  cachedListItem<I extends InternalObject>(
    view: ResourceView<I>,
    storageKey: string,
    rv: string,
  ): Buffer | undefined {
    return this.peek<Buffer>(view, 'item-bytes', storageKey, rv);
  }

  /** cachedListItem for the items of one list: the view's slot is found once, not per item. */
  cachedListItems<I extends InternalObject>(
    view: ResourceView<I>,
  ): (storageKey: string, rv: string) => Buffer | undefined {
    const slot = this.slot(view, 'item-bytes');
    return (storageKey, rv) => this.find<Buffer>(slot, view, 'item-bytes', storageKey, rv);
  }

  /** cachedListItems's counterpart for the protobuf list member. */
  cachedListItemsProto<I extends InternalObject>(
    view: ResourceView<I>,
  ): (storageKey: string, rv: string) => Uint8Array | undefined {
    const slot = this.slot(view, 'pb-item');
    return (storageKey, rv) => this.find<Uint8Array>(slot, view, 'pb-item', storageKey, rv);
  }

  /** cachedListItem's counterpart for the protobuf list member. */
  cachedListItemProto<I extends InternalObject>(
    view: ResourceView<I>,
    storageKey: string,
    rv: string,
  ): Uint8Array | undefined {
    return this.peek<Uint8Array>(view, 'pb-item', storageKey, rv);
  }

  /** The item's protobuf message as a list member (`encode` given the member's JSON object). */
  listItemProto<I extends InternalObject>(
    view: ResourceView<I>,
    storageKey: string,
    rv: string,
    load: () => I,
    encode: (member: Record<string, unknown>) => Uint8Array,
  ): Uint8Array {
    return this.cached(view, 'pb-item', storageKey, rv, () => encode(listMember(view, load())));
  }

  /**
   * A watch event's line as it goes on the wire (UTF-8, with its newline), encoded once for all
   * watchers of the view: every watch writes the same bytes. `storageKey` is asked only on a miss.
   */
  watchEvent<I extends InternalObject>(
    view: ResourceView<I>,
    type: string,
    item: I,
    storageKey: () => string,
  ): Buffer {
    // Watches of one change share its decoded object (WatchOptions.sharedObjects): the last
    // event encoded from it answers them without building the cache key.
    const last = this.lastWire.get(item);
    if (last && last.view === view && last.type === type) return last.wire;
    const rv = item.metadata.resourceVersion ?? '';
    const wire = this.cached(view, `wire-${type}`, storageKey(), rv, () =>
      Buffer.from(`${JSON.stringify({ type, object: view.encode(item) })}\n`),
    );
    this.lastWire.set(item, { view, type, wire });
    return wire;
  }

  /** A watch event's protobuf frame, encoded once for all protobuf watchers of the view. */
  watchFrame<I extends InternalObject>(
    view: ResourceView<I>,
    type: string,
    storageKey: string,
    item: I,
    encode: (type: string, object: Record<string, unknown>) => Buffer,
  ): Buffer {
    const rv = item.metadata.resourceVersion ?? '';
    return this.cached(view, `pb-${type}`, storageKey, rv, () => encode(type, view.encode(item)));
  }

  private cached<I extends InternalObject, T extends string | Uint8Array>(
    view: ResourceView<I>,
    form: string,
    storageKey: string,
    rv: string,
    encode: () => T,
  ): T {
    if (rv === '') return encode();
    // The form is part of the key, so a hit holds what this form's encode returns. The slot and,
    // on a miss, the full key are looked up once, for the look-up and the entry both.
    const slot = this.slot(view, form);
    const latest = slot.get(storageKey);
    if (latest !== undefined && latest.rv === rv) return this.touch(latest).value as T;
    const key = cacheKey(view, form, storageKey, rv);
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit.value as T;
    const value = encode();
    const entry: Entry = { value, rv, storageKey, key, slot, touched: ++this.added };
    this.cache.set(key, entry);
    // In the slot only while the LRU holds it (a value over the whole bound is not stored at all).
    if (this.cache.peek(entry.key) === entry) slot.set(storageKey, entry);
    return value;
  }

  private peek<T extends string | Uint8Array>(
    view: ViewName,
    form: string,
    storageKey: string,
    rv: string,
  ): T | undefined {
    return this.find<T>(this.slots.get(view)?.get(form), view, form, storageKey, rv);
  }

  /** A cached state by its slot (the fast way), else by the full key; never encodes. */
  private find<T extends string | Uint8Array>(
    slot: Slot | undefined,
    view: ViewName,
    form: string,
    storageKey: string,
    rv: string,
  ): T | undefined {
    if (rv === '') return undefined;
    const latest = slot?.get(storageKey);
    if (latest !== undefined && latest.rv === rv) return this.touch(latest).value as T;
    return this.cache.get(cacheKey(view, form, storageKey, rv))?.value as T | undefined;
  }

  /**
   * A slot's entry, which the LRU holds as long as the slot does (dispose above), marked used.
   * Eviction only ever weighs entries against ones added later, so an entry touched since the
   * last addition is not moved again: a list of 10,000 held items, with nothing added since the
   * previous one, costs no LRU update (the order among entries touched since the same addition
   * is then theirs at that addition, not their last use).
   */
  private touch(entry: Entry): Entry {
    if (entry.touched !== this.added) {
      this.cache.get(entry.key);
      entry.touched = this.added;
    }
    return entry;
  }

  private slot(view: ViewName, form: string): Slot {
    let forms = this.slots.get(view);
    if (!forms) {
      forms = new Map();
      this.slots.set(view, forms);
    }
    let slot = forms.get(form);
    if (!slot) {
      slot = new Map();
      forms.set(form, slot);
    }
    return slot;
  }
}

/** One state (storage key and version) in one view and form. */
function cacheKey(view: ViewName, form: string, storageKey: string, rv: string): string {
  return `${view.group}/${view.version}/${view.resource}\0${form}\0${rv}\0${storageKey}`;
}

type ViewName = Pick<ResourceView, 'group' | 'version' | 'resource'>;

/** The last cached state of each storage key, in one view and form. */
type Slot = Map<string, Entry>;

/** One cached encoding, with what finds it again in its slot. */
interface Entry {
  readonly value: string | Uint8Array;
  readonly rv: string;
  readonly storageKey: string;
  /** The LRU's key: view, form, version and storage key. */
  readonly key: string;
  readonly slot: Slot;
  /** `added` when the LRU last moved it to the front. */
  touched: number;
}

const byStorage = new WeakMap<Storage, EncodedItems>();

/** The one cache of a storage. */
export function encodedItemsFor(storage: Storage): EncodedItems {
  let items = byStorage.get(storage);
  if (!items) {
    items = new EncodedItems();
    byStorage.set(storage, items);
  }
  return items;
}
