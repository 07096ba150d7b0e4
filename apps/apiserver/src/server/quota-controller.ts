/**
 * The resource quota controller, which the reference runs in its controller manager and Keel,
 * having none, runs in the API server: every quota's status.hard follows spec.hard and its
 * status.used is recalculated from the stored objects, when a quota is created or its spec
 * changes, when a counted object is deleted (or a pod finishes), and on a periodic resync. The
 * result depends only on the store and is written with a compare-and-swap only when it differs,
 * so several API servers on one store agree; admission's charges are never lost to it (a charge
 * made meanwhile fails the swap, and the usage is computed again).
 */
import {
  evaluatorFor,
  sameList,
  usageOf,
  type GroupResource,
  type QuotaLike,
  type ResourceList,
} from '@keel/admission';
import type { StoredObject } from '@keel/resource';
import { isStorageError, type Storage, type StoreInformer } from '@keel/storage';

/** The namespaced resources Keel serves whose objects quota counts (core events never are). */
export const COUNTED_RESOURCES: readonly GroupResource[] = [
  { group: '', resource: 'pods' },
  { group: '', resource: 'configmaps' },
  { group: '', resource: 'secrets' },
  { group: '', resource: 'serviceaccounts' },
  { group: '', resource: 'endpoints' },
  { group: '', resource: 'limitranges' },
  { group: '', resource: 'resourcequotas' },
  { group: 'coordination.k8s.io', resource: 'leases' },
  { group: 'rbac.authorization.k8s.io', resource: 'roles' },
  { group: 'rbac.authorization.k8s.io', resource: 'rolebindings' },
  // Counted, but recalculated only periodically: the events are many and short-lived.
  { group: 'events.k8s.io', resource: 'events' },
];

/** The resources whose deletes trigger a recalculation (a watched copy of each is kept). */
const WATCHED = COUNTED_RESOURCES.filter((gr) => gr.group !== 'events.k8s.io');

const QUOTAS = '/resourcequotas';

export interface QuotaControllerOptions {
  /** The informer over a key root (the server's shared ones). */
  readonly informer: (keyRoot: string) => StoreInformer;
  /** Told about a failed pass (retried after `retryDelayMs`). */
  readonly onError?: (err: unknown) => void;
  readonly retryDelayMs?: number;
  /** The full recalculation's period (the reference's --resource-quota-sync-period, 5m). */
  readonly resyncMs?: number;
  readonly now?: () => number;
}

interface Meta {
  metadata?: { namespace?: string; name?: string; deletionTimestamp?: string };
  status?: { phase?: string };
}

/** Recalculates quota usage; one pass at a time, namespaces queued while one runs. */
export class ResourceQuotaController {
  private readonly pending = new Set<string>();
  private everything = false;
  private running: Promise<void> | undefined;
  private started = false;

  constructor(
    private readonly storage: Storage,
    private readonly opts: QuotaControllerOptions,
  ) {
    // Asked for now: the server's informers are all requested before they start.
    for (const gr of WATCHED) opts.informer(`/${gr.resource}`);
  }

  /** Follows changes until `signal` aborts and recalculates everything once now (idempotent). */
  start(signal: AbortSignal): void {
    if (this.started) return;
    this.started = true;
    const stops = WATCHED.map((gr) =>
      this.opts.informer(`/${gr.resource}`).subscribe((change) => {
        if (change.type === 'replaced') return this.queueAll(signal);
        const obj = change.object as Meta;
        const ns = obj.metadata?.namespace ?? '';
        if (ns === '') return;
        if (gr.resource === 'resourcequotas') {
          if (change.type !== 'DELETED' && !statusFollowsSpec(change.object as QuotaLike))
            this.queue(ns, signal);
        } else if (change.type === 'DELETED' || (gr.resource === 'pods' && releasesUsage(obj))) {
          this.queue(ns, signal);
        }
      }),
    );
    const timer = setInterval(() => this.queueAll(signal), this.opts.resyncMs ?? 5 * 60_000);
    timer.unref();
    signal.addEventListener(
      'abort',
      () => {
        clearInterval(timer);
        for (const stop of stops) stop();
      },
      { once: true },
    );
    this.queueAll(signal);
  }

  private queue(namespace: string, signal: AbortSignal): void {
    this.pending.add(namespace);
    this.schedule(signal);
  }

  private queueAll(signal: AbortSignal): void {
    this.everything = true;
    this.schedule(signal);
  }

  private schedule(signal: AbortSignal): void {
    if (signal.aborted || this.running) return;
    this.running = (async () => {
      while (!signal.aborted && (this.everything || this.pending.size > 0)) {
        const all = this.everything;
        const namespaces = [...this.pending];
        this.everything = false;
        this.pending.clear();
        try {
          await this.pass(all ? undefined : namespaces);
        } catch (err) {
          if (signal.aborted) return;
          this.opts.onError?.(err);
          await new Promise((resolve) => setTimeout(resolve, this.opts.retryDelayMs ?? 1000));
          if (all) this.everything = true;
          for (const ns of namespaces) this.pending.add(ns);
        }
      }
    })().finally(() => {
      this.running = undefined;
      if (!signal.aborted && (this.everything || this.pending.size > 0)) this.schedule(signal);
    });
  }

  /** Recalculates the quotas of `namespaces` (every quota when undefined). */
  private async pass(namespaces: readonly string[] | undefined): Promise<void> {
    const prefixes = namespaces === undefined ? [QUOTAS] : namespaces.map((ns) => `${QUOTAS}/${ns}`);
    for (const prefix of prefixes) {
      const { items } = await this.storage.list<QuotaLike>(prefix);
      for (const q of items) await this.sync(q);
    }
  }

  /** syncResourceQuota: writes hard and used when they differ from what the store implies. */
  async sync(quota: QuotaLike): Promise<void> {
    const ns = quota.metadata.namespace ?? '';
    const key = `${QUOTAS}/${ns}/${quota.metadata.name ?? ''}`;
    try {
      await this.storage.guaranteedUpdate<QuotaLike>(key, async (current) => {
        // Without ignoreNotFound the store calls this only with an object (else KeyNotFound).
        const q = current as QuotaLike;
        const hard = q.spec?.hard ?? {};
        const used = await this.usage(q);
        if (sameList(q.status?.hard, hard) && sameList(q.status?.used, used)) return q;
        const next: QuotaLike = { ...q, status: { hard, used } };
        next.metadata = { ...q.metadata };
        delete next.metadata.resourceVersion;
        return next;
      });
    } catch (err) {
      if (isStorageError(err, 'KeyNotFound')) return;
      throw err;
    }
  }

  /** The previous usage, overwritten by what the objects use now, masked to the hard names. */
  private async usage(q: QuotaLike): Promise<ResourceList> {
    const ns = q.metadata.namespace ?? '';
    const hardNames = Object.keys(q.spec?.hard ?? {});
    const used: ResourceList = {};
    for (const k of hardNames) if (q.status?.used?.[k] !== undefined) used[k] = q.status.used[k];
    const now = (this.opts.now ?? Date.now)();
    for (const gr of COUNTED_RESOURCES) {
      if (evaluatorFor(gr).matchingResources(hardNames).length === 0) continue;
      const { items } = await this.storage.list<StoredObject>(`/${gr.resource}/${ns}`);
      Object.assign(used, usageOf(q, gr, items, now));
    }
    return used;
  }
}

function statusFollowsSpec(q: QuotaLike): boolean {
  return sameList(q.status?.hard, q.spec?.hard ?? {}) && q.status?.used !== undefined;
}

/** A pod that turned terminal, or is being deleted, may use less: recalculate its namespace. */
function releasesUsage(pod: Meta): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || pod.metadata?.deletionTimestamp !== undefined;
}
