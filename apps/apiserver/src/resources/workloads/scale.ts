import {
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
  badRequest,
  notFound,
  objectMetaSmpSchema,
  parsePatchOptions,
  parseUpdateOptions,
  unsupportedMediaType,
  type FieldValidationDirective,
  type JsonObject,
  type PatchType,
} from '@keel/apimachinery';
import { scaleCodec, scaleInvalid, scaleOf, type Scale, type ScaleAccess } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import { scoped, type ResourceDispatcher } from '../../endpoints/dispatch.js';
import type { DiscoverySubresource } from '../../endpoints/discovery/groups.js';
import {
  decodeObjectBody,
  jsonDuplicates,
  mediaType,
  parsePatchJson,
  readBody,
} from '../../endpoints/handlers/body.js';
import { addWarnings, strictProblems } from '../../endpoints/handlers/decode.js';
import type { Handler, RequestScope } from '../../endpoints/handlers/scope.js';
import { writeContext } from '../../endpoints/handlers/write-context.js';
import { writeResourceObject } from '../../endpoints/respond.js';
import { auditRequestPatch } from '../../filters/audit.js';
import { GenericStore, type WriteContext } from '../../registry/generic-store.js';
import { qualifiedResource, type InternalObject } from '../../registry/resource-view.js';
import type { ScopeDefaults } from '../../server/server.js';
import type { StoredResource } from '../stored.js';

/** Discovery's entry: the Scale kind lives in autoscaling/v1. */
export const scaleSubresource: DiscoverySubresource = {
  name: 'scale',
  kind: 'Scale',
  group: 'autoscaling',
  version: 'v1',
  verbs: ['get', 'patch', 'update'],
};

/** The patch types ScaleREST takes (server-side apply on a Scale is not served). */
const SCALE_PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
] as const;

function scalePatchType(type: string): PatchType {
  if ((SCALE_PATCH_TYPES as readonly string[]).includes(type)) return type as PatchType;
  throw unsupportedMediaType(SCALE_PATCH_TYPES);
}

/** fieldValidation on a Scale body: Strict refuses unknown fields, Warn reports them. */
function decodeScale(
  body: unknown,
  directive: FieldValidationDirective,
  r: { res: Parameters<typeof addWarnings>[0] },
  duplicates: () => readonly string[] = () => [],
): Scale {
  const decoded = scaleCodec.decode(body);
  if (directive === 'Ignore') return decoded.object;
  const problems = strictProblems(decoded, duplicates());
  if (problems.length === 0) return decoded.object;
  if (directive === 'Strict')
    throw badRequest(
      `Scale in version "v1" cannot be handled as a Scale: strict decoding error: ${problems.join(', ')}`,
    );
  addWarnings(r.res, problems);
  return decoded.object;
}

/**
 * `<resource>/scale` (get, update, patch) of a stored workload: the workload's Scale out, and a
 * written Scale's spec.replicas into the workload through the resource's own update (so the
 * workload's validation and admission apply, with subresource `scale`). The Scale's
 * resourceVersion is the precondition: a stale one is the workload's 409.
 */
export function installScale<W extends InternalObject>(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
  parent: StoredResource,
  access: ScaleAccess<W>,
): DiscoverySubresource {
  const view = parent.scope.view;
  const store = new GenericStore<InternalObject>({
    storage,
    view,
    views: [view],
    keyRoot: parent.store.keyRootPath,
    admission: defaults.admission,
    garbageCollection: { enabled: defaults.garbageCollector },
    subresource: 'scale',
  });
  const qr = qualifiedResource(view);
  const asWorkload = (o: InternalObject) => o as W;
  const encodeScale = (o: InternalObject) => scaleCodec.encode(scaleOf(access, asWorkload(o)));

  /** Writes the Scale `next` computes from the current workload (a PUT's body, or a patch's result). */
  const write = async (
    namespace: string,
    name: string,
    next: (current: InternalObject) => Scale,
    ctx: WriteContext,
  ): Promise<InternalObject> => {
    const { obj } = await store.update(
      namespace,
      name,
      (current) => {
        if (!current) throw notFound(qr, name);
        const scale = next(current);
        const sentNamespace = scale.metadata.namespace ?? '';
        if (sentNamespace !== '' && sentNamespace !== namespace)
          throw badRequest(
            `the namespace of the object (${sentNamespace}) does not match the namespace on the request (${namespace})`,
          );
        scale.metadata.namespace = namespace;
        const bad = scaleInvalid(scale);
        if (bad) throw bad;
        const updated = access.withReplicas(asWorkload(current), scale.spec?.replicas ?? 0);
        // The Scale's resourceVersion is the workload's precondition ('' updates unconditionally).
        updated.metadata.resourceVersion = scale.metadata.resourceVersion ?? '';
        return { obj: updated, wire: view.encode(updated) };
      },
      ctx,
    );
    return obj;
  };

  const get: Handler = async (_scope, r) => {
    const obj = await store.get(r.info.namespace, r.info.name);
    writeResourceObject(r.req, r.res, r.url, 200, encodeScale(obj));
  };

  const update: Handler = async (scope, { req, res, url, info, user }) => {
    const opts = parseUpdateOptions(url.searchParams);
    const raw = await readBody(req, scope.maxRequestBodyBytes);
    const body = await decodeObjectBody(req, raw, 'Scale');
    const scale = decodeScale(body, opts.fieldValidation, { res }, () => jsonDuplicates(req, raw));
    const sentName = scale.metadata.name ?? '';
    if (sentName === '')
      throw badRequest(
        `the name of the object (${info.name} based on URL) was undeterminable: name must be provided`,
      );
    if (sentName !== info.name)
      throw badRequest(
        `the name of the object (${sentName}) does not match the name on the URL (${info.name})`,
      );
    const obj = await write(
      info.namespace,
      info.name,
      () => structuredClone(scale),
      writeContext(req, res, opts, user),
    );
    writeResourceObject(req, res, url, 200, encodeScale(obj));
  };

  const patch: Handler = async (scope, { req, res, url, info, user }) => {
    const type = scalePatchType(mediaType(req));
    const opts = parsePatchOptions(url.searchParams, type);
    const raw = await readBody(req, scope.maxRequestBodyBytes);
    const body = parsePatchJson(raw);
    auditRequestPatch(req, body);
    const obj = await write(
      info.namespace,
      info.name,
      (current) => {
        const base = encodeScale(current) as JsonObject;
        const patched =
          type === 'application/json-patch+json'
            ? applyJsonPatch(base, body)
            : type === 'application/merge-patch+json'
              ? applyMergePatch(base, body)
              : applyStrategicMergePatch(base, body, objectMetaSmpSchema);
        const scale = decodeScale(patched, opts.fieldValidation, { res });
        if ((scale.metadata.name ?? '') !== info.name)
          throw badRequest(
            `the name of the object (${scale.metadata.name ?? ''}) does not match the name on the URL (${info.name})`,
          );
        return scale;
      },
      writeContext(req, res, opts, user),
    );
    writeResourceObject(req, res, url, 200, encodeScale(obj));
  };

  const scope: RequestScope = { ...defaults, store, view };
  dispatcher.addSubresource('scale', scope, {
    get: scoped(scope, get),
    update: scoped(scope, update),
    patch: scoped(scope, patch),
  });
  return scaleSubresource;
}
