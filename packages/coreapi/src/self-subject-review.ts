/**
 * authentication.k8s.io SelfSubjectReview (pkg/registry/authentication/selfsubjectreview): the
 * caller's own identity as the server sees it after authentication and impersonation. Served in
 * v1 and, when enabled, v1beta1 and v1alpha1 (the versions kubectl falls back through); the
 * three share one shape. Create-only, never stored.
 */
import {
  always,
  objectMetaSpec,
  str,
  struct,
  wireCodec,
  type Codec,
  type Decoded,
  type ObjectMeta,
} from '@keel/resource';
import { groupTarget } from './scheme.js';
import { userInfoSpec, type UserInfo } from './token-review.js';

const GROUP = 'authentication.k8s.io';
export const SELF_SUBJECT_REVIEW_VERSIONS = ['v1', 'v1beta1', 'v1alpha1'] as const;
export type SelfSubjectReviewVersion = (typeof SELF_SUBJECT_REVIEW_VERSIONS)[number];

export interface SelfSubjectReview {
  metadata: ObjectMeta;
  status?: { userInfo?: UserInfo };
}

function codec(version: SelfSubjectReviewVersion): Codec<SelfSubjectReview> {
  return wireCodec<SelfSubjectReview>(
    { ...groupTarget(GROUP, 'SelfSubjectReview'), version },
    struct(`${version}.SelfSubjectReview`, {
      kind: str,
      apiVersion: str,
      metadata: objectMetaSpec,
      status: always(struct(`${version}.SelfSubjectReviewStatus`, { userInfo: always(userInfoSpec) })),
    }),
  );
}

const codecs = new Map(SELF_SUBJECT_REVIEW_VERSIONS.map((v) => [v, codec(v)]));

function codecFor(version: SelfSubjectReviewVersion): Codec<SelfSubjectReview> {
  const c = codecs.get(version);
  if (!c) throw new Error(`SelfSubjectReview: no codec for ${version}`);
  return c;
}

/** Decodes the request; what it says is ignored, only a bad body is refused (400). */
export function decodeSelfSubjectReview(
  body: unknown,
  version: SelfSubjectReviewVersion,
): Decoded<SelfSubjectReview> {
  return codecFor(version).decode(body);
}

/** The answer: a new object created now, holding the caller's user info (extras always written). */
export function selfSubjectReviewResponse(
  version: SelfSubjectReviewVersion,
  user: UserInfo,
  now: Date = new Date(),
): Record<string, unknown> {
  const creationTimestamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return codecFor(version).encode({
    metadata: { creationTimestamp },
    status: { userInfo: { ...user, extra: user.extra ?? {} } },
  });
}

/** Discovery facts of `selfsubjectreviews` in one version. */
export function selfSubjectReviewResource(version: SelfSubjectReviewVersion) {
  return {
    group: GROUP,
    version,
    resource: 'selfsubjectreviews',
    kind: 'SelfSubjectReview',
    singular: 'selfsubjectreview',
    namespaced: false,
    verbs: ['create'],
  } as const;
}
