/**
 * Where a store keeps its data in Redis. Every key starts with the store prefix in braces, a
 * Redis Cluster hash tag: all keys of one store live in one slot, which lets a single Lua script
 * touch the counter, the object, the index and the log atomically. On a Cluster each resource is
 * a store of its own (`{/registry/pods}`, see ShardedStorage), so resources spread over the
 * masters while each stays in one slot.
 */
export interface Keyspace {
  /** String: the resourceVersion counter (INCR). */
  readonly rv: string;
  /** String: the newest resourceVersion dropped from the log. */
  readonly compacted: string;
  /** Stream: the event log, entry IDs `<rv>-0`. */
  readonly log: string;
  /** Sorted set, every score 0: all object keys, ordered for ZRANGEBYLEX. */
  readonly index: string;
  /** Sorted set: object keys scored by logical expiry time (ms since the epoch). */
  readonly expiry: string;
  /**
   * Hash: object key -> resourceVersion of its last write, so a keys-only page reads a thousand
   * versions with one HMGET instead of one HGET per object hash. Trusted only while `versionsAt`
   * equals `rv` (see page-script.ts); keys written before this layout have no entry.
   */
  readonly versions: string;
  /** String: the resourceVersion up to which `versions` saw every write (a write by an older server moves `rv` past it). */
  readonly versionsAt: string;
  /** Prefix of the object hashes: `objectPrefix + key` holds fields `v` (JSON) and `rv`. */
  readonly objectPrefix: string;
  object(key: string): string;
}

export function keyspace(prefix: string): Keyspace {
  if (/[{}]/.test(prefix))
    throw new Error(
      `store prefix ${JSON.stringify(prefix)} must not contain '{' or '}' (used for the Redis Cluster hash tag)`,
    );
  const base = `{${prefix}}`;
  const objectPrefix = `${base}:obj:`;
  return {
    rv: `${base}:rv`,
    compacted: `${base}:compacted`,
    log: `${base}:log`,
    index: `${base}:index`,
    expiry: `${base}:expiry`,
    versions: `${base}:versions`,
    versionsAt: `${base}:versions-at`,
    objectPrefix,
    object: (key) => objectPrefix + key,
  };
}
