/**
 * PartialObjectMetadata and PartialObjectMetadataList (meta.k8s.io v1 and v1beta1): what
 * client-go's metadata client (the garbage collector, the namespace controller,
 * controller-runtime's metadata-only watches) asks for with
 * `Accept: application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1` (or `...List`, or the
 * protobuf media type). The reference's transformObject (handlers/response.go): an object keeps
 * only its metadata, a list its list metadata and each item's metadata; asking for the one on
 * the other is a 406 naming the Go type, and a Status passes through untouched.
 */
import { StatusError } from '@keel/apimachinery';
import type { Convert, MediaTypeOptions } from './media-options.js';

type Json = Record<string, unknown>;

export interface PartialTarget extends Convert {
  readonly kind: 'PartialObjectMetadata' | 'PartialObjectMetadataList';
}

/** The PartialObjectMetadata(List) conversion the negotiated media type asks for, if any. */
export function partialTarget(media: MediaTypeOptions | undefined): PartialTarget | undefined {
  const c = media?.convert;
  return c && (c.kind === 'PartialObjectMetadata' || c.kind === 'PartialObjectMetadataList')
    ? (c as PartialTarget)
    : undefined;
}

/**
 * The Go package of an API group's internal types, as `%T` prints them: the core group (and
 * events.k8s.io, whose Events are core Events) is `core`, the others their first DNS label
 * (rbac.authorization.k8s.io is `rbac`, flowcontrol.apiserver.k8s.io `flowcontrol`).
 */
function internalPackage(group: string): string {
  if (group === '' || group === 'events.k8s.io') return 'core';
  if (group === 'internal.apiserver.k8s.io') return 'apiserverinternal';
  return group.split('.')[0] ?? group;
}

/** `*core.ConfigMap`: the internal object's type as the reference names it in its 406s. */
export function internalTypeName(obj: Json): string {
  const apiVersion = typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '';
  const kind = typeof obj['kind'] === 'string' ? obj['kind'] : '';
  const slash = apiVersion.indexOf('/');
  return `*${internalPackage(slash < 0 ? '' : apiVersion.slice(0, slash))}.${kind}`;
}

function isStatus(obj: Json): boolean {
  return obj['kind'] === 'Status' && obj['apiVersion'] === 'v1';
}

/** meta.IsListType: a list kind with an items member (Keel's wire lists always have one). */
function isList(obj: Json): boolean {
  return typeof obj['kind'] === 'string' && obj['kind'].endsWith('List') && 'items' in obj;
}

/** The handlers' errNotAcceptable: a 406 Status with only a message (no details). */
function notAcceptableConversion(message: string): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'NotAcceptable',
    code: 406,
  });
}

/**
 * meta.AsPartialObjectMetadata: the whole ObjectMeta, as the object's wire form writes it (a
 * review's is `{"creationTimestamp":null}`, Go's zero Time).
 */
function partial(metadata: unknown, target: Convert): Json {
  return {
    kind: 'PartialObjectMetadata',
    apiVersion: `meta.k8s.io/${target.version}`,
    metadata: typeof metadata === 'object' && metadata !== null ? metadata : { creationTimestamp: null },
  };
}

/** asPartialObjectMetadata: one object's metadata; a list is the reference's 406. */
export function asPartialObjectMetadata(obj: Json, target: Convert): Json {
  if (isStatus(obj)) return obj;
  if (isList(obj)) {
    throw notAcceptableConversion(
      `you requested PartialObjectMetadata, but the requested object is a list (${internalTypeName(obj)})`,
    );
  }
  return partial(obj['metadata'], target);
}

/**
 * asPartialObjectMetadataList: each item's metadata and the list's resourceVersion and continue
 * token; remainingItemCount is not carried over (the reference copies only those two), and no
 * items is Go's nil slice, `"items":null`. An object is the reference's 406.
 */
export function asPartialObjectMetadataList(list: Json, target: Convert): Json {
  if (isStatus(list)) return list;
  if (!isList(list)) {
    throw notAcceptableConversion(
      `you requested PartialObjectMetadataList, but the requested object is not a list (${internalTypeName(list)})`,
    );
  }
  const items = Array.isArray(list['items']) ? (list['items'] as Json[]) : [];
  const meta = (list['metadata'] ?? {}) as Json;
  const metadata: Json = {};
  if (typeof meta['resourceVersion'] === 'string' && meta['resourceVersion'] !== '')
    metadata['resourceVersion'] = meta['resourceVersion'];
  if (typeof meta['continue'] === 'string' && meta['continue'] !== '')
    metadata['continue'] = meta['continue'];
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: `meta.k8s.io/${target.version}`,
    metadata,
    items: items.length === 0 ? null : items.map((i) => partial(i['metadata'], target)),
  };
}

/** The response object in the form asked for: unchanged unless a PartialObjectMetadata(List). */
export function transformResponse(obj: Json, target: PartialTarget | undefined): Json {
  if (!target) return obj;
  return target.kind === 'PartialObjectMetadata'
    ? asPartialObjectMetadata(obj, target)
    : asPartialObjectMetadataList(obj, target);
}
