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
import { mediaType, parseJson, parseYamlText, readBody } from './body.js';
import { decodeWithValidation, wireObject } from './decode.js';
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
  const text = (await readBody(req, scope.maxRequestBodyBytes)).toString('utf8');
  const isApply = type === 'application/apply-patch+yaml';
  const patch = isApply ? parseYamlText(text, scope.view.kind) : parseJson(text, scope.view.kind);
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
      const { object } = decodeWithValidation(scope.view, patched, opts.fieldValidation, res);
      // The manager owns what its patch set, not the whole object.
      return { obj: object, wire: wireObject(patch) };
    },
    writeContext(req, opts),
  );
  writeObject(req, res, url, created ? 201 : 200, scope.view.encode(obj));
};
