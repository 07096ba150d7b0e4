import { isRecord } from '../../webhook/review-request.js';
import type { Attributes, Decision } from '../types.js';

/** The SubjectAccessReview versions a webhook may speak (--authorization-webhook-version). */
export type SubjectAccessReviewVersion = 'v1' | 'v1beta1';

export interface SubjectAccessReviewSpec {
  readonly resourceAttributes?: Readonly<Record<string, string>>;
  readonly nonResourceAttributes?: { readonly path?: string; readonly verb?: string };
  readonly user?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
  readonly uid?: string;
}

export interface SubjectAccessReviewStatus {
  readonly allowed: boolean;
  readonly denied: boolean;
  readonly reason: string;
}

export const BOTH_ALLOWED_AND_DENIED = 'webhook subject access review returned both allow and deny response';

/** Go's omitempty: empty strings, lists and maps are left out. */
function omitEmpty<T extends Record<string, unknown>>(o: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === '' || v === undefined) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (isRecord(v) && Object.keys(v).length === 0) continue;
    out[k] = v;
  }
  return out as Partial<T>;
}

/**
 * The spec kube's webhook authorizer sends, fields in Go's order: the user as authenticated
 * (groups include system:authenticated), and nonResourceAttributes {path, verb} for a
 * non-resource request or resourceAttributes for a resource one. Its JSON is also the cache key.
 */
export function subjectAccessReviewSpec(attrs: Attributes): SubjectAccessReviewSpec {
  const target = attrs.isResourceRequest
    ? {
        resourceAttributes: omitEmpty({
          namespace: attrs.namespace,
          verb: attrs.verb,
          group: attrs.apiGroup,
          version: attrs.apiVersion,
          resource: attrs.resource,
          subresource: attrs.subresource,
          name: attrs.name,
        }) as Record<string, string>,
      }
    : { nonResourceAttributes: omitEmpty({ path: attrs.path, verb: attrs.verb }) };
  return {
    ...target,
    ...omitEmpty({
      user: attrs.user.name,
      groups: [...attrs.user.groups],
      extra: attrs.user.extra,
      uid: attrs.user.uid,
    }),
  };
}

/** The review as sent; v1beta1 names the groups field `group` (its JSON tag), all else is alike. */
export function subjectAccessReviewRequest(
  spec: SubjectAccessReviewSpec,
  version: SubjectAccessReviewVersion = 'v1',
): Record<string, unknown> {
  const wire =
    version === 'v1'
      ? spec
      : {
          // Go's field order; undefined fields are left out of the JSON, as omitempty does.
          resourceAttributes: spec.resourceAttributes,
          nonResourceAttributes: spec.nonResourceAttributes,
          user: spec.user,
          group: spec.groups,
          extra: spec.extra,
          uid: spec.uid,
        };
  return { apiVersion: `authorization.k8s.io/${version}`, kind: 'SubjectAccessReview', spec: wire };
}

export function subjectAccessReviewStatus(answer: unknown): SubjectAccessReviewStatus {
  const s = isRecord(answer) && isRecord(answer['status']) ? answer['status'] : {};
  return {
    allowed: s['allowed'] === true,
    denied: s['denied'] === true,
    reason: typeof s['reason'] === 'string' ? s['reason'] : '',
  };
}

/** kube's reading of the status: denied wins and stops the chain; neither is no opinion. */
export function decisionFromStatus(s: SubjectAccessReviewStatus): Decision {
  if (s.denied && s.allowed) return { decision: 'deny', reason: s.reason, error: BOTH_ALLOWED_AND_DENIED };
  if (s.denied) return { decision: 'deny', reason: s.reason };
  if (s.allowed) return { decision: 'allow', reason: s.reason };
  return { decision: 'noOpinion', reason: s.reason };
}
