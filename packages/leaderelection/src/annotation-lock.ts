/**
 * client-go's EndpointsLock and ConfigMapLock: the record is JSON in the
 * `control-plane.alpha.kubernetes.io/leader` annotation of a core/v1 object. They exist here only
 * as the primary half of the `endpointsleases` / `configmapsleases` multilocks.
 */
import type { LockConfig, LockGetResult } from './lock.js';
import type { KubeObject, ObjectClient } from './object-client.js';
import { ObjectLock } from './object-lock.js';
import {
  LEADER_ANNOTATION,
  recordFromAnnotation,
  recordToAnnotation,
  type LeaderElectionRecord,
} from './record.js';

const EMPTY_RECORD: LeaderElectionRecord = {
  holderIdentity: '',
  leaseDurationSeconds: 0,
  acquireTime: '',
  renewTime: '',
  leaderTransitions: 0,
};

class AnnotationLock extends ObjectLock {
  protected read(object: KubeObject): LockGetResult {
    const text = object.metadata?.annotations?.[LEADER_ANNOTATION];
    // An object without the annotation reads as an empty record, which anyone may take.
    if (text === undefined) return { record: EMPTY_RECORD, raw: '' };
    return { record: recordFromAnnotation(text), raw: text };
  }

  protected write(base: KubeObject, record: LeaderElectionRecord): KubeObject {
    const metadata = base.metadata ?? {};
    return {
      ...base,
      metadata: {
        ...metadata,
        annotations: { ...metadata.annotations, [LEADER_ANNOTATION]: recordToAnnotation(record) },
      },
    };
  }
}

export class EndpointsLock extends AnnotationLock {
  constructor(namespace: string, name: string, client: ObjectClient, config: LockConfig) {
    super(
      { groupVersionPath: '/api/v1', resource: 'endpoints', namespace, name },
      { apiVersion: 'v1', kind: 'Endpoints' },
      client,
      config,
    );
  }
}

export class ConfigMapLock extends AnnotationLock {
  constructor(namespace: string, name: string, client: ObjectClient, config: LockConfig) {
    super(
      { groupVersionPath: '/api/v1', resource: 'configmaps', namespace, name },
      { apiVersion: 'v1', kind: 'ConfigMap' },
      client,
      config,
    );
  }
}
