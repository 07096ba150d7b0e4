import { invalidObject } from './errors.js';
import type { RawObject } from './backend.js';
import type { StoredMeta } from './storage.js';

/**
 * Serialisation between caller objects and stored text. The stored JSON never holds
 * `metadata.resourceVersion`: the version lives beside the value and is set on every decode,
 * so a stored value never has to be rewritten once the write's revision is known.
 */

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function metaOf(obj: object): StoredMeta | undefined {
  const meta = (obj as { metadata?: unknown }).metadata;
  return isPlainObject(meta) ? meta : undefined;
}

/** Encodes an object for storage, dropping its resourceVersion. */
export function encodeObject(obj: unknown, key: string): string {
  if (!isPlainObject(obj)) throw invalidObject(`object for ${key} must be a JSON object`, key);
  const meta = (obj as { metadata?: unknown }).metadata;
  if (meta !== undefined && !isPlainObject(meta))
    throw invalidObject(`metadata of ${key} must be a JSON object`, key);
  let text: string | undefined;
  try {
    // Without a resourceVersion to drop the object is written as it is, not copied first.
    const plain = meta === undefined || meta['resourceVersion'] === undefined;
    text = JSON.stringify(plain ? obj : { ...obj, metadata: withoutResourceVersion(meta) });
  } catch (err) {
    throw invalidObject(
      `object for ${key} is not JSON-serialisable: ${err instanceof Error ? err.message : String(err)}`,
      key,
    );
  }
  if (text === undefined) throw invalidObject(`object for ${key} is not JSON-serialisable`, key);
  return text;
}

function withoutResourceVersion(meta: Record<string, unknown>): Record<string, unknown> {
  const { resourceVersion: _drop, ...rest } = meta;
  return rest;
}

/** Decodes stored text into a fresh object carrying `rv` as metadata.resourceVersion. */
export function decodeObject<T>(value: string, rv: number): T {
  const obj = JSON.parse(value) as Record<string, unknown>;
  // The parse made fresh objects, so the metadata can take the version in place.
  const meta = obj['metadata'];
  if (isPlainObject(meta)) meta['resourceVersion'] = String(rv);
  else obj['metadata'] = { resourceVersion: String(rv) };
  return obj as T;
}

export const decodeRaw = <T>(raw: RawObject): T => decodeObject<T>(raw.value, raw.modRV);

/** Parses a resourceVersion string; '' and undefined are 0 ("unset"). */
export function parseResourceVersion(rv: string | undefined, key?: string): number {
  if (rv === undefined || rv === '') return 0;
  if (!/^\d+$/.test(rv) || !Number.isSafeInteger(Number(rv))) {
    throw invalidObject(`invalid resource version: ${JSON.stringify(rv)}`, key);
  }
  return Number(rv);
}

export function ttlToMs(ttlSeconds: number | undefined, key: string): number | undefined {
  if (ttlSeconds === undefined) return undefined;
  if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0)
    throw invalidObject(`ttl for ${key} must be a positive number of seconds`, key);
  return Math.max(1, Math.round(ttlSeconds * 1000));
}
