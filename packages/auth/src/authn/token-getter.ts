/**
 * What service account and bootstrap token authentication read from the store (kube's
 * ServiceAccountTokenGetter): the server that opens the store implements it. Objects are in
 * their stored form; only the fields read here are declared.
 */

export interface LookedUpObject {
  readonly metadata: {
    readonly uid?: string;
    /** RFC 3339; set while finalizers hold a deleted object. */
    readonly deletionTimestamp?: string;
  };
}

export interface LookedUpSecret extends LookedUpObject {
  readonly type?: string;
  /** Values in standard base64, as on the wire. */
  readonly data?: Readonly<Record<string, string>>;
}

/**
 * Reads one object, resolving undefined when it does not exist. A rejection (the store is
 * unreachable) fails the token being checked, never the request with a 500.
 */
export interface ServiceAccountTokenGetter {
  getServiceAccount(namespace: string, name: string): Promise<LookedUpObject | undefined>;
  getSecret(namespace: string, name: string): Promise<LookedUpSecret | undefined>;
  getPod(namespace: string, name: string): Promise<LookedUpObject | undefined>;
  getNode(name: string): Promise<LookedUpObject | undefined>;
}

/** A secret's value for `key` as text ('' when absent), as kube's GetData reads it. */
export function secretData(secret: LookedUpSecret, key: string): string {
  const v = secret.data?.[key];
  return v === undefined ? '' : Buffer.from(v, 'base64').toString('utf8');
}
