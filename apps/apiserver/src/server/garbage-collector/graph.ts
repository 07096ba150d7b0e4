/**
 * The garbage collector's dependency graph (kube's GraphBuilder and its uidToNode): every object
 * the collector watches, by UID, with its ownerReferences, and the dependents of every UID that
 * is referenced, observed or not. It decides nothing against the store: each change only says
 * which objects must be looked at again (attemptToDelete) and which owners orphan their
 * dependents (attemptToOrphan); the collector then decides on the stored state.
 */
import type { ObjectMeta } from '@keel/resource';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../../registry/gc-finalizers.js';

export interface OwnerReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
}

/** What the collector keeps of a watched object (kube's metadata-only informers). */
export interface ObservedObject {
  /** The key root of the resource it was watched under (`/configmaps`). */
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly owners: readonly OwnerReference[];
  readonly deletionTimestamp?: string | undefined;
  readonly finalizers: readonly string[];
}

/** Where the graph sends the work its changes imply. */
export interface GraphSink {
  attemptToDelete(uid: string): void;
  attemptToOrphan(uid: string): void;
}

/** An object being deleted that waits for the collector to delete its blocking dependents. */
export const deletingDependents = (o: ObservedObject): boolean =>
  o.deletionTimestamp !== undefined && o.finalizers.includes(FOREGROUND_FINALIZER);

/** An object being deleted that waits for the collector to orphan its dependents. */
export const orphaning = (o: ObservedObject): boolean =>
  o.deletionTimestamp !== undefined && o.finalizers.includes(ORPHAN_FINALIZER);

/** Takes what the graph needs from a stored object's metadata. */
export function observe(resource: string, obj: { metadata?: object }): ObservedObject {
  // Everything under a served key root was written through its store, metadata included.
  const m = (obj.metadata ?? {}) as ObjectMeta;
  return {
    resource,
    namespace: m.namespace ?? '',
    name: m.name ?? '',
    uid: m.uid ?? '',
    owners: (m.ownerReferences ?? []).map((r) => ({
      apiVersion: r.apiVersion ?? '',
      kind: r.kind ?? '',
      name: r.name ?? '',
      uid: r.uid ?? '',
      ...(r.controller !== undefined ? { controller: r.controller } : {}),
      ...(r.blockOwnerDeletion !== undefined ? { blockOwnerDeletion: r.blockOwnerDeletion } : {}),
    })),
    ...(m.deletionTimestamp !== undefined ? { deletionTimestamp: m.deletionTimestamp } : {}),
    finalizers: m.finalizers ?? [],
  };
}

/** Whether the reference from `dependent` finds `owner` where the collector would look it up. */
export const namedBy = (owner: ObservedObject, ref: OwnerReference, dependent: ObservedObject): boolean =>
  owner.name === ref.name && (owner.namespace === '' || owner.namespace === dependent.namespace);

const blocks = (r: OwnerReference | undefined): boolean => r?.blockOwnerDeletion === true;

export class DependencyGraph {
  private readonly nodes = new Map<string, ObservedObject>();
  /** Owner UID → the UIDs of observed objects that reference it. */
  private readonly dependentsOf = new Map<string, Set<string>>();
  /** Key root → the UIDs observed under it (a re-read replaces them). */
  private readonly byResource = new Map<string, Set<string>>();

  constructor(private readonly sink: GraphSink) {}

  node(uid: string): ObservedObject | undefined {
    return this.nodes.get(uid);
  }

  get size(): number {
    return this.nodes.size;
  }

  /** The observed objects that reference `uid`. */
  dependents(uid: string): ObservedObject[] {
    const out: ObservedObject[] = [];
    for (const dep of this.dependentsOf.get(uid) ?? []) {
      const node = this.nodes.get(dep);
      if (node) out.push(node);
    }
    return out;
  }

  /** The dependents whose reference to `uid` blocks its foreground deletion. */
  blockingDependents(uid: string): ObservedObject[] {
    return this.dependents(uid).filter((d) => d.owners.some((r) => r.uid === uid && blocks(r)));
  }

  /** An object was added or changed (kube's processGraphChanges for add and update events). */
  upsert(obj: ObservedObject): void {
    if (obj.uid === '') return;
    const old = this.nodes.get(obj.uid);
    this.nodes.set(obj.uid, obj);
    let uids = this.byResource.get(obj.resource);
    if (!uids) this.byResource.set(obj.resource, (uids = new Set()));
    uids.add(obj.uid);
    const before = new Map((old?.owners ?? []).map((r) => [r.uid, r]));
    const after = new Map(obj.owners.map((r) => [r.uid, r]));
    let check = false;
    for (const [uid, ref] of before) {
      const now = after.get(uid);
      if (!now) this.dependentsOf.get(uid)?.delete(obj.uid);
      // An owner waiting for its blocking dependents may be free once one stops blocking.
      if (blocks(ref) && !blocks(now) && this.isDeletingDependents(uid)) this.sink.attemptToDelete(uid);
    }
    for (const [uid, ref] of after) {
      if (before.has(uid)) continue;
      let deps = this.dependentsOf.get(uid);
      if (!deps) this.dependentsOf.set(uid, (deps = new Set()));
      deps.add(obj.uid);
      // An owner never seen (absent, or not observed yet), one deleting its dependents, or one
      // the reference names otherwise (another name, another namespace): this object must be
      // looked at against the store.
      const owner = this.nodes.get(uid);
      if (!owner || deletingDependents(owner) || !namedBy(owner, ref, obj)) check = true;
    }
    if (check) this.sink.attemptToDelete(obj.uid);
    this.transitions(old, obj);
  }

  /** An object is gone (kube's processGraphChanges for a delete event). */
  remove(uid: string): void {
    const node = this.nodes.get(uid);
    if (!node) return;
    this.nodes.delete(uid);
    this.byResource.get(node.resource)?.delete(uid);
    for (const ref of node.owners) {
      this.dependentsOf.get(ref.uid)?.delete(uid);
      if (this.dependentsOf.get(ref.uid)?.size === 0) this.dependentsOf.delete(ref.uid);
      // An owner deleting its dependents may have been waiting for this one.
      if (this.isDeletingDependents(ref.uid)) this.sink.attemptToDelete(ref.uid);
    }
    for (const dep of this.dependentsOf.get(uid) ?? []) this.sink.attemptToDelete(dep);
  }

  /**
   * A resource was read again from scratch (its watch restarted): what it no longer holds is
   * gone, the rest is added or changed.
   */
  replace(resource: string, objs: Iterable<ObservedObject>): void {
    const seen = new Set<string>();
    const list = [...objs];
    for (const o of list) seen.add(o.uid);
    for (const uid of [...(this.byResource.get(resource) ?? [])]) if (!seen.has(uid)) this.remove(uid);
    for (const o of list) this.upsert(o);
  }

  private isDeletingDependents(uid: string): boolean {
    const node = this.nodes.get(uid);
    return node !== undefined && deletingDependents(node);
  }

  /** kube's processTransitions: an owner starts orphaning, or deleting, its dependents. */
  private transitions(old: ObservedObject | undefined, now: ObservedObject): void {
    if (orphaning(now) && !(old && orphaning(old))) {
      this.sink.attemptToOrphan(now.uid);
      return;
    }
    if (deletingDependents(now) && !(old && deletingDependents(old))) {
      for (const dep of this.dependentsOf.get(now.uid) ?? []) this.sink.attemptToDelete(dep);
      this.sink.attemptToDelete(now.uid);
    }
  }
}
