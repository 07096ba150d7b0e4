/** client-go resourcelock.LeaseLock: the record is a coordination.k8s.io/v1 Lease's spec. */
import type { LockConfig, LockGetResult } from './lock.js';
import type { KubeObject, ObjectClient } from './object-client.js';
import { ObjectLock } from './object-lock.js';
import { recordFromLeaseSpec, recordToLeaseSpec, type LeaderElectionRecord } from './record.js';

export class LeaseLock extends ObjectLock {
  constructor(namespace: string, name: string, client: ObjectClient, config: LockConfig) {
    super(
      { groupVersionPath: '/apis/coordination.k8s.io/v1', resource: 'leases', namespace, name },
      { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' },
      client,
      config,
    );
  }

  protected read(object: KubeObject): LockGetResult {
    const record = recordFromLeaseSpec(object.spec);
    // Like client-go, the raw form is the marshalled record, so unrelated spec fields are ignored.
    return { record, raw: JSON.stringify(record) };
  }

  protected write(base: KubeObject, record: LeaderElectionRecord): KubeObject {
    // The whole spec is replaced, as client-go does: fields the record lacks are dropped.
    return { ...base, spec: recordToLeaseSpec(record) };
  }
}
