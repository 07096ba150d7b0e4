/** The decoded-JSON value model shared by the patch code. */

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A deep copy of plain JSON data (undefined members are dropped, as JSON would). */
export function cloneJson<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x: unknown) => cloneJson(x)) as T;
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = cloneJson(x);
    return out as T;
  }
  return v;
}

/** Drops null members of objects at any depth; null array elements stay (Go's pruneNulls). */
export function pruneNulls(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map((x) => (x === null ? null : pruneNulls(x)));
  if (isJsonObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = pruneNulls(x);
    return out;
  }
  return v;
}
