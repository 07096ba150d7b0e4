/** client-go resourcelock.New: the lock named by `--leader-elect-resource-lock`. */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { LeaseLock } from './lease-lock.js';
import type { EventRecorder, Lock } from './lock.js';
import { ConfigMapLeaseLock, EndpointsLeaseLock } from './multi-lock.js';
import type { ObjectClient } from './object-client.js';
import { RESOURCE_LOCK_TYPES } from './options.js';

export function newLock(
  type: string,
  namespace: string,
  name: string,
  identity: string,
  client: ObjectClient,
  recorder?: EventRecorder,
): Lock {
  const config = { identity, recorder };
  switch (type) {
    case 'leases':
      return new LeaseLock(namespace, name, client, config);
    case 'endpointsleases':
      return new EndpointsLeaseLock(namespace, name, client, config);
    case 'configmapsleases':
      return new ConfigMapLeaseLock(namespace, name, client, config);
    default: {
      const allowed = RESOURCE_LOCK_TYPES.map((v) => JSON.stringify(v)).join(', ');
      throw new Error(`invalid lock-type ${JSON.stringify(type)}; supported values: ${allowed}`);
    }
  }
}

/**
 * kube-scheduler's identity: `<hostname>_<uuid>`. The UUID keeps two processes on one host (or a
 * restarted one) from mistaking each other's lease for their own.
 */
export function defaultIdentity(host: string = hostname()): string {
  return `${host}_${randomUUID()}`;
}
