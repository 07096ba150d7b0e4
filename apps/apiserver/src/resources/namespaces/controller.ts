/**
 * The namespace controller, which the reference runs in its controller manager and Keel, having
 * none, runs in the API server: a namespace being deleted is emptied, its status conditions say
 * how that goes, and once nothing is left the `kubernetes` finalizer comes off through
 * namespaces/finalize, which deletes the namespace. Every step reads the stored state and is safe
 * to repeat, so several API servers on one store may all run it.
 */
import { isNotFound } from '@keel/apimachinery';
import type { UserInfo } from '@keel/auth';
import type { Namespace } from '@keel/coreapi';
import { StoreInformer, type Storage } from '@keel/storage';
import type { GenericStore } from '../../registry/generic-store.js';
import type { InternalObject } from '../../registry/resource-view.js';
import { failingConditions, updateConditions } from './conditions.js';
import { deleteAllContent, deletableContent } from './content.js';

/** The token this controller owns in spec.finalizers. */
export const KUBERNETES_FINALIZER = 'kubernetes';

/** Who the controller's writes are made as (the reference's namespace-controller service account). */
export const NAMESPACE_CONTROLLER_USER: UserInfo = {
  name: 'system:serviceaccount:platform-system:namespace-controller',
  uid: '',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:platform-system', 'system:authenticated'],
  extra: {},
};

const KEY_ROOT = '/namespaces';
const FIRST_RETRY_MS = 200;
const MAX_RETRY_MS = 5_000;

export interface NamespaceControllerDeps {
  readonly storage: Storage;
  /** namespaces/finalize. */
  readonly finalize: GenericStore<Namespace>;
  /** Every served resource's store; the namespaced deletable ones are emptied. */
  readonly stores: () => readonly GenericStore<InternalObject>[];
  /** Told about failed passes, which are retried. */
  readonly onError?: (namespace: string, err: unknown) => void;
  readonly now?: () => Date;
}

function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** What one pass over a namespace decided. */
type Outcome = 'done' | 'again';

export class NamespaceController {
  private readonly informer: StoreInformer<Namespace>;
  private readonly queued = new Set<string>();
  private readonly retryDelay = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private draining = false;
  private signal: AbortSignal | undefined;

  constructor(private readonly deps: NamespaceControllerDeps) {
    this.informer = new StoreInformer<Namespace>(deps.storage, KEY_ROOT, {
      onError: (err) => deps.onError?.('', err),
    });
  }

  /** Follows the namespaces until `signal` aborts; returns at once. */
  start(signal: AbortSignal): void {
    if (this.signal) return;
    this.signal = signal;
    this.informer.subscribe((change) => {
      if (change.type === 'replaced') {
        for (const ns of this.informer.list()) this.offer(ns);
      } else if (change.type !== 'DELETED') {
        this.offer(change.object);
      }
    });
    signal.addEventListener(
      'abort',
      () => {
        for (const t of this.timers.values()) clearTimeout(t);
        this.timers.clear();
      },
      { once: true },
    );
    void this.informer.run(signal);
  }

  private offer(ns: Namespace): void {
    if (ns.metadata.deletionTimestamp) this.enqueue(ns.metadata.name ?? '');
  }

  private enqueue(name: string): void {
    if (this.signal?.aborted) return;
    this.queued.add(name);
    if (!this.draining) void this.drain();
  }

  /** One namespace at a time; a namespace changing during its pass is looked at once more. */
  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queued.size > 0 && !this.signal?.aborted) {
        const [name] = this.queued;
        if (name === undefined) break;
        this.queued.delete(name);
        let outcome: Outcome;
        try {
          outcome = await this.sync(name);
        } catch (err) {
          if (this.signal?.aborted) return;
          this.deps.onError?.(name, err);
          outcome = 'again';
        }
        if (outcome === 'done') this.retryDelay.delete(name);
        else this.retryLater(name);
      }
    } finally {
      this.draining = false;
    }
  }

  private retryLater(name: string): void {
    if (this.timers.has(name)) return;
    const delay = this.retryDelay.get(name) ?? FIRST_RETRY_MS;
    this.retryDelay.set(name, Math.min(delay * 2, MAX_RETRY_MS));
    this.timers.set(
      name,
      setTimeout(() => {
        this.timers.delete(name);
        this.enqueue(name);
      }, delay),
    );
  }

  /** One pass over one namespace, from its stored state (kube's namespacedResourcesDeleter.Delete). */
  async sync(name: string): Promise<Outcome> {
    const { storage } = this.deps;
    const key = `${KEY_ROOT}/${name}`;
    const read = await storage.get<Namespace>(key, { ignoreNotFound: true });
    if (!read?.metadata.deletionTimestamp) return 'done';
    const uid = read.metadata.uid ?? '';
    if ((read.spec?.finalizers?.length ?? 0) === 0) return 'done';

    const content = await deleteAllContent(
      deletableContent(this.deps.stores()),
      name,
      NAMESPACE_CONTROLLER_USER,
    );
    await this.writeConditions(key, uid, failingConditions(content));
    if (content.errors.length > 0 || content.estimate > 0) return 'again';

    try {
      await this.deps.finalize.update(
        '',
        name,
        (current) => {
          if (!current || (current.metadata.uid ?? '') !== uid) throw new Gone();
          const next = structuredClone(current);
          const left = (current.spec?.finalizers ?? []).filter((f) => f !== KUBERNETES_FINALIZER);
          next.spec = { ...(next.spec ?? {}), finalizers: [...new Set(left)].sort() };
          return { obj: next, wire: { spec: { finalizers: next.spec.finalizers } } };
        },
        { dryRun: false, user: NAMESPACE_CONTROLLER_USER, fieldManager: 'namespace-controller' },
      );
    } catch (err) {
      // Finished (or replaced by a namespace of the same name) by someone else: nothing left to do.
      if (err instanceof Gone || isNotFound(err)) return 'done';
      throw err;
    }
    return 'done';
  }

  /** The phase and conditions on the namespace as stored now, written only when they change. */
  private async writeConditions(key: string, uid: string, failing: ReturnType<typeof failingConditions>) {
    const now = rfc3339((this.deps.now ?? (() => new Date()))());
    await this.deps.storage
      .guaranteedUpdate<Namespace>(
        key,
        (current) => {
          if (!current || (current.metadata.uid ?? '') !== uid || !current.metadata.deletionTimestamp)
            throw new Gone();
          const next = structuredClone(current);
          const conditions = [...(next.status?.conditions ?? [])];
          const changed = updateConditions(conditions, failing, now);
          if (!changed && next.status?.phase === 'Terminating') return current;
          next.status = { ...(next.status ?? {}), phase: 'Terminating', conditions };
          delete next.metadata.resourceVersion;
          return next;
        },
        { ignoreNotFound: true },
      )
      .catch((err: unknown) => {
        if (!(err instanceof Gone)) throw err;
      });
  }
}

/** The namespace went away (or was replaced) during a pass. */
class Gone extends Error {
  constructor() {
    super('namespace gone');
  }
}
