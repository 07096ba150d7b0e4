import type { LogEntry, RawObject, StorageBackend, WriteOp } from '../backend.js';
import { ValueMappingBackend } from '../value-mapping-backend.js';
import type { EncryptionConfig } from './config.js';
import type { Opened, ValueTransformer } from './transformer.js';

/**
 * Encrypts values on their way into a backend and decrypts them on the way out, per the
 * resource their key names, so everything above (storage, watch, lists) sees plain JSON and the
 * store (Redis, or the embedded one) holds only what the configuration says to write.
 * A value that cannot be decrypted fails the read with the reason, as upstream's 500.
 */
export class TransformingBackend extends ValueMappingBackend {
  constructor(
    inner: StorageBackend,
    private readonly config: EncryptionConfig,
  ) {
    super(inner);
  }

  /** Opens one stored value of `key`; a value no configured key opens fails the read. */
  private openValue(t: ValueTransformer, key: string, value: string): Opened {
    try {
      return t.open(value, key);
    } catch (err) {
      throw new Error(`unable to transform key "${key}": ${(err as Error).message}`, { cause: err });
    }
  }

  protected openRaw(raw: RawObject): RawObject {
    const t = this.config.transformerFor(raw.key);
    if (!t) return raw;
    const { text, stale } = this.openValue(t, raw.key, raw.value);
    return stale ? { ...raw, value: text, stale } : { ...raw, value: text };
  }

  protected openEntry(entry: LogEntry): LogEntry {
    const t = this.config.transformerFor(entry.key);
    if (!t) return entry;
    return {
      ...entry,
      ...(entry.value === undefined ? {} : { value: this.openValue(t, entry.key, entry.value).text }),
      ...(entry.prev === undefined ? {} : { prev: this.openValue(t, entry.key, entry.prev).text }),
    };
  }

  write(op: WriteOp): ReturnType<StorageBackend['write']> {
    if (op.kind === 'delete') return this.inner.write(op);
    const t = this.config.transformerFor(op.key);
    return this.inner.write(t ? { ...op, value: t.seal(op.value, op.key) } : op);
  }
}
