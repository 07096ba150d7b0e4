/**
 * The garbage collector, which the reference runs in its controller manager and Keel, having
 * none, runs in the API server (kube's pkg/controller/garbagecollector): it watches the metadata
 * of every resource that can be listed, watched and deleted (Events aside, as upstream ignores
 * them), keeps the dependency graph, and
 * - deletes an object once none of its owners exists any more (an owner whose UID differs from
 *   the reference's counts as absent), with the UID as precondition;
 * - takes references to owners that are gone, or are deleting their dependents, off objects
 *   that still have a live owner;
 * - for an owner deleted in the foreground (`foregroundDeletion`), deletes its dependents and
 *   takes the finalizer off once no dependent blocks it (blockOwnerDeletion);
 * - for an owner deleted with `orphan`, takes its references off its dependents, then the finalizer.
 *
 * Every action reads the stored state first and writes with a precondition (the UID for deletes,
 * a compare-and-swap for updates), so several API servers on one store may all run it: the
 * server that loses a race finds the work done (NotFound, or nothing left to change).
 */
import { isConflict, isNotFound, notFound } from '@keel/apimachinery';
import type { UserInfo } from '@keel/auth';
import { StoreInformer, type Storage } from '@keel/storage';
import type { GenericStore } from '../../registry/generic-store.js';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../../registry/gc-finalizers.js';
import { apiVersionOf, type InternalObject } from '../../registry/resource-view.js';
import {
  DependencyGraph,
  deletingDependents,
  namedBy,
  observe,
  type ObservedObject,
  type OwnerReference,
} from './graph.js';
import { WorkQueue, type WorkResult } from './work-queue.js';

/** Who the collector's writes are made as (the reference's generic-garbage-collector account). */
export const GARBAGE_COLLECTOR_USER: UserInfo = {
  name: 'system:serviceaccount:platform-system:generic-garbage-collector',
  uid: '',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:platform-system', 'system:authenticated'],
  extra: {},
};
const FIELD_MANAGER = 'generic-garbage-collector';

type Store = GenericStore<InternalObject>;

export interface GarbageCollectorDeps {
  readonly storage: Storage;
  /** Every served resource's store (the dispatcher's). */
  readonly stores: () => readonly Store[];
  /** Told about failed actions and watches (all retried). */
  readonly onError?: (what: string, err: unknown) => void;
  /** Objects handled at once (the reference's --concurrent-gc-syncs, 20). */
  readonly workers?: number;
}

/** upstream's DefaultIgnoredResources: Events are never owners or dependents it looks at. */
const ignored = (s: Store) => s.view.resource === 'events';

/** What classifyReferences found for each of an object's owners. */
interface Classified {
  readonly solid: OwnerReference[];
  readonly dangling: OwnerReference[];
  readonly waiting: OwnerReference[];
}

export class GarbageCollector {
  readonly graph: DependencyGraph;
  private readonly deletes: WorkQueue;
  private readonly orphans: WorkQueue;
  private readonly informers: StoreInformer<ObservedObject>[] = [];
  private readonly byKeyRoot = new Map<string, Store>();
  private readonly byKind = new Map<string, Store>();
  private started = false;

  constructor(private readonly deps: GarbageCollectorDeps) {
    this.graph = new DependencyGraph({
      attemptToDelete: (uid) => this.deletes.add(uid),
      attemptToOrphan: (uid) => this.orphans.add(uid),
    });
    const workers = deps.workers ?? 20;
    const onError = (what: string) => (uid: string, err: unknown) => deps.onError?.(`${what} ${uid}`, err);
    this.deletes = new WorkQueue((uid) => this.attemptToDelete(uid), {
      workers,
      onError: onError('attemptToDelete'),
    });
    this.orphans = new WorkQueue((uid) => this.attemptToOrphan(uid), {
      workers,
      onError: onError('attemptToOrphan'),
    });
  }

  /**
   * Watches every deletable resource until `signal` aborts; resolves once all have been read
   * (the graph holds the store's state), when the workers start. Calling it again only waits.
   */
  async start(signal: AbortSignal): Promise<void> {
    if (!this.started) {
      this.started = true;
      this.watchAll(signal);
    }
    const aborted = new Promise<never>((_, reject) => {
      const stop = () => reject(new Error('stopped before the garbage collector synced'));
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
    await Promise.race([Promise.all(this.informers.map((i) => i.waitForSync())), aborted]);
    this.deletes.start(signal);
    this.orphans.start(signal);
  }

  private watchAll(signal: AbortSignal): void {
    for (const store of this.deps.stores()) {
      const v = store.view;
      if (v.verbs.includes('get')) {
        const kind = `${apiVersionOf(v)}/${v.kind}`;
        if (!this.byKind.has(kind)) this.byKind.set(kind, store);
      }
      const deletable = ['list', 'watch', 'delete'].every((verb) => v.verbs.includes(verb));
      if (!deletable || ignored(store) || this.byKeyRoot.has(store.keyRootPath)) continue;
      this.byKeyRoot.set(store.keyRootPath, store);
    }
    for (const keyRoot of this.byKeyRoot.keys()) {
      const informer = new StoreInformer<ObservedObject>(this.deps.storage, keyRoot, {
        project: (obj) => observe(keyRoot, obj),
        // observe copies the metadata it keeps (the finalizers' array is only read).
        readOnly: true,
        onError: (err) => this.deps.onError?.(`watching ${keyRoot}`, err),
      });
      informer.subscribe((change) => {
        if (change.type === 'replaced') this.graph.replace(keyRoot, informer.list());
        else if (change.type === 'DELETED') this.graph.remove(change.object.uid);
        else this.graph.upsert(change.object);
      });
      this.informers.push(informer);
      void informer.run(signal);
    }
  }

  /**
   * Nothing to look up: not waiting for its dependents, and every owner is one the graph holds,
   * where and as the reference names it, and not deleting its dependents. The graph may lag, but
   * then the owner's deletion, when it is seen, brings this object back. (Saves the reads for the
   * many objects queued while the watches fill the graph at start.)
   */
  private ownedAsSeen(node: ObservedObject): boolean {
    if (node.deletionTimestamp !== undefined) return false;
    return node.owners.every((ref) => {
      const owner = this.graph.node(ref.uid);
      const store = this.byKind.get(`${ref.apiVersion}/${ref.kind}`);
      return (
        owner !== undefined &&
        store?.keyRootPath === owner.resource &&
        namedBy(owner, ref, node) &&
        !deletingDependents(owner)
      );
    });
  }

  /** The stored object the node stands for; undefined when it is gone or was replaced. */
  private async latest(node: ObservedObject): Promise<ObservedObject | undefined> {
    const store = this.byKeyRoot.get(node.resource);
    if (!store) return undefined;
    try {
      const obj = await store.get(node.namespace, node.name);
      return obj.metadata.uid === node.uid ? observe(node.resource, obj) : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** kube's attemptToDeleteItem, deciding on the stored state of the object and its owners. */
  private async attemptToDelete(uid: string): Promise<WorkResult> {
    const node = this.graph.node(uid);
    if (!node || this.ownedAsSeen(node)) return 'done';
    const latest = await this.latest(node);
    if (!latest) return 'done';
    if (deletingDependents(latest)) return this.processDeletingDependents(latest);
    // Being deleted otherwise: a one-way trip; its dependents are looked at once it is gone.
    if (latest.deletionTimestamp !== undefined) return 'done';
    if (latest.owners.length === 0) return 'done';
    const classified = await this.classify(latest);
    if (!classified) return 'done';
    const { solid, dangling, waiting } = classified;
    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return 'done';
      // References to owners that are gone, or that wait for their dependents, go; the live
      // owners keep the object.
      const drop = new Set([...dangling, ...waiting].map((r) => r.uid));
      await this.updateMeta(latest, (meta) => {
        meta.ownerReferences = (meta.ownerReferences ?? []).filter((r) => !drop.has(r.uid ?? ''));
      });
      return 'done';
    }
    if (waiting.length > 0 && this.graph.dependents(uid).length > 0) {
      // Its owner waits for it, and it has dependents of its own: it goes in the foreground too.
      // A dependent that also deletes in the foreground may wait for it in turn (a cycle):
      // it stops blocking its owners first.
      if (this.graph.dependents(uid).some(deletingDependents)) {
        await this.updateMeta(latest, (meta) => {
          meta.ownerReferences = (meta.ownerReferences ?? []).map((r) =>
            r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r,
          );
        });
      }
      return this.deleteObject(latest, 'Foreground');
    }
    // No owner left: it goes, honouring a finalizer it already has.
    const policy = latest.finalizers.includes(ORPHAN_FINALIZER)
      ? 'Orphan'
      : latest.finalizers.includes(FOREGROUND_FINALIZER)
        ? 'Foreground'
        : 'Background';
    return this.deleteObject(latest, policy);
  }

  /**
   * kube's classifyReferences over isDangling: an owner is looked up where the reference puts
   * it (in the dependent's namespace when its kind is namespaced); missing, or there with
   * another UID, it is dangling. Undefined when the references cannot be judged: a kind Keel
   * does not serve, or a cluster-scoped object naming a namespaced owner (never collected).
   */
  private async classify(dependent: ObservedObject): Promise<Classified | undefined> {
    const out: Classified = { solid: [], dangling: [], waiting: [] };
    for (const ref of dependent.owners) {
      const store = this.byKind.get(`${ref.apiVersion}/${ref.kind}`);
      if (!store) {
        this.deps.onError?.(
          `attemptToDelete ${dependent.uid}`,
          new Error(`unable to resolve owner ${ref.apiVersion}, Kind=${ref.kind}`),
        );
        return undefined;
      }
      const namespaced = store.view.namespaced;
      if (namespaced && dependent.namespace === '') return undefined;
      let owner: InternalObject | undefined;
      try {
        owner = await store.get(namespaced ? dependent.namespace : '', ref.name);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      if (!owner || owner.metadata.uid !== ref.uid) out.dangling.push(ref);
      else if (deletingDependents(observe('', owner))) out.waiting.push(ref);
      else out.solid.push(ref);
    }
    return out;
  }

  /** kube's processDeletingDependentsItem: the finalizer goes once no dependent blocks. */
  private async processDeletingDependents(owner: ObservedObject): Promise<WorkResult> {
    const blocking = this.graph.blockingDependents(owner.uid);
    if (blocking.length === 0) {
      await this.removeFinalizer(owner, FOREGROUND_FINALIZER);
      return 'done';
    }
    // Each is deleted in turn; its deletion brings the owner back here.
    for (const dep of blocking) if (!deletingDependents(dep)) this.deletes.add(dep.uid);
    return 'done';
  }

  /** kube's attemptToOrphanWorker: references off every dependent, then the finalizer. */
  private async attemptToOrphan(uid: string): Promise<WorkResult> {
    const node = this.graph.node(uid);
    if (!node) return 'done';
    for (const dep of this.graph.dependents(uid)) {
      await this.updateMeta(dep, (meta) => {
        meta.ownerReferences = (meta.ownerReferences ?? []).filter((r) => r.uid !== uid);
      });
    }
    await this.removeFinalizer(node, ORPHAN_FINALIZER);
    return 'done';
  }

  private removeFinalizer(node: ObservedObject, finalizer: string): Promise<void> {
    return this.updateMeta(node, (meta) => {
      const left = (meta.finalizers ?? []).filter((f) => f !== finalizer);
      if (left.length > 0) meta.finalizers = left;
      else delete meta.finalizers;
    });
  }

  /**
   * Changes the object's metadata through its store (admission and validation included) as a
   * compare-and-swap on the state read; nothing is written when nothing changes, and an object
   * that is gone, or was replaced by another with its name, is left alone.
   */
  private async updateMeta(
    node: ObservedObject,
    change: (meta: InternalObject['metadata']) => void,
  ): Promise<void> {
    const store = this.byKeyRoot.get(node.resource);
    if (!store?.view.verbs.includes('update')) return;
    const gone = () => notFound({ group: store.view.group, resource: store.view.resource }, node.name);
    try {
      await store.update(
        node.namespace,
        node.name,
        (current) => {
          if (!current || current.metadata.uid !== node.uid) throw gone();
          const obj = structuredClone(current);
          change(obj.metadata);
          if (obj.metadata.ownerReferences?.length === 0) delete obj.metadata.ownerReferences;
          return { obj, wire: store.view.encode(obj) };
        },
        { dryRun: false, user: GARBAGE_COLLECTOR_USER, fieldManager: FIELD_MANAGER },
      );
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** Deletes with the UID as precondition: a new object with the same name is never touched. */
  private async deleteObject(
    node: ObservedObject,
    propagationPolicy: 'Orphan' | 'Foreground' | 'Background',
  ): Promise<WorkResult> {
    const store = this.byKeyRoot.get(node.resource);
    if (!store) return 'done';
    try {
      await store.delete(node.namespace, node.name, {
        dryRun: false,
        user: GARBAGE_COLLECTOR_USER,
        preconditions: { uid: node.uid },
        propagationPolicy,
      });
    } catch (err) {
      // Gone already, or replaced: another server (or the owner's own delete) got there first.
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
    return 'done';
  }
}
