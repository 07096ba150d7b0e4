/**
 * authorization.k8s.io/v1 SelfSubjectAccessReview, LocalSubjectAccessReview and
 * SelfSubjectRulesReview (pkg/registry/authorization): create-only, never stored. Like
 * SubjectAccessReview, invalid requests are 422s whose kind is blank.
 */
import { badRequest, invalidValue, type FieldError } from '@keel/apimachinery';
import {
  always,
  bool,
  list,
  objectMetaSpec,
  str,
  struct,
  wireCodec,
  type Decoded,
  type ObjectMeta,
} from '@keel/resource';
import { groupTarget } from './scheme.js';
import {
  accessReviewStatus,
  accessReviewStatusSpec,
  metadataEmpty,
  nonResourceAttributesSpec,
  resourceAttributesSpec,
  shownMetadata,
  subjectAccessReviewInvalid,
  subjectAccessReviewSpecSpec,
  validateAccessReviewAttributes,
  validateSubjectAccessReviewSpec,
  type AuthorizationDecision,
  type SubjectAccessReview,
} from './subject-access-review.js';

const GROUP = 'authorization.k8s.io';
const strings = list(str, '[]string');

export interface SelfSubjectAccessReview {
  metadata: ObjectMeta;
  spec?: Pick<NonNullable<SubjectAccessReview['spec']>, 'resourceAttributes' | 'nonResourceAttributes'>;
  status?: SubjectAccessReview['status'];
}

const ssarCodec = wireCodec<SelfSubjectAccessReview>(
  groupTarget(GROUP, 'SelfSubjectAccessReview'),
  struct('v1.SelfSubjectAccessReview', {
    kind: str,
    apiVersion: str,
    metadata: objectMetaSpec,
    spec: always(
      struct('v1.SelfSubjectAccessReviewSpec', {
        resourceAttributes: resourceAttributesSpec,
        nonResourceAttributes: nonResourceAttributesSpec,
      }),
    ),
    status: accessReviewStatusSpec,
  }),
);

/** Decodes a SelfSubjectAccessReview and applies ValidateSelfSubjectAccessReview (422s). */
export function decodeSelfSubjectAccessReview(body: unknown): Decoded<SelfSubjectAccessReview> {
  const decoded = ssarCodec.decode(body);
  delete decoded.object.status;
  const review = decoded.object;
  const errs = validateAccessReviewAttributes(review.spec ?? {});
  if (!metadataEmpty(review.metadata)) {
    errs.push(invalidValue('metadata', shownMetadata(review.metadata), 'must be empty'));
  }
  if (errs.length > 0) throw subjectAccessReviewInvalid(errs);
  return decoded;
}

export function selfSubjectAccessReviewResponse(
  review: SelfSubjectAccessReview,
  d: AuthorizationDecision,
): Record<string, unknown> {
  return ssarCodec.encode({ ...review, status: accessReviewStatus(d) });
}

const lsarCodec = wireCodec<SubjectAccessReview>(
  groupTarget(GROUP, 'LocalSubjectAccessReview'),
  struct('v1.LocalSubjectAccessReview', {
    kind: str,
    apiVersion: str,
    metadata: objectMetaSpec,
    spec: subjectAccessReviewSpecSpec,
    status: accessReviewStatusSpec,
  }),
);

/**
 * Decodes a LocalSubjectAccessReview posted to a namespace (whose metadata.namespace the caller
 * has already reconciled with the path) and applies ValidateLocalSubjectAccessReview: the
 * attributes must name that namespace and non-resource attributes are refused.
 */
export function decodeLocalSubjectAccessReview(
  body: unknown,
  requestNamespace: string,
  objectNamespace: (sent: string | undefined) => string,
): Decoded<SubjectAccessReview> {
  if (requestNamespace === '') throw badRequest('namespace is required on this type: ');
  const decoded = lsarCodec.decode(body);
  delete decoded.object.status;
  const review = decoded.object;
  review.metadata.namespace = objectNamespace(review.metadata.namespace);
  const namespace = review.metadata.namespace;
  const spec = review.spec ?? {};
  const errs: FieldError[] = validateSubjectAccessReviewSpec(spec);
  if (!metadataEmpty(review.metadata, ['namespace'])) {
    errs.push(invalidValue('metadata', shownMetadata(review.metadata), 'must be empty except for namespace'));
  }
  const ra = spec.resourceAttributes;
  if (ra && (ra.namespace ?? '') !== namespace) {
    errs.push(
      invalidValue('spec.resourceAttributes.namespace', ra.namespace ?? '', 'must match metadata.namespace'),
    );
  }
  if (spec.nonResourceAttributes) {
    const shown = {
      Path: spec.nonResourceAttributes.path ?? '',
      Verb: spec.nonResourceAttributes.verb ?? '',
    };
    errs.push(invalidValue('spec.nonResourceAttributes', shown, 'disallowed on this kind of request'));
  }
  if (errs.length > 0) throw subjectAccessReviewInvalid(errs);
  return decoded;
}

export function localSubjectAccessReviewResponse(
  review: SubjectAccessReview,
  d: AuthorizationDecision,
): Record<string, unknown> {
  return lsarCodec.encode({ ...review, status: accessReviewStatus(d) });
}

export interface SelfSubjectRulesReview {
  metadata: ObjectMeta;
  spec?: { namespace?: string };
  status?: Record<string, unknown>;
}

/** The rules of a SelfSubjectRulesReview answer (authorization/v1 ResourceRule, NonResourceRule). */
export interface SubjectRules {
  readonly resourceRules: readonly {
    readonly verbs: readonly string[];
    readonly apiGroups: readonly string[];
    readonly resources: readonly string[];
    readonly resourceNames: readonly string[];
  }[];
  readonly nonResourceRules: readonly {
    readonly verbs: readonly string[];
    readonly nonResourceURLs: readonly string[];
  }[];
  readonly incomplete: boolean;
  readonly evaluationError?: string;
}

const ssrrCodec = wireCodec<SelfSubjectRulesReview>(
  groupTarget(GROUP, 'SelfSubjectRulesReview'),
  struct('v1.SelfSubjectRulesReview', {
    kind: str,
    apiVersion: str,
    metadata: objectMetaSpec,
    spec: always(struct('v1.SelfSubjectRulesReviewSpec', { namespace: str })),
    status: struct('v1.SubjectRulesReviewStatus', {
      resourceRules: always(
        list(
          struct('v1.ResourceRule', {
            verbs: always(strings),
            apiGroups: strings,
            resources: strings,
            resourceNames: strings,
          }),
          '[]v1.ResourceRule',
        ),
      ),
      nonResourceRules: always(
        list(
          struct('v1.NonResourceRule', { verbs: always(strings), nonResourceURLs: strings }),
          '[]v1.NonResourceRule',
        ),
      ),
      incomplete: always(bool),
      evaluationError: str,
    }),
  }),
);

/** Decodes a SelfSubjectRulesReview; a review without spec.namespace is kube's 400. */
export function decodeSelfSubjectRulesReview(body: unknown): Decoded<SelfSubjectRulesReview> {
  const decoded = ssrrCodec.decode(body);
  if (!decoded.object.spec?.namespace) throw badRequest('no namespace on request');
  return decoded;
}

/** The answer is a new object: kube does not echo the request's spec or metadata. */
export function selfSubjectRulesReviewResponse(rules: SubjectRules): Record<string, unknown> {
  const status = {
    resourceRules: rules.resourceRules.map((r) => ({
      verbs: [...r.verbs],
      apiGroups: [...r.apiGroups],
      resources: [...r.resources],
      resourceNames: [...r.resourceNames],
    })),
    nonResourceRules: rules.nonResourceRules.map((r) => ({
      verbs: [...r.verbs],
      nonResourceURLs: [...r.nonResourceURLs],
    })),
    incomplete: rules.incomplete,
    ...(rules.evaluationError ? { evaluationError: rules.evaluationError } : {}),
  };
  return ssrrCodec.encode({ metadata: {}, spec: {}, status });
}

const resource = (name: string, kind: string, namespaced = false) =>
  ({
    group: GROUP,
    version: 'v1',
    resource: name,
    kind,
    singular: name.slice(0, -1),
    namespaced,
    verbs: ['create'],
  }) as const;

/** Discovery facts of the three create-only resources. */
export const selfSubjectAccessReviewResource = resource(
  'selfsubjectaccessreviews',
  'SelfSubjectAccessReview',
);
export const localSubjectAccessReviewResource = resource(
  'localsubjectaccessreviews',
  'LocalSubjectAccessReview',
  true,
);
export const selfSubjectRulesReviewResource = resource('selfsubjectrulesreviews', 'SelfSubjectRulesReview');
