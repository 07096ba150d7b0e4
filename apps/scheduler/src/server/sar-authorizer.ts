import type { Attributes, Authorizer, Decision } from '@keel/auth';
import type { RestClient } from '@keel/client';
import type { Logger } from '@keel/log';
import { errorText, isRecord, postReview, type ReviewRequestOptions } from './review-request.js';
import { TtlCache } from './ttl-cache.js';

export const SUBJECT_ACCESS_REVIEWS_PATH = '/apis/authorization.k8s.io/v1/subjectaccessreviews';

/** kube's webhook authorizer keeps 8192 answers. */
const MAX_CACHED_DECISIONS = 8192;

export const BOTH_ALLOWED_AND_DENIED = 'webhook subject access review returned both allow and deny response';

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

export function subjectAccessReviewRequest(spec: SubjectAccessReviewSpec): Record<string, unknown> {
  return { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec };
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

export interface SubjectAccessReviewAuthorizerOptions extends ReviewRequestOptions {
  readonly allowTtlMs: number;
  readonly denyTtlMs: number;
  readonly logger?: Logger;
  readonly now?: () => number;
}

/**
 * The delegated authorizer (k8s.io/apiserver webhook authorizer with DecisionNoOpinion on error):
 * POSTs a SubjectAccessReview per distinct request and caches the answer, allowed answers for
 * --authorization-webhook-cache-authorized-ttl, the others for the unauthorized TTL. When the
 * server cannot be asked the decision is NoOpinion with the failure as its error, which the
 * filter answers with a 500.
 */
export class SubjectAccessReviewAuthorizer implements Authorizer {
  private readonly cache: TtlCache<SubjectAccessReviewStatus>;

  constructor(
    private readonly client: RestClient,
    private readonly opts: SubjectAccessReviewAuthorizerOptions,
  ) {
    this.cache = new TtlCache(MAX_CACHED_DECISIONS, opts.now);
  }

  async authorize(attrs: Attributes): Promise<Decision> {
    const spec = subjectAccessReviewSpec(attrs);
    const key = JSON.stringify(spec);
    let status = this.cache.get(key);
    if (status === undefined) {
      let answer: unknown;
      try {
        answer = await postReview(
          this.client,
          SUBJECT_ACCESS_REVIEWS_PATH,
          subjectAccessReviewRequest(spec),
          this.opts,
        );
      } catch (err) {
        this.opts.logger?.error('Failed to make webhook authorizer request', { err });
        return { decision: 'noOpinion', reason: '', error: errorText(err) };
      }
      status = subjectAccessReviewStatus(answer);
      this.cache.set(key, status, status.allowed ? this.opts.allowTtlMs : this.opts.denyTtlMs);
    }
    return decisionFromStatus(status);
  }
}

/**
 * kube's path authorizer (--authorization-always-allow-paths): non-resource requests whose path
 * is listed, or starts with a listed prefix ending in `*`, are allowed; the leading slash is not
 * significant. Everything else is no opinion.
 */
export class AlwaysAllowPathsAuthorizer implements Authorizer {
  private readonly exact = new Set<string>();
  private readonly prefixes: string[] = [];

  constructor(paths: readonly string[]) {
    for (const raw of paths) {
      const p = raw.replace(/^\//, '');
      if (p.endsWith('*')) this.prefixes.push(p.slice(0, -1));
      else this.exact.add(p);
    }
  }

  authorize(attrs: Attributes): Promise<Decision> {
    if (attrs.isResourceRequest) return Promise.resolve({ decision: 'noOpinion', reason: '' });
    const p = attrs.path.replace(/^\//, '');
    const allowed = this.exact.has(p) || this.prefixes.some((prefix) => p.startsWith(prefix));
    return Promise.resolve({ decision: allowed ? 'allow' : 'noOpinion', reason: '' });
  }
}
