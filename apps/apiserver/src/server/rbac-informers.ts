/**
 * The server's watched copies of the four RBAC kinds: what the RBAC authorizer's index and the
 * escalation checks read instead of the store. Started with the server; the start-informers
 * hook waits for their first full read, so /readyz stays red until RBAC can decide.
 */
import { rbac } from '@keel/auth';
import type { Logger } from '@keel/log';
import { StoreInformer, type Storage } from '@keel/storage';

export class RbacInformers {
  readonly sources: rbac.RbacSources;
  private readonly all: readonly { run(s: AbortSignal): Promise<void>; waitForSync(): Promise<void> }[];

  constructor(storage: Storage, logger: Logger) {
    const onError = (err: unknown) => logger.v(2).info('RBAC watch failed; watching again', { err });
    const informer = <T extends object>(root: string) => new StoreInformer<T>(storage, root, { onError });
    const roles = informer<rbac.Role>(rbac.RBAC_KEY_ROOTS.roles);
    const roleBindings = informer<rbac.RoleBinding>(rbac.RBAC_KEY_ROOTS.rolebindings);
    const clusterRoles = informer<rbac.ClusterRole>(rbac.RBAC_KEY_ROOTS.clusterroles);
    const clusterRoleBindings = informer<rbac.RoleBinding>(rbac.RBAC_KEY_ROOTS.clusterrolebindings);
    this.sources = { roles, roleBindings, clusterRoles, clusterRoleBindings };
    this.all = [roles, roleBindings, clusterRoles, clusterRoleBindings];
  }

  /** Watches until `signal` aborts. */
  run(signal: AbortSignal): void {
    for (const i of this.all) void i.run(signal);
  }

  async waitForSync(): Promise<void> {
    await Promise.all(this.all.map((i) => i.waitForSync()));
  }
}
