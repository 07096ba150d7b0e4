/**
 * The store checks of service account tokens (kube's validator and legacyValidator): the account
 * must still exist with the token's uid, and so must the object a bound token is bound to; a
 * legacy token must still be the one in its Secret. Messages are the real server's.
 */
import { timingSafeEqual } from 'node:crypto';
import type { BoundClaims, LegacyClaims } from './service-account-claims.js';
import { secretData, type LookedUpObject, type ServiceAccountTokenGetter } from './token-getter.js';

// An object deleted within the leeway (waiting on finalizers) still counts, as upstream.
const LEEWAY_MS = 60_000;
const INVALIDATED = 'service account token has been invalidated';

function deletedBefore(obj: LookedUpObject, cutoff: number): boolean {
  const ts = obj.metadata.deletionTimestamp;
  return ts !== undefined && Date.parse(ts) < cutoff;
}

/** A store that cannot answer fails the token (upstream: the getter's error), not the request. */
async function read<T>(get: () => Promise<T | undefined>): Promise<T | undefined | { error: string }> {
  try {
    return await get();
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

const isError = (v: unknown): v is { error: string } =>
  typeof v === 'object' && v !== null && 'error' in v && !('metadata' in v);

/** Checks a bound token's account and bound objects; resolves an error message or undefined. */
export async function checkBoundObjects(
  getter: ServiceAccountTokenGetter,
  k: BoundClaims,
  now: Date,
): Promise<string | undefined> {
  const cutoff = now.getTime() - LEEWAY_MS;
  const ns = k.namespace;
  const sa = k.serviceAccount;
  const account = await read(() => getter.getServiceAccount(ns, sa.name));
  if (isError(account)) return account.error;
  if (account === undefined) return `serviceaccount ${JSON.stringify(sa.name)} not found`;
  if (deletedBefore(account, cutoff)) return `service account ${ns}/${sa.name} has been deleted`;
  if ((account.metadata.uid ?? '') !== sa.uid) {
    return `service account UID (${account.metadata.uid ?? ''}) does not match claim (${sa.uid})`;
  }
  if (k.secret) {
    const secret = await read(() => getter.getSecret(ns, k.secret?.name ?? ''));
    if (isError(secret) || secret === undefined || deletedBefore(secret, cutoff)) return INVALIDATED;
    if ((secret.metadata.uid ?? '') !== k.secret.uid) {
      return `secret UID (${secret.metadata.uid ?? ''}) does not match service account secret ref claim (${k.secret.uid})`;
    }
  }
  if (k.pod) {
    const pod = await read(() => getter.getPod(ns, k.pod?.name ?? ''));
    if (isError(pod) || pod === undefined || deletedBefore(pod, cutoff)) return INVALIDATED;
    if ((pod.metadata.uid ?? '') !== k.pod.uid) {
      return `pod UID (${pod.metadata.uid ?? ''}) does not match service account pod ref claim (${k.pod.uid})`;
    }
  }
  // A pod-bound token names its pod's node for information only; a node-bound one needs the node.
  if (k.node && !k.pod) {
    const node = await read(() => getter.getNode(k.node?.name ?? ''));
    if (isError(node) || node === undefined || deletedBefore(node, cutoff)) return INVALIDATED;
    if ((node.metadata.uid ?? '') !== k.node.uid) {
      return `node UID (${node.metadata.uid ?? ''}) does not match service account node ref claim (${k.node.uid})`;
    }
  }
  return undefined;
}

/** With --service-account-lookup: the legacy token's Secret still holds it and the account is the same. */
export async function checkLegacySecret(
  getter: ServiceAccountTokenGetter,
  c: LegacyClaims,
  token: string,
): Promise<string | undefined> {
  const secret = await read(() => getter.getSecret(c.namespace, c.secretName));
  if (isError(secret) || secret === undefined || secret.metadata.deletionTimestamp !== undefined) {
    return 'Token has been invalidated';
  }
  const held = Buffer.from(secretData(secret, 'token'));
  const presented = Buffer.from(token);
  if (held.length !== presented.length || !timingSafeEqual(held, presented)) {
    return "Token does not match server's copy";
  }
  const account = await read(() => getter.getServiceAccount(c.namespace, c.serviceAccountName));
  if (isError(account)) return account.error;
  if (account === undefined) return `serviceaccount ${JSON.stringify(c.serviceAccountName)} not found`;
  if (account.metadata.deletionTimestamp !== undefined) {
    return `ServiceAccount ${c.namespace}/${c.serviceAccountName} has been deleted`;
  }
  if ((account.metadata.uid ?? '') !== c.serviceAccountUID) {
    return `ServiceAccount UID (${account.metadata.uid ?? ''}) does not match claim (${c.serviceAccountUID})`;
  }
  return undefined;
}
