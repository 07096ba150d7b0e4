import { decodeRaw } from './objects.js';
import type { KeyVersion, PageRequest, PageResult, RawObject, StorageBackend } from './backend.js';
import type { ListOptions, StoredObject } from './storage.js';

/**
 * One listed item: its key (for continue positions) and what the caller made of it; `gone` for
 * an item whose state vanished without a trace before its value was read (see ValuesRead),
 * which takes its place in the page without being listed.
 */
export type Listed<T> =
  { readonly key: string; readonly item: T } | { readonly key: string; readonly gone: true };

/**
 * Unlimited lists are read in pages, all at one revision: the first of 1,000 objects, the next
 * sized from the values read so far to about 4 MiB of them. Few round trips for small objects
 * (events: about 4,500 a page), yet no single script holds Redis, or one reply its memory, for
 * long however large the objects are. Values fetched for a keys-only page go in batches of the
 * same size.
 */
const unlimitedFirst = 1_000;
const unlimitedPageBytes = 4 * 1024 * 1024;
const unlimitedMax = 10_000;

/** What makes a listed item of a stored state: the caller's `cached`, else `decode`, else the plain decode. */
export function itemMaker<T>(opts: ListOptions<T>): (raw: RawObject) => T {
  const { cached, decode: custom } = opts;
  const decode = custom
    ? (r: RawObject): T => custom(r.key, String(r.modRV), () => decodeRaw<StoredObject>(r))
    : (r: RawObject): T => decodeRaw<T>(r);
  if (!cached) return decode;
  return (r) => cached(r.key, String(r.modRV)) ?? decode(r);
}

/**
 * Reads the pages of one list and makes their items. When the caller holds items by key and
 * version (`ListOptions.cached`) and the backend can read a page without its values, a page is
 * read as keys and versions first, and only the values of the items the caller lacks are
 * fetched (`readValues`, at the page's revision, so the page stays one snapshot even when those
 * objects were updated or deleted in between). A page where most items were missing (a cold
 * cache) makes the next one a plain read, which needs one round trip instead of two.
 */
export class PageReader<T> {
  private readonly make: (raw: RawObject) => T;
  private sparse: boolean;
  /** Values read so far, for the sizes of unlimited pages and value batches. */
  private bytes = 0;
  private values = 0;

  constructor(
    private readonly backend: StorageBackend,
    private readonly opts: ListOptions<T>,
  ) {
    this.make = itemMaker(opts);
    this.sparse = opts.cached !== undefined && !!backend.pageKeys && !!backend.readValues;
  }

  /**
   * The size of the next (or first) page of an unlimited list: keys-only pages are small whatever
   * the objects' size, so they take the most at once until values show what a page would hold.
   */
  nextUnlimited(): number {
    return this.values === 0 && this.sparse ? unlimitedMax : this.valueBatch();
  }

  /** How many values to read at once: about 4 MiB by the sizes seen so far. */
  private valueBatch(): number {
    if (this.values === 0) return unlimitedFirst;
    const avg = Math.max(this.bytes / this.values, 1);
    return Math.max(100, Math.min(unlimitedMax, Math.floor(unlimitedPageBytes / avg)));
  }

  async read(req: PageRequest): Promise<PageResult<Listed<T>>> {
    return this.sparse ? this.readSparse(req) : this.readFull(req);
  }

  private async readFull(req: PageRequest): Promise<PageResult<Listed<T>>> {
    const page = await this.backend.page(req);
    if (page.kind !== 'ok') return page;
    const cached = this.opts.cached;
    let hits = 0;
    const items = page.items.map((raw): Listed<T> => {
      this.bytes += raw.value.length;
      this.values++;
      const hit = cached?.(raw.key, String(raw.modRV));
      if (hit !== undefined) hits++;
      return { key: raw.key, item: hit ?? this.make(raw) };
    });
    if (cached && this.backend.pageKeys && items.length > 0) this.sparse = hits * 2 >= items.length;
    return { ...page, items };
  }

  private async readSparse(req: PageRequest): Promise<PageResult<Listed<T>>> {
    const page = await this.backend.pageKeys!(req);
    if (page.kind !== 'ok') return page;
    const cached = this.opts.cached!;
    const items = new Array<Listed<T>>(page.items.length);
    const misses: KeyVersion[] = [];
    const missAt: number[] = [];
    page.items.forEach((kv, i) => {
      const hit = cached(kv.key, String(kv.modRV));
      if (hit === undefined) {
        misses.push(kv);
        missAt.push(i);
      } else items[i] = { key: kv.key, item: hit };
    });
    for (let from = 0; from < misses.length;) {
      const batch = misses.slice(from, from + this.valueBatch());
      const read = await this.backend.readValues!(page.rv, batch);
      // The log no longer reaches back to the page's revision: read the page again in one go,
      // at the request's revision (a fresh one for a first page; else it is Expired as well).
      if (read.kind === 'expired') return this.readFull(req);
      read.items.forEach((raw, j) => {
        const at = missAt[from + j]!;
        if (!raw) {
          items[at] = { key: batch[j]!.key, gone: true };
          return;
        }
        this.bytes += raw.value.length;
        this.values++;
        items[at] = { key: raw.key, item: this.make(raw) };
      });
      from += batch.length;
    }
    if (page.items.length > 0) this.sparse = (page.items.length - misses.length) * 2 >= page.items.length;
    return { ...page, items };
  }
}
