import type { ObjectIndex } from '@keel/admission';
import type { Logger } from '@keel/log';
import { StoreInformer, type Storage } from '@keel/storage';

/**
 * Key roots whose informer shares each change's decoded object with the other sharing watches
 * (the HTTP watchers, the garbage collector's): every change of a pod is watched by the
 * scheduler and several in-process readers, and a shared decode saves a parse of the pod per
 * change. Their readers only read: the node authorizer's graph (podGraphSource), the quota
 * controller, and the NodeRestriction and PodSecurity admission plugins through `lookup`. A new
 * reader of these objects must not change them either; roots not listed decode their own copy.
 */
const READ_ONLY_ROOTS: ReadonlySet<string> = new Set(['/pods']);

/**
 * The server's own in-memory copies of stored objects (kube's shared informer factory): one
 * informer per key root, asked for while the server is put together, all started after the
 * store opens. Authorizers and admission plugins decide from these instead of reading the store
 * per request.
 */
export class ServerInformers {
  private readonly informers = new Map<string, StoreInformer>();
  private started = false;

  constructor(
    private readonly storage: Storage,
    private readonly logger: Logger,
  ) {}

  /** The informer over `keyRoot` (one per root, however often it is asked for). */
  informer(keyRoot: string): StoreInformer {
    let informer = this.informers.get(keyRoot);
    if (!informer) {
      if (this.started) throw new Error(`informer for ${keyRoot} asked for after the informers started`);
      informer = new StoreInformer(this.storage, keyRoot, {
        onError: (err) => this.logger.v(2).info('Informer watch failed; reading again', { keyRoot, err }),
        readOnly: READ_ONLY_ROOTS.has(keyRoot),
      });
      this.informers.set(keyRoot, informer);
    }
    return informer;
  }

  /** Reads one kind by namespace and name, keyed as the generic store keys it, and lists it. */
  lookup(keyRoot: string): ObjectIndex {
    const informer = this.informer(keyRoot);
    const get = (namespace: string, name: string) =>
      informer.get(namespace === '' ? `${keyRoot}/${name}` : `${keyRoot}/${namespace}/${name}`);
    const list = (namespace?: string) => {
      const all = [...informer.list()];
      return namespace === undefined ? all : all.filter((o) => (o.metadata?.namespace ?? '') === namespace);
    };
    // Everything under a served key root was written through its store, metadata included.
    return { get, list } as ObjectIndex;
  }

  /**
   * Starts every informer (once: a retried start-up step calls this again) and resolves when all
   * have taken in the store's state; they run until `signal` aborts.
   */
  async start(signal: AbortSignal): Promise<void> {
    if (!this.started) {
      this.started = true;
      for (const informer of this.informers.values()) void informer.run(signal);
    }
    const aborted = new Promise<never>((_, reject) => {
      const stop = () => reject(new Error('stopped before the informers synced'));
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
    await Promise.race([Promise.all([...this.informers.values()].map((i) => i.waitForSync())), aborted]);
  }
}
