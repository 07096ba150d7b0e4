/**
 * The ReplicationController, ReplicaSet and StatefulSet informers whose selectors default a pod's
 * topology spreading (kube-scheduler lists them for PodTopologySpread's default constraints). Their
 * events requeue nothing: kube registers no cluster events for these kinds.
 */
import { createInformer, type Informer, type KubeObject, type RestClient } from '@keel/client';
import type { LabelSelectorSpec } from '@keel/apimachinery';
import type { Labels } from '../framework/affinity-terms.js';
import type { ClusterObjects, WorkloadKind } from '../framework/interface.js';

type Lookup<S> = { readonly found: false } | { readonly found: true; readonly selector: S | null };

export interface WorkloadInformers {
  readonly informers: readonly Informer<KubeObject>[];
  readonly listers: Pick<ClusterObjects, 'replicationControllerSelector' | 'workloadSelector'>;
}

export interface WorkloadInformerDeps {
  readonly client: Pick<RestClient, 'list' | 'watch'>;
  readonly onError: (resource: string) => (err: unknown) => void;
  readonly signal?: AbortSignal;
}

/** Only the metadata the store keys on and `spec.selector`: the rest of a workload is never read. */
function keepSelector(obj: KubeObject): KubeObject {
  const { name, namespace, resourceVersion, uid } = obj.metadata ?? {};
  const spec = (obj as { spec?: { selector?: unknown } }).spec;
  return {
    ...(obj.apiVersion !== undefined ? { apiVersion: obj.apiVersion } : {}),
    ...(obj.kind !== undefined ? { kind: obj.kind } : {}),
    metadata: { name, namespace, resourceVersion, uid },
    spec: { selector: spec?.selector ?? null },
  };
}

function lookup<S>(informer: Informer<KubeObject> | undefined, namespace: string, name: string): Lookup<S> {
  const obj = informer?.get(`${namespace}/${name}`);
  if (!obj) return { found: false };
  // The selector comes from the API server, which validated it as this kind's spec.selector.
  const selector = (obj as { spec?: { selector?: S | null } }).spec?.selector ?? null;
  return { found: true, selector };
}

/** The three informers (not started). */
export function newWorkloadInformers(deps: WorkloadInformerDeps): WorkloadInformers {
  const make = (listPath: string, resource: string) =>
    createInformer<KubeObject>({
      client: deps.client,
      listPath,
      transform: keepSelector,
      onError: deps.onError(resource),
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
  const rcs = make('/api/v1/replicationcontrollers', 'replicationcontrollers');
  const apps: Record<WorkloadKind, Informer<KubeObject>> = {
    ReplicaSet: make('/apis/apps/v1/replicasets', 'replicasets'),
    StatefulSet: make('/apis/apps/v1/statefulsets', 'statefulsets'),
  };
  return {
    informers: [rcs, apps.ReplicaSet, apps.StatefulSet],
    listers: {
      replicationControllerSelector: (ns, name) => lookup<Labels>(rcs, ns, name),
      workloadSelector: (kind, ns, name) => lookup<LabelSelectorSpec>(apps[kind], ns, name),
    },
  };
}
