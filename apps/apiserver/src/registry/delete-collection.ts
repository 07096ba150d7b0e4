import { isNotFound } from '@keel/apimachinery';
import type { UserInfo } from '@keel/auth';
import type { ListResult } from '@keel/storage';
import type { PropagationRequest } from './gc-finalizers.js';
import type { GenericStore, ListQuery, RequestEffects } from './generic-store.js';
import type { InternalObject } from './resource-view.js';

/**
 * Deletes every object the query selects, `workers` at a time (--delete-collection-workers);
 * returns what was deleted or, for objects finalizers keep, marked.
 */
export async function deleteCollection<I extends InternalObject>(
  store: GenericStore<I>,
  namespace: string,
  q: ListQuery,
  opts: {
    dryRun: boolean;
    user: UserInfo;
    effects?: RequestEffects;
    propagation?: PropagationRequest;
    workers: number;
  },
): Promise<ListResult<I>> {
  const listed = await store.list(namespace, q);
  const deleted: I[] = [];
  let next = 0;
  const worker = async () => {
    while (next < listed.items.length) {
      const item = listed.items[next++];
      if (!item) break;
      try {
        const { obj } = await store.delete(
          namespace === '' ? (item.metadata.namespace ?? '') : namespace,
          item.metadata.name ?? '',
          { dryRun: opts.dryRun, user: opts.user, ...opts.effects, ...opts.propagation },
        );
        deleted.push(obj);
      } catch (err) {
        // Gone meanwhile (expired or deleted by someone else): nothing left to do for it.
        if (!isNotFound(err)) throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.workers) }, worker));
  return { ...listed, items: deleted };
}
