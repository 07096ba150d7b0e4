/**
 * The `rbac/bootstrap-roles` step: every default role and binding is created when missing and
 * reconciled when present (union only; autoupdate "false" left alone), as the reference's
 * EnsureRBACPolicy. Each object is written through a read-compute-write loop on its key, so API
 * servers starting together on one store converge instead of failing on each other's writes.
 */
import { newUid } from '@keel/apimachinery';
import { rbac } from '@keel/auth';
import { isStorageError, type Storage } from '@keel/storage';

const { RBAC_KEY_ROOTS } = rbac;

/** Each try reads the object again; a few are plenty unless something rewrites it constantly. */
const MAX_ATTEMPTS = 10;

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function withNewIdentity<T extends { metadata: object }>(obj: T): T {
  return { ...obj, metadata: { ...obj.metadata, uid: newUid(), creationTimestamp: now() } };
}

type Reconcile<T> = (existing: T | undefined, expected: T) => rbac.Reconciled<T>;

/** Thrown out of an update to leave the store untouched and replace the object instead. */
class RecreateNeeded extends Error {
  constructor(readonly uid: string) {
    super('roleRef differs: delete and create');
  }
}

function retryable(err: unknown): boolean {
  return (
    isStorageError(err, 'Conflict') || isStorageError(err, 'KeyExists') || isStorageError(err, 'KeyNotFound')
  );
}

async function reconcileAt<T extends { metadata: rbac.ObjectMetaLike }>(
  storage: Storage,
  key: string,
  expected: T,
  reconcile: Reconcile<T>,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await storage.guaranteedUpdate<T>(
        key,
        (current) => {
          const out = reconcile(current, expected);
          switch (out.op) {
            case 'none':
              // Only a present object reconciles to nothing; returning it unchanged writes nothing.
              return current as T;
            case 'create':
              return withNewIdentity(out.object);
            case 'update':
              return out.object;
            case 'recreate':
              throw new RecreateNeeded(String(current?.metadata.uid ?? ''));
          }
        },
        { ignoreNotFound: true },
      );
      return;
    } catch (err) {
      if (err instanceof RecreateNeeded) {
        try {
          // Watchers see the old binding go and the default one come, as with the reference.
          await storage.delete(key, { precondition: { uid: err.uid } });
          await storage.create(key, withNewIdentity(expected));
          return;
        } catch (inner) {
          if (!retryable(inner) || attempt >= MAX_ATTEMPTS) throw inner;
          continue;
        }
      }
      if (!retryable(err) || attempt >= MAX_ATTEMPTS) throw err;
    }
  }
}

const clusterKey = (root: string, o: { metadata: rbac.ObjectMetaLike }) => `${root}/${o.metadata.name ?? ''}`;
const namespacedKey = (root: string, o: { metadata: rbac.ObjectMetaLike }) =>
  `${root}/${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/** Reconciles every default object with the store; rejects with the first failure. */
export async function reconcileDefaultPolicy(storage: Storage): Promise<void> {
  const policy = rbac.bootstrapPolicy();
  // Roles before bindings, so a binding never names a role that is not there yet.
  for (const role of policy.clusterRoles) {
    await reconcileAt(storage, clusterKey(RBAC_KEY_ROOTS.clusterroles, role), role, rbac.reconcileRole);
  }
  for (const binding of policy.clusterRoleBindings) {
    await reconcileAt(
      storage,
      clusterKey(RBAC_KEY_ROOTS.clusterrolebindings, binding),
      binding,
      rbac.reconcileBinding,
    );
  }
  for (const role of policy.roles) {
    await reconcileAt(storage, namespacedKey(RBAC_KEY_ROOTS.roles, role), role, rbac.reconcileRole);
  }
  for (const binding of policy.roleBindings) {
    await reconcileAt(
      storage,
      namespacedKey(RBAC_KEY_ROOTS.rolebindings, binding),
      binding,
      rbac.reconcileBinding,
    );
  }
}
