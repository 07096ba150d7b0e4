/**
 * autoscaling/v1 Scale, the `scale` subresource of ReplicaSets, StatefulSets and
 * ReplicationControllers (pkg/registry/apps/replicaset/storage ScaleREST and its siblings):
 * the Scale a workload shows, ValidateScale, and what a written Scale changes in the workload
 * (spec.replicas, with the Scale's resourceVersion as the precondition).
 */
import { FieldPath, invalid, invalidValue, nameIsDNSSubdomain, type StatusError } from '@keel/apimachinery';
import {
  always,
  int32,
  objectMetaSpec,
  str,
  struct,
  validateCoreMeta,
  wireCodec,
  type Codec,
  type KindTarget,
  type ObjectMeta,
} from '@keel/resource';
import { coreScheme } from '../scheme.js';
import type { ReplicaSet, ReplicationController } from './replicaset.js';
import type { StatefulSet } from './statefulset.js';
import { selectorString } from './template.js';

export interface Scale {
  metadata: ObjectMeta;
  spec?: { replicas?: number };
  status?: { replicas?: number; selector?: string };
}

const scaleWire = struct('v1.Scale', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: struct('v1.ScaleSpec', { replicas: int32 }),
  status: struct('v1.ScaleStatus', { replicas: always(int32), selector: str }),
});

const scaleTarget: KindTarget = {
  group: 'autoscaling',
  version: 'v1',
  kind: 'Scale',
  scheme: coreScheme,
  internalPackage: 'k8s.io/kubernetes/pkg/apis/autoscaling',
};

/** Scale bodies in and out (400 StatusError for a body of another kind or version). */
export const scaleCodec: Codec<Scale> = wireCodec<Scale>(scaleTarget, scaleWire);

/** ValidateScale, as the 422 the scale subresource answers (`Scale.autoscaling "x" is invalid`). */
export function scaleInvalid(scale: Scale): StatusError | undefined {
  const errs = validateCoreMeta(scale.metadata, true, nameIsDNSSubdomain);
  const replicas = scale.spec?.replicas ?? 0;
  if (replicas < 0)
    errs.push(invalidValue(FieldPath.of('spec', 'replicas'), replicas, 'must be greater than or equal to 0'));
  return errs.length > 0
    ? invalid({ group: 'autoscaling', kind: 'Scale' }, scale.metadata.name ?? '', errs)
    : undefined;
}

/** How one workload kind reads and writes what its Scale shows. */
export interface ScaleAccess<W extends { metadata: ObjectMeta }> {
  specReplicas(w: W): number;
  statusReplicas(w: W): number;
  /** The label selector as a string (`app=web,tier in (a,b)`). */
  selector(w: W): string;
  /** A copy of the workload with spec.replicas set. */
  withReplicas(w: W, replicas: number): W;
}

/** The Scale a workload shows: its identity, spec.replicas, status.replicas and selector. */
export function scaleOf<W extends { metadata: ObjectMeta }>(access: ScaleAccess<W>, w: W): Scale {
  const m = w.metadata;
  const metadata: ObjectMeta = {};
  for (const f of ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp'] as const) {
    if (m[f] !== undefined) metadata[f] = m[f];
  }
  const selector = access.selector(w);
  return {
    metadata,
    spec: { replicas: access.specReplicas(w) },
    status: { replicas: access.statusReplicas(w), ...(selector !== '' ? { selector } : {}) },
  };
}

/** A copy of a workload with spec.replicas set. */
function withSpecReplicas<W extends { spec?: { replicas?: number } }>(w: W, replicas: number): W {
  const next = structuredClone(w);
  next.spec = { ...next.spec, replicas };
  return next;
}

export const replicaSetScale: ScaleAccess<ReplicaSet> = {
  specReplicas: (rs) => rs.spec?.replicas ?? 0,
  statusReplicas: (rs) => rs.status?.replicas ?? 0,
  selector: (rs) => selectorString(rs.spec?.selector),
  withReplicas: withSpecReplicas,
};

export const statefulSetScale: ScaleAccess<StatefulSet> = {
  specReplicas: (sts) => sts.spec?.replicas ?? 0,
  statusReplicas: (sts) => sts.status?.replicas ?? 0,
  selector: (sts) => selectorString(sts.spec?.selector),
  withReplicas: withSpecReplicas,
};

/** An RC's selector is a plain map: labels.SelectorFromSet(...).String(). */
export const replicationControllerScale: ScaleAccess<ReplicationController> = {
  specReplicas: (rc) => rc.spec?.replicas ?? 0,
  statusReplicas: (rc) => rc.status?.replicas ?? 0,
  selector: (rc) => selectorString(rc.spec?.selector ? { matchLabels: rc.spec.selector } : undefined),
  withReplicas: withSpecReplicas,
};
