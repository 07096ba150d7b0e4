/**
 * authorization.k8s.io/v1 SubjectAccessReview (pkg/registry/authorization/subjectaccessreview,
 * ValidateSubjectAccessReview): create-only, never stored. Invalid requests are 422s whose kind
 * is empty (Go reads it from the decoded internal object, whose TypeMeta is blank):
 * `.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified`.
 */
import { FieldPath, invalid, invalidValue, type FieldError, type GroupKind, type StatusError } from '@keel/apimachinery';
import {
  objectMetaSpec,
  type ObjectMeta,
  wireCodec,
  type Decoded,
  encodeStruct,
  always,
  bool,
  list,
  map,
  ptr,
  raw,
  str,
  struct,
} from '@keel/resource';
import { groupTarget } from './scheme.js';

export interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  fieldSelector?: unknown;
  labelSelector?: unknown;
}

export interface SubjectAccessReview {
  metadata: ObjectMeta;
  spec?: {
    resourceAttributes?: ResourceAttributes;
    nonResourceAttributes?: { path?: string; verb?: string };
    user?: string;
    groups?: string[];
    extra?: Record<string, string[]>;
    uid?: string;
  };
  status?: { allowed?: boolean; denied?: boolean; reason?: string; evaluationError?: string };
}

const strings = list(str, '[]string');

const sarSpec = struct('v1.SubjectAccessReview', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: always(
    struct('v1.SubjectAccessReviewSpec', {
      resourceAttributes: ptr(
        struct('v1.ResourceAttributes', {
          namespace: str,
          verb: str,
          group: str,
          version: str,
          resource: str,
          subresource: str,
          name: str,
          fieldSelector: ptr(raw),
          labelSelector: ptr(raw),
        }),
      ),
      nonResourceAttributes: ptr(struct('v1.NonResourceAttributes', { path: str, verb: str })),
      user: str,
      groups: strings,
      extra: map(list(str, 'v1.ExtraValue'), 'map[string]v1.ExtraValue'),
      uid: str,
    }),
  ),
  status: struct('v1.SubjectAccessReviewStatus', { allowed: always(bool), denied: bool, reason: str, evaluationError: str }),
});

const codec = wireCodec<SubjectAccessReview>(groupTarget('authorization.k8s.io', 'SubjectAccessReview'), sarSpec);

/** The GroupKind Go's 422 carries: the group, and the (blank) kind of the internal object. */
export const subjectAccessReviewInvalidKind: GroupKind = { group: 'authorization.k8s.io', kind: '' };

/** ValidateSubjectAccessReview. Struct values are printed as Go's internal types in JSON. */
export function validateSubjectAccessReview(sar: SubjectAccessReview): FieldError[] {
  const p = FieldPath.of('spec');
  const spec = sar.spec ?? {};
  const errs: FieldError[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    const shown = { Path: spec.nonResourceAttributes.path ?? '', Verb: spec.nonResourceAttributes.verb ?? '' };
    errs.push(invalidValue(p.child('nonResourceAttributes'), shown, 'cannot be specified in combination with resourceAttributes'));
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    errs.push(invalidValue(p.child('resourceAttributes'), null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  if (!spec.user && !spec.groups?.length) errs.push(invalidValue(p.child('user'), spec.user ?? '', 'at least one of user or group must be specified'));
  const { managedFields: _ignored, ...meta } = sar.metadata;
  if (Object.keys(meta).length > 0) errs.push(invalidValue('metadata', encodeStruct({ ...sar.metadata }, objectMetaSpec), 'must be empty'));
  return errs;
}

/**
 * Decodes and validates a SubjectAccessReview request: 400s for bad bodies, the 422 above for
 * invalid ones.
 */
export function decodeSubjectAccessReview(body: unknown): Decoded<SubjectAccessReview> {
  const decoded = codec.decode(body);
  delete decoded.object.status;
  const errs = validateSubjectAccessReview(decoded.object);
  if (errs.length > 0) throw subjectAccessReviewInvalid(errs);
  return decoded;
}

export function subjectAccessReviewInvalid(errs: readonly FieldError[]): StatusError {
  return invalid(subjectAccessReviewInvalidKind, '', errs);
}

/** An authorizer's answer: Allow, Deny or NoOpinion, with its reason and any evaluation error. */
export interface AuthorizationDecision {
  readonly decision: 'Allow' | 'Deny' | 'NoOpinion';
  readonly reason?: string;
  readonly evaluationError?: string;
}

/** The response body: `status.allowed` always written, `denied` only for a Deny. */
export function subjectAccessReviewResponse(sar: SubjectAccessReview, d: AuthorizationDecision): Record<string, unknown> {
  const status: SubjectAccessReview['status'] = {
    allowed: d.decision === 'Allow',
    ...(d.decision === 'Deny' ? { denied: true } : {}),
    ...(d.reason ? { reason: d.reason } : {}),
    ...(d.evaluationError ? { evaluationError: d.evaluationError } : {}),
  };
  return codec.encode({ ...sar, status });
}

/** Discovery facts of the create-only `subjectaccessreviews` resource (no storage, so no hash). */
export const subjectAccessReviewResource = {
  group: 'authorization.k8s.io',
  version: 'v1',
  resource: 'subjectaccessreviews',
  kind: 'SubjectAccessReview',
  singular: 'subjectaccessreview',
  namespaced: false,
  verbs: ['create'],
} as const;
