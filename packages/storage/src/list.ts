import { decodeContinue, encodeContinue } from './continue.js';
import { tooLargeResourceVersion, tooOldResourceVersion } from './errors.js';
import { keyAfter, keyScope } from './keys.js';
import { parseResourceVersion } from './objects.js';
import { PageReader } from './page-reader.js';
import type { PageResult, StorageBackend } from './backend.js';
import type { ListOptions, ListResult } from './storage.js';

/** Raw pages grow up to this size while a predicate keeps rejecting items. */
const maxFetch = 10_000;
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

function unwrap<I>(page: PageResult<I>, s: Start, scopeKey: string): Extract<PageResult<I>, { kind: 'ok' }> {
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
  const reader = new PageReader(backend, opts);
  const scope = keyScope(prefix, opts.recursive ?? true);
  const s = await resolveStart(backend, scope.key, opts, waitMs);
  if (!scope.recursive) {
    const page = unwrap(
      await reader.read({ prefix: scope.key, start: scope.key, count: 1, atRV: s.atRV }),
      s,
      scope.key,
    );
    const items = page.items.flatMap((r) => (r.key === scope.key && 'item' in r ? [r.item] : []));
    return { items: opts.predicate ? items.filter(opts.predicate) : items, resourceVersion: String(page.rv) };
  }
  const limit = Math.max(0, opts.limit ?? 0);
  const predicate = opts.predicate;
  const items: T[] = [];
  let atRV = s.atRV;
  let cursor = s.start;
  let count = limit > 0 ? limit : reader.nextUnlimited();
  // Raw items passed so far: with the start's offset, where the next page starts in the snapshot.
  let consumed = 0;
  const offsetAt = (n: number) => (s.offset === undefined || predicate ? undefined : s.offset + n);
  for (let round = 1; ; round++) {
    const page = unwrap(
      await reader.read({
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
      const listed = page.items[i]!;
      if ('gone' in listed) continue;
      const obj = listed.item;
      if (!predicate || predicate(obj)) items.push(obj);
      if (limit > 0 && items.length === limit) {
        const unread = page.items.length - 1 - i;
        if (unread === 0 && !page.more) return { items, resourceVersion };
        const continueKey = encodeContinue(
          keyAfter(listed.key),
          scope.key,
          page.rv,
          offsetAt(consumed + i + 1),
        );
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
      limit > 0 ? Math.min(maxFetch, Math.max(count * 2, limit - items.length)) : reader.nextUnlimited();
  }
}
