import type { LookedUpObject, LookedUpSecret, ServiceAccountTokenGetter } from '@keel/auth';
import type { Storage } from '@keel/storage';

/** The key roots the installers store these kinds under. */
export const keyRoots = {
  serviceAccounts: '/serviceaccounts',
  secrets: '/secrets',
  pods: '/pods',
  nodes: '/nodes',
} as const;

/**
 * The store lookups of token authentication (and of TokenRequest's bound objects). The
 * authenticator is built while the configuration completes, before the store is open, so the
 * storage is attached afterwards; until then every lookup fails (the token is refused).
 */
export class StoreTokenGetter implements ServiceAccountTokenGetter {
  private storage: Storage | undefined;

  attach(storage: Storage): void {
    this.storage = storage;
  }

  private get<T extends object>(key: string): Promise<T | undefined> {
    if (!this.storage) return Promise.reject(new Error('the store is not open yet'));
    return this.storage.get<T>(key, { ignoreNotFound: true });
  }

  getServiceAccount(namespace: string, name: string): Promise<LookedUpObject | undefined> {
    return this.get(`${keyRoots.serviceAccounts}/${namespace}/${name}`);
  }

  getSecret(namespace: string, name: string): Promise<LookedUpSecret | undefined> {
    return this.get(`${keyRoots.secrets}/${namespace}/${name}`);
  }

  getPod(namespace: string, name: string): Promise<LookedUpObject | undefined> {
    return this.get(`${keyRoots.pods}/${namespace}/${name}`);
  }

  getNode(name: string): Promise<LookedUpObject | undefined> {
    return this.get(`${keyRoots.nodes}/${name}`);
  }
}
