/**
 * ServiceAccount (kube's plugin/pkg/admission/serviceaccount), on pod creation: the pod runs as
 * `default` unless it names an account, the account must exist, its token is mounted unless the
 * pod (first) or the account says automountServiceAccountToken: false, its imagePullSecrets are
 * copied to a pod that has none, and an account annotated `kubernetes.io/enforce-mountable-secrets:
 * "true"` limits the secrets the pod may use. Mirror pods (static pods a kubelet reports) are never
 * changed and may reference no account, secret or token projection.
 */
import { notFound, type StatusError } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import type { AdmissionAttributes } from '../attributes.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionPlugin } from '../plugin.js';
import type { ObjectLookup } from '../registry.js';
import { arr, obj, str, strings, type Json } from './json.js';
import { podSecretNames, unmountableSecret } from './pod-secrets.js';
import { mountTokenVolume } from './token-volume.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const ENFORCE_MOUNTABLE_SECRETS = 'kubernetes.io/enforce-mountable-secrets';

export interface ServiceAccountDeps {
  /** The served ServiceAccounts (a watched copy). */
  readonly serviceAccounts: ObjectLookup;
  /** Reads one account from the store, for one the copy has not seen yet. */
  readonly readServiceAccount: (namespace: string, name: string) => Promise<StoredObject | undefined>;
  /** Waits between store reads for `default`, which the server creates just after its namespace. */
  readonly retryDelayMs?: number;
  /** The token volume name's random suffix (tests fix it). */
  readonly random?: (length: number) => string;
}

/** Reads of `default` before giving up: the in-server controller creates it moments after the namespace. */
const DEFAULT_ACCOUNT_ATTEMPTS = 10;

async function lookUp(deps: ServiceAccountDeps, namespace: string, name: string): Promise<Json> {
  const cached = deps.serviceAccounts.get(namespace, name);
  const hit = obj(cached);
  if (hit) return hit;
  const attempts = name === DEFAULT_SERVICE_ACCOUNT ? DEFAULT_ACCOUNT_ATTEMPTS : 1;
  // As upstream: 100–200 ms, chosen once per lookup.
  const delay = deps.retryDelayMs ?? 100 + Math.random() * 100;
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const stored =
      deps.serviceAccounts.get(namespace, name) ?? (await deps.readServiceAccount(namespace, name));
    const found = obj(stored);
    if (found) return found;
  }
  throw notFound({ group: '', resource: 'serviceaccount' }, name);
}

async function account(attrs: AdmissionAttributes, deps: ServiceAccountDeps, name: string): Promise<Json> {
  try {
    return await lookUp(deps, attrs.namespace, name);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw admissionForbidden(attrs, `error looking up service account ${attrs.namespace}/${name}: ${why}`);
  }
}

function shouldAutomount(sa: Json, spec: Json): boolean {
  const fromPod = spec['automountServiceAccountToken'];
  if (typeof fromPod === 'boolean') return fromPod;
  const fromAccount = sa['automountServiceAccountToken'];
  return typeof fromAccount === 'boolean' ? fromAccount : true;
}

/** Go's strconv.ParseBool. */
function enforcesMountableSecrets(sa: Json): boolean {
  const value = strings(obj(sa['metadata'])?.['annotations'])[ENFORCE_MOUNTABLE_SECRETS];
  return value !== undefined && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value);
}

function mirrorPodRefusal(attrs: AdmissionAttributes, spec: Json): StatusError | undefined {
  if (str(spec['serviceAccountName']) !== '')
    return admissionForbidden(attrs, 'a mirror pod may not reference service accounts');
  if (podSecretNames(spec).length > 0)
    return admissionForbidden(attrs, 'a mirror pod may not reference secrets');
  const projections = arr(spec['volumes']).flatMap((v) => arr(obj(v['projected'])?.['sources']));
  if (projections.some((p) => p['serviceAccountToken'] !== undefined))
    return admissionForbidden(attrs, 'a mirror pod may not use ServiceAccountToken volume projections');
  return undefined;
}

interface PodParts {
  readonly spec: Json;
  readonly mirror: boolean;
}

function podParts(attrs: AdmissionAttributes): PodParts | undefined {
  if (attrs.resource.group !== '' || attrs.resource.resource !== 'pods' || attrs.subresource !== '')
    return undefined;
  const pod = obj(attrs.object);
  if (!pod) return undefined;
  const spec = obj(pod['spec']) ?? (pod['spec'] = {});
  const mirror = MIRROR_POD_ANNOTATION in strings(obj(pod['metadata'])?.['annotations']);
  return { spec, mirror };
}

/** The checks both phases make (kube's Validate; Admit ends with it too). */
async function validatePod(
  attrs: AdmissionAttributes,
  deps: ServiceAccountDeps,
  parts: PodParts,
): Promise<void> {
  const { spec, mirror } = parts;
  if (mirror) {
    const refusal = mirrorPodRefusal(attrs, spec);
    if (refusal) throw refusal;
    return;
  }
  const sa = await account(attrs, deps, str(spec['serviceAccountName']));
  if (enforcesMountableSecrets(sa)) {
    const why = unmountableSecret(sa, spec);
    if (why !== undefined) throw admissionForbidden(attrs, why);
  }
}

async function admitPod(
  attrs: AdmissionAttributes,
  deps: ServiceAccountDeps,
  parts: PodParts,
): Promise<void> {
  const { spec, mirror } = parts;
  if (!mirror) {
    if (str(spec['serviceAccountName']) === '') {
      // The v1 form carries the deprecated serviceAccount alongside (the conversion's doing).
      spec['serviceAccountName'] = DEFAULT_SERVICE_ACCOUNT;
      spec['serviceAccount'] = DEFAULT_SERVICE_ACCOUNT;
    }
    const sa = await account(attrs, deps, str(spec['serviceAccountName']));
    if (shouldAutomount(sa, spec)) mountTokenVolume(spec, deps.random);
    if (arr(spec['imagePullSecrets']).length === 0) {
      const pulls = arr(sa['imagePullSecrets']).map((s) => ({ name: str(s['name']) }));
      if (pulls.length > 0) spec['imagePullSecrets'] = pulls;
    }
  }
  await validatePod(attrs, deps, parts);
}

export function serviceAccount(deps: ServiceAccountDeps): AdmissionPlugin {
  return {
    name: 'ServiceAccount',
    handles: (op) => op === 'CREATE',
    admit: async (attrs) => {
      const parts = podParts(attrs);
      if (parts) await admitPod(attrs, deps, parts);
    },
    validate: async (attrs) => {
      const parts = podParts(attrs);
      if (parts) await validatePod(attrs, deps, parts);
    },
  };
}
