/**
 * ResourceQuota (kube's plugin/pkg/admission/resourcequota): a create in a namespace with
 * quotas is charged to every quota that applies, before the object is stored, by writing the
 * quota's status.used with its resourceVersion as precondition; a conflict (another request or
 * API server charged it meanwhile) re-reads the quotas that conflicted and decides again. So
 * concurrent creates never together pass a limit. Within one server, requests of a namespace are
 * decided one at a time (the reference's per-namespace work queue), so conflicts only come from
 * other servers. Usage is released by the quota controller, which recalculates it.
 */
import { StatusError } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import type { AdmissionAttributes } from '../attributes.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionPlugin } from '../plugin.js';
import type { ObjectIndex } from '../registry.js';
import { evaluatorFor, isIgnoredResource } from '../quota/evaluators.js';
import type { QuotaLike } from '../quota/scopes.js';
import { checkRequest, QuotaRefusal } from './resource-quota-check.js';
import type { ResourceQuotaConfig } from './resource-quota-config.js';

export interface ResourceQuotaDeps {
  /** The server's watched copy of the quotas. */
  readonly quotas: ObjectIndex;
  /** One namespace's quotas from the store itself. */
  readonly listLive: (namespace: string) => Promise<StoredObject[]>;
  /**
   * Stores `quota`'s status if the stored quota still has `quota.metadata.resourceVersion`;
   * rejects with a 409 StatusError when it has changed. Resolves the quota as written.
   */
  readonly replaceStatus: (quota: StoredObject) => Promise<StoredObject>;
  readonly config: ResourceQuotaConfig;
  readonly now?: () => number;
}

/** Decisions retried after conflicts before the conflict is the answer (the reference gives 3). */
const RETRIES = 10;
/** How long a live read of a namespace without quotas is trusted, as upstream's liveTTL. */
const LIVE_TTL_MS = 30_000;

const rv = (q: QuotaLike): bigint => {
  try {
    return BigInt(q.metadata.resourceVersion ?? '0');
  } catch {
    return 0n;
  }
};
const keyOf = (q: QuotaLike): string => `${q.metadata.namespace ?? ''}/${q.metadata.name ?? ''}`;

export function resourceQuota(deps: ResourceQuotaDeps): AdmissionPlugin {
  const now = deps.now ?? Date.now;
  /** Quotas this server wrote, newer than the watched copy until the watch catches up. */
  const written = new Map<string, QuotaLike>();
  const queues = new Map<string, Promise<void>>();
  const live = new Map<string, { expiry: number; items: QuotaLike[] }>();

  async function liveQuotas(namespace: string): Promise<QuotaLike[]> {
    let entry = live.get(namespace);
    if (!entry || entry.expiry < now()) {
      entry = {
        expiry: now() + LIVE_TTL_MS,
        items: (await deps.listLive(namespace)) as unknown as QuotaLike[],
      };
      live.set(namespace, entry);
    }
    return entry.items;
  }

  /** The namespace's quotas, each the newer of the watched copy and what this server wrote. */
  async function quotasOf(namespace: string): Promise<QuotaLike[]> {
    let items = deps.quotas.list(namespace) as unknown as QuotaLike[];
    if (items.length === 0) items = await liveQuotas(namespace);
    // Forget what was written to quotas that are gone.
    const present = new Set(items.map(keyOf));
    for (const key of written.keys())
      if (key.startsWith(`${namespace}/`) && !present.has(key)) written.delete(key);
    return items.map((q) => {
      const mine = written.get(keyOf(q));
      if (mine === undefined) return q;
      if (rv(mine) > rv(q)) return mine;
      written.delete(keyOf(q));
      return q;
    });
  }

  /** Runs `work` after every earlier decision of the namespace. */
  function serialized(namespace: string, work: () => Promise<void>): Promise<void> {
    const before = queues.get(namespace) ?? Promise.resolve();
    const mine = before.then(work, work);
    const tail = mine.catch(() => undefined);
    queues.set(namespace, tail);
    void tail.then(() => {
      if (queues.get(namespace) === tail) queues.delete(namespace);
    });
    return mine;
  }

  async function charge(attrs: AdmissionAttributes, obj: StoredObject): Promise<void> {
    const gr = { group: attrs.resource.group, resource: attrs.resource.resource };
    const evaluator = evaluatorFor(gr);
    const limited = deps.config.limitedResources.filter(
      (l) => l.apiGroup === gr.group && l.resource === gr.resource,
    );
    let quotas = await quotasOf(attrs.namespace);
    for (let attempt = 0; ; attempt++) {
      let charges;
      try {
        charges = checkRequest(quotas, evaluator, obj, limited, now());
      } catch (err) {
        if (err instanceof QuotaRefusal) throw admissionForbidden(attrs, err.message);
        throw err;
      }
      if (attrs.dryRun) return;
      const failed = new Set<string>();
      let lastConflict: unknown;
      for (const { quota, used } of charges) {
        try {
          const stored = await deps.replaceStatus({
            ...quota,
            status: { ...quota.status, used },
          } as unknown as StoredObject);
          written.set(keyOf(quota), stored);
        } catch (err) {
          if (!(err instanceof StatusError) || err.code !== 409) throw err;
          failed.add(quota.metadata.name ?? '');
          lastConflict = err;
        }
      }
      if (failed.size === 0) return;
      if (attempt >= RETRIES) throw lastConflict;
      const fresh = (await deps.listLive(attrs.namespace)) as unknown as QuotaLike[];
      quotas = fresh.filter((q) => failed.has(q.metadata.name ?? ''));
      if (quotas.length === 0) return;
    }
  }

  return {
    name: 'ResourceQuota',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async validate(attrs) {
      // Evaluators charge creates only; subresources and cluster-scoped objects are never charged.
      if (attrs.operation !== 'CREATE' || attrs.subresource !== '' || attrs.namespace === '' || !attrs.object)
        return;
      if (isIgnoredResource(attrs.resource)) return;
      const obj = attrs.object;
      const noLimits = deps.config.limitedResources.length === 0;
      if (noLimits && (await quotasOf(attrs.namespace)).length === 0) return;
      await serialized(attrs.namespace, () => charge(attrs, obj));
    },
  };
}
