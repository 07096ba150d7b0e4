import type { LogEntry, RawObject, StorageBackend, WriteOp } from '../backend.js';
import { ValueMappingBackend } from '../value-mapping-backend.js';

/**
 * The first bytes of every protobuf-encoded object (`k8s\0`), as upstream's protobuf serializer
 * writes them. A stored value that starts with them is protobuf; one that starts with `{` is
 * JSON. Binary values travel through the storage layers as latin1 strings (one char per byte),
 * which the Redis backend sends and reads as raw bytes.
 */
export const PROTOBUF_MAGIC = 'k8s\u0000';

export function isProtobufValue(stored: string): boolean {
  return stored.startsWith(PROTOBUF_MAGIC);
}

/**
 * --storage-media-type: how objects are written to the store. Reads accept every encoding, so a
 * server switched from one media type to another reads what was stored before.
 */
export interface StoredEncoding {
  /** The stored form of an object's JSON text: the text itself, or a latin1 binary string. */
  encode(key: string, json: string): string;
  /** The JSON text of a stored value that is not JSON (starts with PROTOBUF_MAGIC). */
  decode(key: string, stored: string): string;
}

/**
 * Encodes values on their way into the backend and decodes them on the way out, so everything
 * above (storage, watch, the watch cache, lists) sees JSON text. It sits above encryption: an
 * object is encoded, then sealed, as upstream's codec runs before its transformer.
 */
export class EncodingBackend extends ValueMappingBackend {
  /** The stored form of objects read in another form than JSON, for unchanged(). */
  private readonly storedForms = new WeakMap<RawObject, string>();

  constructor(
    inner: StorageBackend,
    private readonly encoding: StoredEncoding,
  ) {
    super(inner);
  }

  private open(key: string, stored: string): string {
    if (!isProtobufValue(stored)) return stored;
    try {
      return this.encoding.decode(key, stored);
    } catch (err) {
      throw new Error(`unable to decode key "${key}": ${(err as Error).message}`, { cause: err });
    }
  }

  /**
   * Decodes on first use of `value`: a list whose items the API server already has encoded
   * (its encoded-item cache, by key and version) never decodes them.
   */
  protected openRaw(raw: RawObject): RawObject {
    const stored = raw.value;
    if (!isProtobufValue(stored)) return raw;
    let text: string | undefined;
    const open = (): string => (text ??= this.open(raw.key, stored));
    const opened: RawObject = {
      key: raw.key,
      modRV: raw.modRV,
      ...(raw.stale === undefined ? {} : { stale: raw.stale }),
      get value() {
        return open();
      },
    };
    this.storedForms.set(opened, stored);
    return opened;
  }

  /**
   * Decodes on first use too: most subscribers of the hub (the watch caches and watches of other
   * resources) look at an entry's key only, so a create nobody in this process watches is never
   * decoded (each --workers process tails every create of the store).
   */
  protected openEntry(entry: LogEntry): LogEntry {
    const { value, prev } = entry;
    if ((value === undefined || !isProtobufValue(value)) && (prev === undefined || !isProtobufValue(prev)))
      return entry;
    const lazy = (stored: string): (() => string) => {
      let text: string | undefined;
      return () => (text ??= this.open(entry.key, stored));
    };
    const opened: { -readonly [K in keyof LogEntry]: LogEntry[K] } = {
      rv: entry.rv,
      type: entry.type,
      key: entry.key,
    };
    if (entry.prevRV !== undefined) opened.prevRV = entry.prevRV;
    // Getters, not fields: an object literal's spread would call them at once.
    if (value !== undefined) Object.defineProperty(opened, 'value', { get: lazy(value), enumerable: true });
    if (prev !== undefined) Object.defineProperty(opened, 'prev', { get: lazy(prev), enumerable: true });
    return opened;
  }

  /**
   * Whether writing `value` would store what `raw` already holds, compared in the stored form
   * (etcd3 compares the encoded bytes): an object stored in another media type than the one
   * writes use is rewritten by an update that changes nothing, which migrates it.
   */
  unchanged(raw: RawObject, value: string): boolean {
    const stored = this.storedForms.get(raw) ?? raw.value;
    return this.encoding.encode(raw.key, value) === stored;
  }

  write(op: WriteOp): ReturnType<StorageBackend['write']> {
    if (op.kind === 'delete') return this.inner.write(op);
    return this.inner.write({ ...op, value: this.encoding.encode(op.key, op.value) });
  }
}
