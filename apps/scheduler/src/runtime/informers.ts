/**
 * The scheduler's informers (kube's addAllEventHandlers over the shared informer factory): pods
 * that are not terminal, in every namespace, and nodes, whose events feed the scheduling queue and
 * cache; namespaces and services, which plugins read, and the replication controllers, replica sets
 * and stateful sets when a plugin asked for them. Scheduling starts once all have listed.
 */
import { createInformer, type Informer, type KubeObject, type RestClient } from '@keel/client';
import type { Logger } from '@keel/log';
import type { Labels } from '../framework/affinity-terms.js';
import type { ClusterObjects } from '../framework/interface.js';
import type { PodDisruptionBudget } from '../framework/preemption-handle.js';
import type { Node, Pod } from '../framework/types.js';
import type { VolumeListers } from '../framework/volume-objects.js';
import type { EventHandlers } from '../scheduling/event-handlers.js';
import { newVolumeInformers } from './volume-informers.js';
import { newWorkloadInformers } from './workload-informers.js';
import { setMaxListeners } from 'node:events';

/** What kube-scheduler's pod informer selects: terminal pods hold no resources. */
export const POD_FIELD_SELECTOR = 'status.phase!=Succeeded,status.phase!=Failed';

export interface SchedulerInformers {
  readonly pods: Informer<KubeObject>;
  readonly nodes: Informer<KubeObject>;
  /** Namespace labels (pod affinity's namespaceSelector). */
  readonly namespaces: Informer<KubeObject>;
  /** Service selectors (default topology spreading). */
  readonly services: Informer<KubeObject>;
  /** policy/v1 PodDisruptionBudgets (preemption prefers victims whose budgets allow it). */
  readonly pdbs: Informer<KubeObject>;
  podDisruptionBudgets(): readonly PodDisruptionBudget[];
  /** What plugins read from the namespace and service informers. */
  readonly objects: ClusterObjects;
  /** What the volume plugins read from the PV, PVC, StorageClass and CSINode informers. */
  readonly volumes: VolumeListers;
  start(): void;
  /** True once both have listed; false when `signal` aborts or they stop first. */
  waitForSync(signal?: AbortSignal): Promise<boolean>;
  stop(): Promise<void>;
  /** The informer's pod for `namespace/name`, as the scheduler sees it. */
  getPod(key: string): Pod | undefined;
}

/** The scheduler keeps no managedFields (kube's informer transform drops them). */
function dropManagedFields(obj: KubeObject): KubeObject {
  if (!obj.metadata || !('managedFields' in obj.metadata)) return obj;
  const { managedFields: _mf, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

function asPod(obj: KubeObject): Pod | undefined {
  const o = obj as { metadata?: unknown; spec?: unknown };
  if (typeof o.metadata !== 'object' || o.metadata === null) return undefined;
  if (typeof o.spec !== 'object' || o.spec === null) return undefined;
  // The wire object is a Pod whose fields the framework reads defensively.
  return obj as unknown as Pod;
}

function asNode(obj: KubeObject): Node | undefined {
  if (typeof obj.metadata?.name !== 'string') return undefined;
  return obj as unknown as Node;
}

export interface InformerDeps {
  readonly client: Pick<RestClient, 'list' | 'watch'>;
  readonly handlers: EventHandlers;
  readonly logger: Logger;
  readonly signal?: AbortSignal;
  /** Whether to list and watch ReplicationControllers, ReplicaSets and StatefulSets. */
  readonly workloads?: boolean;
}

export function newSchedulerInformers(deps: InformerDeps): SchedulerInformers {
  const { handlers, logger } = deps;
  const malformed = (what: string) => (obj: KubeObject) =>
    logger.error(`Ignoring a malformed ${what} from the watch`, {
      object: `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`,
    });
  const badPod = malformed('pod');
  const badNode = malformed('node');
  const onError = (resource: string) => (err: unknown) => logger.error('Failed to watch', { resource, err });

  const pods = createInformer<KubeObject>({
    client: deps.client,
    listPath: '/api/v1/pods',
    fieldSelector: POD_FIELD_SELECTOR,
    transform: dropManagedFields,
    onError: onError('pods'),
    ...(deps.signal ? { signal: deps.signal } : {}),
    onAdd: (obj) => {
      const pod = asPod(obj);
      if (pod) handlers.onPodAdd(pod);
      else badPod(obj);
    },
    onUpdate: (oldObj, newObj) => {
      const [o, n] = [asPod(oldObj), asPod(newObj)];
      if (o && n) handlers.onPodUpdate(o, n);
      else if (n) handlers.onPodAdd(n);
      else badPod(newObj);
    },
    onDelete: (obj) => {
      const pod = asPod(obj);
      if (pod) handlers.onPodDelete(pod);
    },
  });
  const nodes = createInformer<KubeObject>({
    client: deps.client,
    listPath: '/api/v1/nodes',
    transform: dropManagedFields,
    onError: onError('nodes'),
    ...(deps.signal ? { signal: deps.signal } : {}),
    onAdd: (obj) => {
      const node = asNode(obj);
      if (node) handlers.onNodeAdd(node);
      else badNode(obj);
    },
    onUpdate: (oldObj, newObj) => {
      const [o, n] = [asNode(oldObj), asNode(newObj)];
      if (o && n) handlers.onNodeUpdate(o, n);
      else if (n) handlers.onNodeAdd(n);
      else badNode(newObj);
    },
    onDelete: (obj) => {
      const node = asNode(obj);
      if (node) handlers.onNodeDelete(node);
    },
  });

  const namespaces = createInformer<KubeObject>({
    client: deps.client,
    listPath: '/api/v1/namespaces',
    transform: dropManagedFields,
    onError: onError('namespaces'),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  // Service selectors by namespace, so defaulting a pod's spread reads only its namespace's.
  const selectors = new Map<string, Map<string, Labels>>();
  const setService = (obj: KubeObject, present: boolean) => {
    const ns = obj.metadata?.namespace ?? '';
    const name = obj.metadata?.name ?? '';
    const sel = (obj as { spec?: { selector?: Labels | null } }).spec?.selector;
    let m = selectors.get(ns);
    if (present && sel) {
      if (!m) selectors.set(ns, (m = new Map<string, Labels>()));
      m.set(name, sel);
    } else if (m) {
      m.delete(name);
      if (m.size === 0) selectors.delete(ns);
    }
  };
  const services = createInformer<KubeObject>({
    client: deps.client,
    listPath: '/api/v1/services',
    transform: dropManagedFields,
    onError: onError('services'),
    ...(deps.signal ? { signal: deps.signal } : {}),
    onAdd: (obj) => setService(obj, true),
    onUpdate: (_old, obj) => setService(obj, true),
    onDelete: (obj) => setService(obj, false),
  });
  const workloads = deps.workloads
    ? newWorkloadInformers({ client: deps.client, onError, ...(deps.signal ? { signal: deps.signal } : {}) })
    : undefined;
  const objects: ClusterObjects = {
    namespaceLabels: (name) => namespaces.get(name)?.metadata?.labels ?? undefined,
    namespacesMatching: (selector) =>
      namespaces
        .list()
        .filter((ns) => selector.matches(ns.metadata?.labels ?? {}))
        .map((ns) => ns.metadata?.name ?? ''),
    serviceSelectors: (ns) => [...(selectors.get(ns)?.values() ?? [])],
    // Decided when the informers are made (deps.workloads); asking later changes nothing.
    watchWorkloads: () => undefined,
    replicationControllerSelector: (ns, name) =>
      workloads ? workloads.listers.replicationControllerSelector(ns, name) : { found: false },
    workloadSelector: (kind, ns, name) =>
      workloads ? workloads.listers.workloadSelector(kind, ns, name) : { found: false },
  };
  const pdbs = createInformer<KubeObject>({
    client: deps.client,
    listPath: '/apis/policy/v1/poddisruptionbudgets',
    // A 1.20 API server serves only v1beta1; without either, preemption goes on without budgets.
    fallbackListPaths: ['/apis/policy/v1beta1/poddisruptionbudgets'],
    optional: true,
    transform: dropManagedFields,
    onError: onError('poddisruptionbudgets'),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  const storage = newVolumeInformers({
    client: deps.client,
    transform: dropManagedFields,
    onError,
    onChange: (event) => handlers.onVolumeObjectChange(event),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  const all = [
    nodes,
    pods,
    namespaces,
    services,
    pdbs,
    ...storage.informers,
    ...(workloads?.informers ?? []),
  ];

  return {
    pods,
    nodes,
    namespaces,
    services,
    pdbs,
    // The wire objects are PodDisruptionBudgets; preemption reads their fields defensively.
    podDisruptionBudgets: () => pdbs.list() as unknown as PodDisruptionBudget[],
    objects,
    volumes: storage.listers,
    start() {
      // Order does not matter: the cache keeps pods of nodes it has not seen yet.
      for (const i of all) i.start();
    },
    async waitForSync(signal) {
      // One abort listener per informer while it syncs (more than Node's default warning limit of
      // 10, not a leak: each is removed once its informer has synced).
      if (signal) setMaxListeners(all.length + 10, signal);
      const synced = await Promise.all(all.map((i) => i.waitForSync(signal)));
      return synced.every(Boolean);
    },
    async stop() {
      await Promise.all(all.map((i) => i.stop()));
    },
    getPod(key) {
      const obj = pods.get(key);
      return obj ? asPod(obj) : undefined;
    },
  };
}
