/**
 * JSON patch (RFC 6902) and JSON merge patch (RFC 7386) as the API server applies them.
 * Inputs are never mutated. Failures map to the real server's Status errors:
 * - a patch document that is not a list of operations: 400 BadRequest with the decode error;
 * - more than 10000 operations: 413;
 * - an operation that does not apply, including a failing `test`: 422 Invalid with Go's fixed
 *   text `the server rejected our request due to an error in our request` (the detail is only
 *   kept as the error's cause, as the real server drops it too);
 * - a merge patch that is not a JSON object: 400 `Invalid JSON Patch`.
 */
import jsonpatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { badRequest, requestEntityTooLarge, unprocessableEntity } from './errors.js';
import { goJsonKind, goJsonMarshal } from './go-format.js';
import { cloneJson, isJsonObject, pruneNulls, type JsonObject, type JsonValue } from './json.js';

export const maxJsonPatchOperations = 10000;

const knownOps = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** Applies an RFC 6902 patch atomically: all operations or none. */
export function applyJsonPatch(doc: JsonValue, ops: unknown): JsonValue {
  if (!Array.isArray(ops)) {
    throw badRequest(`json: cannot unmarshal ${goJsonKind(ops)} into Go value of type jsonpatch.Patch`);
  }
  for (const op of ops) {
    if (!isJsonObject(op)) throw badRequest(`json: cannot unmarshal ${goJsonKind(op)} into Go value of type jsonpatch.Operation`);
  }
  if (ops.length > maxJsonPatchOperations) {
    throw requestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${maxJsonPatchOperations}, got ${ops.length}`);
  }
  // fast-json-patch also knows a private `_get` op; Go rejects it like any unknown kind.
  const unknown = (ops as JsonObject[]).find((op) => typeof op['op'] !== 'string' || !knownOps.has(op['op']));
  if (unknown) throw unprocessableEntity(new Error(`Unexpected kind: ${goJsonMarshal(unknown['op'])}`));
  try {
    const result = jsonpatch.applyPatch(cloneJson(doc), cloneJson(ops) as Operation[], true, true, true);
    return result.newDocument;
  } catch (err) {
    throw unprocessableEntity(err);
  }
}

/** evanphx's merge: objects merge key by key, anything else replaces; nulls delete. */
function mergeInto(cur: JsonObject, patch: JsonObject): JsonObject {
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      delete cur[k];
      continue;
    }
    const existing = Object.hasOwn(cur, k) ? cur[k] : undefined;
    if (existing === undefined || existing === null || !isJsonObject(existing)) {
      cur[k] = pruneNulls(v);
    } else if (isJsonObject(v)) {
      cur[k] = mergeInto(existing, v);
    } else {
      cur[k] = v;
    }
  }
  return cur;
}

/** Applies an RFC 7386 merge patch; the patch must be a JSON object. */
export function applyMergePatch(doc: JsonValue, patch: unknown): JsonValue {
  if (!isJsonObject(patch)) throw badRequest('Invalid JSON Patch');
  const p = cloneJson(patch);
  if (!isJsonObject(doc)) return pruneNulls(p);
  return mergeInto(cloneJson(doc), p);
}
