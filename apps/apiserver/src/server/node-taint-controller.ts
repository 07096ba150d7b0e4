/**
 * The NoSchedule half of the node lifecycle controller, which the reference runs in its
 * controller manager and Keel, having none, runs in the API server: a node's condition taints
 * (not-ready, unreachable, memory/disk/PID pressure, network unavailable) and the unschedulable
 * taint follow its status and spec. Without it the `node.kubernetes.io/not-ready` taint that
 * TaintNodesByCondition puts on every new node would never be lifted. The taints follow only
 * from the node itself, so several API servers writing them agree.
 */
import { isStorageError, type Storage, type StoreInformer } from '@keel/storage';

interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
  readonly timeAdded?: string;
}

interface NodeLike {
  metadata: { name?: string; deletionTimestamp?: string; resourceVersion?: string };
  spec?: { unschedulable?: boolean; taints?: Taint[] };
  status?: { conditions?: { type?: string; status?: string }[] };
}

/** kube's nodeConditionToTaintKeyStatusMap. */
const CONDITION_TAINTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Ready: { False: 'node.kubernetes.io/not-ready', Unknown: 'node.kubernetes.io/unreachable' },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};
const UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
const MANAGED = new Set([UNSCHEDULABLE, ...Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m))]);

const isManaged = (t: Taint) => t.effect === 'NoSchedule' && MANAGED.has(t.key);

/** The taints the node should carry in place of its managed ones; undefined when they are right. */
export function desiredTaints(node: NodeLike): Taint[] | undefined {
  const want = new Set<string>();
  for (const c of node.status?.conditions ?? []) {
    const key = CONDITION_TAINTS[c.type ?? '']?.[c.status ?? ''];
    if (key) want.add(key);
  }
  if (node.spec?.unschedulable) want.add(UNSCHEDULABLE);
  const taints = node.spec?.taints ?? [];
  const have = new Set(taints.filter(isManaged).map((t) => t.key));
  if (have.size === want.size && [...want].every((k) => have.has(k))) return undefined;
  return [
    ...taints.filter((t) => !isManaged(t) || want.has(t.key)),
    ...[...want].filter((k) => !have.has(k)).map((key) => ({ key, effect: 'NoSchedule' })),
  ];
}

const UNCHANGED = new Error('taints unchanged');

export interface NodeTaintControllerOptions {
  readonly informer: StoreInformer;
  readonly onError?: (err: unknown) => void;
}

export class NodeTaintController {
  private started = false;

  constructor(
    private readonly storage: Storage,
    private readonly opts: NodeTaintControllerOptions,
  ) {}

  /** Syncs every node now and each node as it changes, until `signal` aborts. */
  start(signal: AbortSignal): void {
    // The start-up step that calls this is retried while the store is down.
    if (this.started) return;
    this.started = true;
    const { informer } = this.opts;
    const syncAll = () => {
      for (const node of informer.list()) void this.sync(node as NodeLike);
    };
    const stop = informer.subscribe((change) => {
      if (change.type === 'replaced') syncAll();
      else if (change.type !== 'DELETED') void this.sync(change.object as NodeLike);
    });
    signal.addEventListener('abort', stop, { once: true });
    syncAll();
  }

  private async sync(seen: NodeLike): Promise<void> {
    if (seen.metadata.deletionTimestamp || !desiredTaints(seen)) return;
    const name = seen.metadata.name ?? '';
    try {
      await this.storage.guaranteedUpdate<NodeLike>(`/nodes/${name}`, (current) => {
        const node = current as NodeLike;
        const taints = desiredTaints(node);
        // Set right meanwhile (by another API server): nothing to write.
        if (!taints) throw UNCHANGED;
        const next = structuredClone(node);
        next.spec = { ...next.spec, taints };
        if (taints.length === 0) delete next.spec.taints;
        delete next.metadata.resourceVersion;
        return next;
      });
    } catch (err) {
      if (err !== UNCHANGED && !isStorageError(err, 'KeyNotFound')) this.opts.onError?.(err);
    }
  }
}
