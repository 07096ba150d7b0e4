import {
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
  notFound,
  objectMetaSmpSchema,
  parsePatchOptions,
  patchContentTypes,
  unsupportedMediaType,
  type JsonObject,
  type JsonValue,
  type PatchType,
} from '@keel/apimachinery';
import { qualifiedResource } from '../../registry/resource-view.js';
import { writeObject } from '../respond.js';
import { mediaType, parsePatchJson, parseYamlText, readBody } from './body.js';
import { decodeWithValidation, wireObject } from './decode.js';
import { decodePatched } from './decode-patched.js';
import type { Handler } from './scope.js';
import { writeContext } from './write-context.js';

function patchType(type: string): PatchType {
  if ((patchContentTypes as readonly string[]).includes(type)) return type as PatchType;
  throw unsupportedMediaType(patchContentTypes);
}

function applyPatch(type: PatchType, current: JsonObject, patch: unknown): JsonValue {
  switch (type) {
    case 'application/json-patch+json':
      return applyJsonPatch(current, patch);
    case 'application/merge-patch+json':
      return applyMergePatch(current, patch);
    case 'application/strategic-merge-patch+json':
      return applyStrategicMergePatch(current, patch, objectMetaSmpSchema);
    default:
      // Apply configurations merge into the live object; field ownership and conflicts come with
      // full server-side apply.
      return applyMergePatch(current, patch);
  }
}

/**
 * PATCH a named object: JSON patch, merge patch, strategic merge patch, or an apply configuration
 * (which also creates a missing object). The patch is applied to the view's wire form of the
 * current object, then decoded and validated like an update; a resourceVersion in the patch is a
 * precondition. Storage retries re-apply the patch to the newer object.
 */
export const patchResource: Handler = async (scope, { req, res, url, info }) => {
  const type = patchType(mediaType(req));
  const opts = parsePatchOptions(url.searchParams, type);
  const raw = await readBody(req, scope.maxRequestBodyBytes);
  const isApply = type === 'application/apply-patch+yaml';
  const patch = isApply ? parseYamlText(raw.toString('utf8'), scope.view.kind) : parsePatchJson(raw);
  const { obj, created } = await scope.store.update(
    info.namespace,
    info.name,
    (current) => {
      if (!current && !isApply) throw notFound(qualifiedResource(scope.view), info.name);
      const base: JsonObject = current
        ? (scope.view.encode(current) as JsonObject)
        : {
            apiVersion:
              scope.view.group === '' ? scope.view.version : `${scope.view.group}/${scope.view.version}`,
            kind: scope.view.kind,
            metadata: { name: info.name, namespace: info.namespace },
          };
      const patched = applyPatch(type, base, patch);
      const { object } = isApply
        ? decodeWithValidation(scope.view, patched, opts.fieldValidation, res)
        : decodePatched(scope.view, type, patched, patch, opts.fieldValidation, res);
      // An apply owns what its configuration set; an update what it changes (managed-fields.ts).
      return { obj: object, wire: wireObject(patch, scope.view, object) };
    },
    { ...writeContext(req, opts), operation: isApply ? 'Apply' : 'Update' },
  );
  writeObject(req, res, url, created ? 201 : 200, scope.view.encode(obj));
};
