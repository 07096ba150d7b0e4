import {
  applyJsonPatch,
  badRequest,
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
  type SmpSchema,
} from '@keel/apimachinery';
import { auditRequestPatch } from '../../filters/audit.js';
import { pruneApplied } from '../../registry/apply-prune.js';
import { apiVersionOf, qualifiedResource } from '../../registry/resource-view.js';
import { writeObjectAnswer } from './object-answer.js';
import { mediaType, parsePatchJson, parseYamlText, readBody } from './body.js';
import { decodeWithValidation, wireObject } from './decode.js';
import { decodePatched } from './decode-patched.js';
import type { Handler } from './scope.js';
import { writeContext } from './write-context.js';

function patchType(type: string): PatchType {
  if ((patchContentTypes as readonly string[]).includes(type)) return type as PatchType;
  throw unsupportedMediaType(patchContentTypes);
}

function applyPatch(type: PatchType, current: JsonObject, patch: unknown, schema: SmpSchema): JsonValue {
  switch (type) {
    case 'application/json-patch+json':
      return applyJsonPatch(current, patch);
    case 'application/merge-patch+json':
      return applyMergePatch(current, patch);
    case 'application/strategic-merge-patch+json':
      return applyStrategicMergePatch(current, patch, schema);
    default:
      // An apply configuration merges into the live object (Event lists are atomic); pruning
      // and field ownership follow.
      return applyMergePatch(current, patch);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** What the field manager refuses in an apply configuration before looking at the object. */
function checkApplyConfig(config: unknown, apiVersion: string): void {
  const sent = isObject(config) && typeof config['apiVersion'] === 'string' ? config['apiVersion'] : '';
  if (sent !== apiVersion) {
    throw badRequest(
      `Incorrect version specified in apply patch. Specified patch version: ${sent}, expected: ${apiVersion}`,
    );
  }
  const meta = isObject(config) ? config['metadata'] : undefined;
  if (isObject(meta) && meta['managedFields'] !== undefined && meta['managedFields'] !== null) {
    throw badRequest('metadata.managedFields must be nil');
  }
}

/**
 * PATCH a named object: JSON patch, merge patch, strategic merge patch, or an apply configuration
 * (which also creates a missing object). The patch is applied to the view's wire form of the
 * current object, then decoded and validated like an update; a resourceVersion in the patch is a
 * precondition. Storage retries re-apply the patch to the newer object.
 */
export const patchResource: Handler = async (scope, r) => {
  const { req, res, url, info, user } = r;
  const type = patchType(mediaType(req));
  const opts = parsePatchOptions(url.searchParams, type);
  const raw = await readBody(req, scope.maxRequestBodyBytes);
  const isApply = type === 'application/apply-patch+yaml';
  const patch = isApply ? parseYamlText(raw.toString('utf8'), scope.view.kind) : parsePatchJson(raw);
  auditRequestPatch(req, patch);
  const ctx = writeContext(req, res, opts, user);
  if (isApply) checkApplyConfig(patch, apiVersionOf(scope.view));
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
      let patched = applyPatch(type, base, patch, scope.view.smpSchema ?? objectMetaSmpSchema);
      if (isApply && current && isObject(patched) && isObject(patch)) {
        // What this manager applied before and no longer does goes, unless someone else owns it.
        patched = pruneApplied(patched, current.metadata.managedFields ?? [], {
          manager: ctx.fieldManager,
          apiVersion: apiVersionOf(scope.view),
          config: patch,
        }) as JsonObject;
      }
      const { object } = isApply
        ? decodeWithValidation(scope.view, patched, opts.fieldValidation, res)
        : decodePatched(scope.view, type, patched, patch, opts.fieldValidation, res);
      // An apply owns what its configuration set; an update what it changes (managed-fields.ts).
      return { obj: object, wire: wireObject(patch, scope.view, object) };
    },
    { ...ctx, operation: isApply ? 'Apply' : 'Update', force: opts.force === true },
  );
  writeObjectAnswer(scope, r, created ? 201 : 200, obj);
};
