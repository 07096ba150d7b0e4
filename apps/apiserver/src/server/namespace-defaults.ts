/**
 * What the reference's controller manager puts in every namespace, run in the API server because
 * Keel has none: the `default` ServiceAccount (the serviceaccount controller) and the
 * `kube-root-ca.crt` ConfigMap holding the cluster CA (the root-ca-cert-publisher), both created
 * again when deleted and the ConfigMap put back when changed. Namespaces being deleted are left
 * alone. Each write is decided from the stored state, so several API servers on one store agree
 * (a create that lost the race is AlreadyExists, which is fine).
 */
import { newUid } from '@keel/apimachinery';
import { isStorageError, StoreInformer, type Storage } from '@keel/storage';

export const DEFAULT_SERVICE_ACCOUNT = 'default';
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

const ROOTS = { namespaces: '/namespaces', serviceAccounts: '/serviceaccounts', configMaps: '/configmaps' };

export interface NamespaceDefaultsOptions {
  /** The PEM bundle published as `ca.crt`; '' publishes no ConfigMap. Read at each sync. */
  readonly rootCA: () => string;
  /**
   * Whether the bundle is the cluster's (--client-ca-file, the same on every server), which this
   * server then keeps published, replacing any other. A server's own self-signed CA differs from
   * its peers': it only fills a missing ConfigMap, or servers sharing a store would overwrite
   * each other's without end.
   */
  readonly rootCAIsClusterWide?: () => boolean;
  /** Told about a failed sync (retried after `retryDelayMs`); the store being down is no reason to crash. */
  readonly onError?: (err: unknown) => void;
  readonly retryDelayMs?: number;
}

/** The few fields read here of the namespaces, accounts and ConfigMaps the store holds. */
interface Obj {
  metadata?: {
    name?: string;
    namespace?: string;
    resourceVersion?: string;
    deletionTimestamp?: string;
    annotations?: Record<string, string>;
    [field: string]: unknown;
  };
  status?: { phase?: string };
  data?: Record<string, string>;
  [field: string]: unknown;
}

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The namespace of a key `<root>/<namespace>/<name>`. */
function namespaceOf(key: string, root: string): string {
  return key.slice(root.length + 1).split('/')[0] ?? '';
}

function isActive(ns: Obj): boolean {
  return ns.metadata?.deletionTimestamp === undefined && ns.status?.phase !== 'Terminating';
}

export class NamespaceDefaultsController {
  private readonly namespaces: StoreInformer<Obj>;
  private readonly serviceAccounts: StoreInformer<Obj>;
  private readonly configMaps: StoreInformer<Obj>;
  private readonly queue = new Set<string>();
  private draining: Promise<void> | undefined;
  private started = false;

  constructor(
    private readonly storage: Storage,
    private readonly opts: NamespaceDefaultsOptions,
  ) {
    const informerOpts = opts.onError ? { onError: opts.onError } : {};
    this.namespaces = new StoreInformer<Obj>(storage, ROOTS.namespaces, informerOpts);
    this.serviceAccounts = new StoreInformer<Obj>(storage, ROOTS.serviceAccounts, informerOpts);
    this.configMaps = new StoreInformer<Obj>(storage, ROOTS.configMaps, informerOpts);
  }

  /** Starts watching (until `signal` aborts) and resolves once every namespace stored now has been synced once. */
  async start(signal: AbortSignal): Promise<void> {
    if (!this.started) {
      this.started = true;
      for (const i of [this.namespaces, this.serviceAccounts, this.configMaps]) void i.run(signal);
      const stops = [
        this.namespaces.subscribe((c) => {
          if (c.type === 'replaced') this.enqueueAll(signal);
          else if (c.type !== 'DELETED') this.enqueue(c.object.metadata?.name ?? '', signal);
        }),
        this.serviceAccounts.subscribe((c) => {
          if (c.type === 'replaced') this.enqueueAll(signal);
          else if (c.type === 'DELETED' && c.object.metadata?.name === DEFAULT_SERVICE_ACCOUNT)
            this.enqueue(namespaceOf(c.key, ROOTS.serviceAccounts), signal);
        }),
        this.configMaps.subscribe((c) => {
          if (c.type === 'replaced') this.enqueueAll(signal);
          else if (c.object.metadata?.name === ROOT_CA_CONFIGMAP)
            this.enqueue(namespaceOf(c.key, ROOTS.configMaps), signal);
        }),
      ];
      signal.addEventListener('abort', () => stops.forEach((stop) => stop()), { once: true });
    }
    await Promise.all([this.namespaces, this.serviceAccounts, this.configMaps].map((i) => i.waitForSync()));
    this.enqueueAll(signal);
    await this.draining;
  }

  private enqueueAll(signal: AbortSignal): void {
    for (const ns of this.namespaces.list()) this.enqueue(ns.metadata?.name ?? '', signal);
  }

  private enqueue(namespace: string, signal: AbortSignal): void {
    if (namespace === '' || signal.aborted) return;
    this.queue.add(namespace);
    this.draining ??= this.drain(signal).finally(() => {
      this.draining = undefined;
    });
  }

  private async drain(signal: AbortSignal): Promise<void> {
    while (this.queue.size > 0 && !signal.aborted) {
      const [namespace] = this.queue;
      if (namespace === undefined) return;
      this.queue.delete(namespace);
      try {
        await this.sync(namespace);
      } catch (err) {
        if (signal.aborted) return;
        this.opts.onError?.(err);
        await new Promise((resolve) => setTimeout(resolve, this.opts.retryDelayMs ?? 1000));
        this.queue.add(namespace);
      }
    }
  }

  private async sync(namespace: string): Promise<void> {
    const ns = this.namespaces.get(`${ROOTS.namespaces}/${namespace}`);
    if (!ns || !isActive(ns)) return;
    if (!this.serviceAccounts.get(`${ROOTS.serviceAccounts}/${namespace}/${DEFAULT_SERVICE_ACCOUNT}`)) {
      await this.create(`${ROOTS.serviceAccounts}/${namespace}/${DEFAULT_SERVICE_ACCOUNT}`, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace },
      });
    }
    await this.publishRootCA(namespace);
  }

  private async publishRootCA(namespace: string): Promise<void> {
    const ca = this.opts.rootCA();
    if (ca === '') return;
    const key = `${ROOTS.configMaps}/${namespace}/${ROOT_CA_CONFIGMAP}`;
    const current = this.configMaps.get(key);
    if (!current) {
      await this.create(key, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: ROOT_CA_CONFIGMAP,
          namespace,
          annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION },
        },
        data: { 'ca.crt': ca },
      });
      return;
    }
    if (isPublished(current, ca) || this.opts.rootCAIsClusterWide?.() === false) return;
    try {
      await this.storage.guaranteedUpdate<Obj>(key, (stored) => {
        // Without ignoreNotFound the store calls this only with an object (else KeyNotFound, below).
        const cm = stored as Obj;
        if (isPublished(cm, ca)) return cm;
        const { resourceVersion: _rv, ...metadata } = cm.metadata ?? {};
        return {
          ...cm,
          metadata: {
            ...metadata,
            annotations: { ...(metadata.annotations ?? {}), [DESCRIPTION_ANNOTATION]: DESCRIPTION },
          },
          data: { 'ca.crt': ca },
        };
      });
    } catch (err) {
      // Deleted meanwhile: the informer's DELETED brings the namespace back here.
      if (!isStorageError(err, 'KeyNotFound')) throw err;
    }
  }

  private async create(key: string, obj: Obj & { metadata: Record<string, unknown> }): Promise<void> {
    try {
      await this.storage.create(key, {
        ...obj,
        metadata: { ...obj.metadata, uid: newUid(), creationTimestamp: now() },
      });
    } catch (err) {
      if (!isStorageError(err, 'KeyExists')) throw err;
    }
  }
}

/** As the publisher: the data is exactly the CA and the description annotation is there. */
function isPublished(cm: Obj, ca: string): boolean {
  const data = cm.data ?? {};
  const keys = Object.keys(data);
  return (
    keys.length === 1 &&
    data['ca.crt'] === ca &&
    (cm.metadata?.annotations?.[DESCRIPTION_ANNOTATION] ?? '') !== ''
  );
}
