import { decodeContinue, encodeContinue } from './continue.js';
import { tooLargeResourceVersion, tooOldResourceVersion } from './errors.js';
import { keyAfter, keyScope } from './keys.js';
import { decodeRaw, parseResourceVersion } from './objects.js';
import type { PageResult, RawObject, StorageBackend } from './backend.js';
import type { ListOptions, ListResult, StoredObject } from './storage.js';

/** Raw pages grow up to this size while a predicate keeps rejecting items. */
const maxFetch = 10_000;
/**
 * Unlimited lists are read in pages, all at one revision: the first of 1,000 objects, the next
 * sized from the objects seen to about 4 MiB of JSON. Few round trips for small objects (events:
 * about 4,500 a page), yet no single script holds Redis, or one reply its memory, for long
 * however large the objects are.
 */
const unlimitedFirst = 1_000;
const unlimitedPageBytes = 4 * 1024 * 1024;
const unlimitedMax = 10_000;

function unlimitedNext(items: readonly { readonly value: string }[]): number {
  const bytes = items.reduce((n, r) => n + r.value.length, 0);
  const avg = items.length > 0 ? bytes / items.length : 1;
  return Math.max(100, Math.min(unlimitedMax, Math.floor(unlimitedPageBytes / Math.max(avg, 1))));
}
/** After this many fetches a filtered page is returned short, with a continue key. */
const maxRounds = 8;

/** Waits (polling) until the store reaches `rv`; TooLargeResourceVersion after `waitMs`. */
export async function waitForResourceVersion(
  backend: StorageBackend,
  rv: number,
  waitMs: number,
): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const current = await backend.currentRV();
    if (current >= rv) return;
    if (Date.now() >= deadline) throw tooLargeResourceVersion(rv, current);
    await new Promise((r) => setTimeout(r, Math.min(50, Math.max(1, deadline - Date.now()))));
  }
}

interface Start {
  readonly start: string;
  readonly atRV: number | undefined;
  readonly fromContinue: boolean;
  /** Items of the snapshot before `start`, when known. */
  readonly offset: number | undefined;
}

async function resolveStart<T>(
  backend: StorageBackend,
  scopeKey: string,
  opts: ListOptions<T>,
  waitMs: number,
): Promise<Start> {
  if (opts.continueKey) {
    const pos = decodeContinue(opts.continueKey, scopeKey);
    return {
      start: pos.start,
      atRV: pos.rv === -1 ? undefined : pos.rv,
      fromContinue: true,
      offset: pos.rv === -1 ? undefined : pos.offset,
    };
  }
  const rv = parseResourceVersion(opts.resourceVersion);
  if (rv === 0) return { start: scopeKey, atRV: undefined, fromContinue: false, offset: 0 };
  const match = opts.match ?? ((opts.limit ?? 0) > 0 ? 'Exact' : 'NotOlderThan');
  await waitForResourceVersion(backend, rv, waitMs);
  return { start: scopeKey, atRV: match === 'Exact' ? rv : undefined, fromContinue: false, offset: 0 };
}

function unwrap(page: PageResult, s: Start, scopeKey: string): Extract<PageResult, { kind: 'ok' }> {
  if (page.kind === 'ok') return page;
  if (page.kind === 'toolarge') throw tooLargeResourceVersion(s.atRV ?? 0, page.current);
  const requested = s.atRV ?? 0;
  // A stale continue token comes with a fresh one that resumes at the latest revision.
  throw tooOldResourceVersion(
    requested,
    page.compacted + 1,
    s.fromContinue ? { continueKey: encodeContinue(s.start, scopeKey, -1) } : {},
  );
}

/**
 * Serves a list from one revision: the first page fixes the revision and every continued
 * page is read at it, so pages neither repeat nor skip items however the store changes.
 */
export async function listObjects<T>(
  backend: StorageBackend,
  prefix: string,
  opts: ListOptions<T>,
  waitMs: number,
): Promise<ListResult<T>> {
  const custom = opts.decode;
  const decode = custom
    ? (r: RawObject): T => custom(r.key, String(r.modRV), () => decodeRaw<StoredObject>(r))
    : (r: RawObject): T => decodeRaw<T>(r);
  const scope = keyScope(prefix, opts.recursive ?? true);
  const s = await resolveStart(backend, scope.key, opts, waitMs);
  if (!scope.recursive) {
    const page = unwrap(
      await backend.page({ prefix: scope.key, start: scope.key, count: 1, atRV: s.atRV }),
      s,
      scope.key,
    );
    const items = page.items.filter((r) => r.key === scope.key).map(decode);
    return { items: opts.predicate ? items.filter(opts.predicate) : items, resourceVersion: String(page.rv) };
  }
  const limit = Math.max(0, opts.limit ?? 0);
  const predicate = opts.predicate;
  const items: T[] = [];
  let atRV = s.atRV;
  let cursor = s.start;
  let count = limit > 0 ? limit : unlimitedFirst;
  // Raw items passed so far: with the start's offset, where the next page starts in the snapshot.
  let consumed = 0;
  const offsetAt = (n: number) => (s.offset === undefined || predicate ? undefined : s.offset + n);
  for (let round = 1; ; round++) {
    const page = unwrap(
      await backend.page({
        prefix: scope.key,
        start: cursor,
        count,
        atRV,
        ...(offsetAt(consumed) !== undefined ? { offset: offsetAt(consumed) } : {}),
      }),
      { ...s, atRV },
      scope.key,
    );
    atRV = page.rv;
    const resourceVersion = String(page.rv);
    for (let i = 0; i < page.items.length; i++) {
      const raw = page.items[i]!;
      const obj = decode(raw);
      if (!predicate || predicate(obj)) items.push(obj);
      if (limit > 0 && items.length === limit) {
        const unread = page.items.length - 1 - i;
        if (unread === 0 && !page.more) return { items, resourceVersion };
        const continueKey = encodeContinue(keyAfter(raw.key), scope.key, page.rv, offsetAt(consumed + i + 1));
        return predicate
          ? { items, resourceVersion, continueKey }
          : { items, resourceVersion, continueKey, remainingItemCount: page.remaining + unread };
      }
    }
    const last = page.items[page.items.length - 1];
    if (!page.more || !last) return { items, resourceVersion };
    consumed += page.items.length;
    cursor = keyAfter(last.key);
    if (limit > 0 && round >= maxRounds) {
      // Kubernetes allows short (even empty) pages when a selector filters most items.
      return {
        items,
        resourceVersion,
        continueKey: encodeContinue(cursor, scope.key, page.rv, offsetAt(consumed)),
      };
    }
    count =
      limit > 0 ? Math.min(maxFetch, Math.max(count * 2, limit - items.length)) : unlimitedNext(page.items);
  }
}
