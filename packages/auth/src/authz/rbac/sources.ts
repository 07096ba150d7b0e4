import type { ClusterRole, Role, RoleBinding } from './types.js';

/**
 * One kind's in-memory copy, kept current by a watch (the shape of @keel/storage's
 * StoreInformer, which the API server passes; auth does not depend on storage).
 */
export interface RbacSource<T> {
  list(): Iterable<T>;
  hasSynced(): boolean;
  /** Resolves once the first full read has been taken in. */
  waitForSync(): Promise<void>;
  /** Called after each change (or full re-read); returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

export interface RbacSources {
  readonly roles: RbacSource<Role>;
  readonly roleBindings: RbacSource<RoleBinding>;
  readonly clusterRoles: RbacSource<ClusterRole>;
  readonly clusterRoleBindings: RbacSource<RoleBinding>;
}
