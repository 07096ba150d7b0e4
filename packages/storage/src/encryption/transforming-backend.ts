import type { HubListener, LogEntry, RawObject, StorageBackend, WriteOp } from '../backend.js';
import type { EncryptionConfig } from './config.js';
import type { Opened, ValueTransformer } from './transformer.js';

/**
 * Encrypts values on their way into a backend and decrypts them on the way out, per the
 * resource their key names, so everything above (storage, watch, lists) sees plain JSON and the
 * store (Redis, or the embedded one) holds only what the configuration says to write.
 * A value that cannot be decrypted fails the read with the reason, as upstream's 500.
 */
export class TransformingBackend implements StorageBackend {
  readonly hub: StorageBackend['hub'];

  constructor(
    private readonly inner: StorageBackend,
    private readonly config: EncryptionConfig,
  ) {
    this.hub = {
      get position() {
        return inner.hub.position;
      },
      subscribe: (listener: HubListener) =>
        inner.hub.subscribe({
          onEntry: (entry) => listener.onEntry(this.openEntry(entry)),
          onError: (err) => listener.onError(err),
        }),
    };
  }

  /** Opens one stored value of `key`; a value no configured key opens fails the read. */
  private openValue(t: ValueTransformer, key: string, value: string): Opened {
    try {
      return t.open(value, key);
    } catch (err) {
      throw new Error(`unable to transform key "${key}": ${(err as Error).message}`, { cause: err });
    }
  }

  private openRaw(raw: RawObject): RawObject {
    const t = this.config.transformerFor(raw.key);
    if (!t) return raw;
    const { text, stale } = this.openValue(t, raw.key, raw.value);
    return stale ? { ...raw, value: text, stale } : { ...raw, value: text };
  }

  private openEntry(entry: LogEntry): LogEntry {
    const t = this.config.transformerFor(entry.key);
    if (!t) return entry;
    return {
      ...entry,
      ...(entry.value === undefined ? {} : { value: this.openValue(t, entry.key, entry.value).text }),
      ...(entry.prev === undefined ? {} : { prev: this.openValue(t, entry.key, entry.prev).text }),
    };
  }

  async read(key: string): Promise<RawObject | undefined> {
    const raw = await this.inner.read(key);
    return raw && this.openRaw(raw);
  }

  write(op: WriteOp): ReturnType<StorageBackend['write']> {
    if (op.kind === 'delete') return this.inner.write(op);
    const t = this.config.transformerFor(op.key);
    return this.inner.write(t ? { ...op, value: t.seal(op.value, op.key) } : op);
  }

  async page(req: Parameters<StorageBackend['page']>[0]): ReturnType<StorageBackend['page']> {
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
