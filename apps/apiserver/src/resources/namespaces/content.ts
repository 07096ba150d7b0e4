/**
 * Empties a terminating namespace: every object of every served namespaced resource that can be
 * deleted is deleted through its store (admission included), then counted again. Objects their
 * finalizers keep are waited for; anything else left over is a failure of that resource.
 */
import {
  everythingFieldSelector,
  everythingLabelSelector,
  isMethodNotSupported,
  isNotFound,
} from '@keel/apimachinery';
import type { UserInfo } from '@keel/auth';
import type { GenericStore, ListQuery } from '../../registry/generic-store.js';
import type { InternalObject } from '../../registry/resource-view.js';
import type { ContentTotals } from './conditions.js';

/** The real controller's default wait for content held by finalizers, in seconds. */
export const FINALIZER_ESTIMATE_SECONDS = 15;

type ContentStore = GenericStore<InternalObject>;

function everything(): ListQuery {
  return {
    labelSelector: everythingLabelSelector(),
    fieldSelector: everythingFieldSelector(),
    limit: 0,
    continue: '',
    resourceVersion: '',
    resourceVersionMatch: '',
  };
}

/** How the real controller prints a GroupVersionResource (`/v1, Resource=pods`). */
function gvrString(store: ContentStore): string {
  const v = store.view;
  return `${v.group}/${v.version}, Resource=${v.resource}`;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The stores the namespace controller empties: namespaced resources that take list and delete. */
export function deletableContent(stores: readonly ContentStore[]): ContentStore[] {
  return stores.filter(
    (s) => s.view.namespaced && s.view.verbs.includes('delete') && s.view.verbs.includes('list'),
  );
}

export interface ContentResult extends ContentTotals {
  /** Seconds to wait before the next pass; 0 when nothing is left. */
  readonly estimate: number;
}

/** Deletes `namespace`'s objects in each store and reports what is left. */
export async function deleteAllContent(
  stores: readonly ContentStore[],
  namespace: string,
  user: UserInfo,
): Promise<ContentResult> {
  const remaining = new Map<string, number>();
  const finalizers = new Map<string, number>();
  const errors: string[] = [];
  let estimate = 0;
  for (const store of stores) {
    try {
      const listed = await store.list(namespace, everything());
      for (const item of listed.items) {
        try {
          await store.delete(namespace, item.metadata.name ?? '', { dryRun: false, user });
        } catch (err) {
          if (!isNotFound(err) && !isMethodNotSupported(err)) throw err;
        }
      }
      const left = (await store.list(namespace, everything())).items;
      if (left.length === 0) continue;
      const v = store.view;
      remaining.set(
        `${v.resource}.${v.group}`,
        (remaining.get(`${v.resource}.${v.group}`) ?? 0) + left.length,
      );
      let held = false;
      for (const item of left) {
        for (const f of item.metadata.finalizers ?? []) {
          finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
          held = true;
        }
      }
      if (!held)
        throw new Error(
          `unexpected items still remain in namespace: ${namespace} for gvr: ${gvrString(store)}`,
        );
      estimate = Math.max(estimate, FINALIZER_ESTIMATE_SECONDS);
    } catch (err) {
      errors.push(message(err));
    }
  }
  return { remaining, finalizers, errors, estimate };
}
