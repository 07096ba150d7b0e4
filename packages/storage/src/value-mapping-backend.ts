import type { HubListener, LogEntry, PageRequest, RawObject, StorageBackend, WriteOp } from './backend.js';

/**
 * A backend that maps stored values on their way in and out of another one (encryption, the
 * stored encoding), leaving everything else to it: reads, pages, the change log and the hub's
 * entries are opened; writes are mapped by the subclass.
 */
export abstract class ValueMappingBackend implements StorageBackend {
  readonly hub: StorageBackend['hub'];
  readonly pageKeys?: StorageBackend['pageKeys'];
  readonly readValues?: StorageBackend['readValues'];

  constructor(protected readonly inner: StorageBackend) {
    // Keys and versions pass as they are; the values read for them are opened like a page's.
    if (inner.pageKeys && inner.readValues) {
      this.pageKeys = (req) => inner.pageKeys!(req);
      this.readValues = async (atRV, items) => {
        const res = await inner.readValues!(atRV, items);
        return res.kind === 'ok' ? { ...res, items: res.items.map((r) => r && this.openRaw(r)) } : res;
      };
    }
    // The inner hub hands the same entry to every subscriber in turn (each watch cache, informer
    // and watch is one), so the entry is opened once for all of them, not once per subscriber:
    // with one opening each a create was decoded by a dozen watch caches of other resources.
    let lastIn: LogEntry | undefined;
    let lastOut: LogEntry | undefined;
    const opened = (entry: LogEntry): LogEntry => {
      if (entry !== lastIn) {
        lastOut = this.openEntry(entry);
        lastIn = entry;
      }
      return lastOut!;
    };
    this.hub = {
      get position() {
        return inner.hub.position;
      },
      subscribe: (listener: HubListener) =>
        inner.hub.subscribe({
          onEntry: (entry) => listener.onEntry(opened(entry)),
          onError: (err) => listener.onError(err),
        }),
    };
  }

  /** A stored object as the layers above see it. */
  protected abstract openRaw(raw: RawObject): RawObject;
  /** A change-log entry (value and previous value) as the layers above see it. */
  protected abstract openEntry(entry: LogEntry): LogEntry;
  abstract write(op: WriteOp): ReturnType<StorageBackend['write']>;

  async read(key: string): Promise<RawObject | undefined> {
    const raw = await this.inner.read(key);
    return raw && this.openRaw(raw);
  }

  async page(req: PageRequest): ReturnType<StorageBackend['page']> {
    const res = await this.inner.page(req);
    return res.kind === 'ok' ? { ...res, items: res.items.map((r) => this.openRaw(r)) } : res;
  }

  async readLog(afterRV: number, limit: number): ReturnType<StorageBackend['readLog']> {
    const res = await this.inner.readLog(afterRV, limit);
    return res.kind === 'ok' ? { ...res, entries: res.entries.map((e) => this.openEntry(e)) } : res;
  }

  currentRV(): Promise<number> {
    return this.inner.currentRV();
  }
  compact(rv: number): Promise<void> {
    return this.inner.compact(rv);
  }
  reapExpired(): Promise<number> {
    return this.inner.reapExpired();
  }
  ping(timeoutMs: number): Promise<void> {
    return this.inner.ping(timeoutMs);
  }
  dbSize(): Promise<number> {
    return this.inner.dbSize();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
