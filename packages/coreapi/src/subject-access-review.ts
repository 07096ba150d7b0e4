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

/** The attributes a review asks about, shared by every access review kind. */
export const resourceAttributesSpec = ptr(
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
);
export const nonResourceAttributesSpec = ptr(struct('v1.NonResourceAttributes', { path: str, verb: str }));
export const accessReviewStatusSpec = struct('v1.SubjectAccessReviewStatus', {
  allowed: always(bool),
  denied: bool,
  reason: str,
  evaluationError: str,
});

/** The spec SubjectAccessReview and LocalSubjectAccessReview share. */
export const subjectAccessReviewSpecSpec = always(
  struct('v1.SubjectAccessReviewSpec', {
    resourceAttributes: resourceAttributesSpec,
    nonResourceAttributes: nonResourceAttributesSpec,
    user: str,
    groups: strings,
    extra: map(list(str, 'v1.ExtraValue'), 'map[string]v1.ExtraValue'),
    uid: str,
  }),
);

const sarSpec = struct('v1.SubjectAccessReview', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: subjectAccessReviewSpecSpec,
  status: accessReviewStatusSpec,
});

const codec = wireCodec<SubjectAccessReview>(groupTarget('authorization.k8s.io', 'SubjectAccessReview'), sarSpec);

/** The GroupKind Go's 422 carries: the group, and the (blank) kind of the internal object. */
export const subjectAccessReviewInvalidKind: GroupKind = { group: 'authorization.k8s.io', kind: '' };

/** The attribute checks every access review spec shares (ValidateSelfSubjectAccessReviewSpec). */
export function validateAccessReviewAttributes(spec: {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: { path?: string; verb?: string };
}): FieldError[] {
  const p = FieldPath.of('spec');
  const errs: FieldError[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    const shown = { Path: spec.nonResourceAttributes.path ?? '', Verb: spec.nonResourceAttributes.verb ?? '' };
    errs.push(invalidValue(p.child('nonResourceAttributes'), shown, 'cannot be specified in combination with resourceAttributes'));
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    // Go prints a nil value as the string "null", quoted.
    errs.push(invalidValue(p.child('resourceAttributes'), 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  return errs;
}

/** ValidateSubjectAccessReviewSpec: the attributes, and someone to ask about. */
export function validateSubjectAccessReviewSpec(spec: NonNullable<SubjectAccessReview['spec']>): FieldError[] {
  const errs = validateAccessReviewAttributes(spec);
  if (!spec.user && !spec.groups?.length) errs.push(invalidValue(FieldPath.of('spec').child('user'), spec.user ?? '', 'at least one of user or group must be specified'));
  return errs;
}

/** The metadata of a review as Go prints it in a `must be empty` error. */
export function shownMetadata(meta: ObjectMeta): unknown {
  return encodeStruct({ ...meta }, objectMetaSpec);
}

/** Whether a review's metadata is empty; managedFields are never kept on a create, so they do not count. */
export function metadataEmpty(meta: ObjectMeta, except: readonly string[] = []): boolean {
  return Object.keys(meta).every((k) => k === 'managedFields' || except.includes(k));
}

/** ValidateSubjectAccessReview. Struct values are printed as Go's internal types in JSON. */
export function validateSubjectAccessReview(sar: SubjectAccessReview): FieldError[] {
  const errs = validateSubjectAccessReviewSpec(sar.spec ?? {});
  if (!metadataEmpty(sar.metadata)) errs.push(invalidValue('metadata', shownMetadata(sar.metadata), 'must be empty'));
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

/** A review's status: `allowed` always written, `denied` only for a Deny. */
export function accessReviewStatus(d: AuthorizationDecision): NonNullable<SubjectAccessReview['status']> {
  return {
    allowed: d.decision === 'Allow',
    ...(d.decision === 'Deny' ? { denied: true } : {}),
    ...(d.reason ? { reason: d.reason } : {}),
    ...(d.evaluationError ? { evaluationError: d.evaluationError } : {}),
  };
}

/** The response body: the request with its status. */
export function subjectAccessReviewResponse(sar: SubjectAccessReview, d: AuthorizationDecision): Record<string, unknown> {
  return codec.encode({ ...sar, status: accessReviewStatus(d) });
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
