/**
 * The AdmissionReview a webhook is sent and what its answer must be (upstream's
 * webhook/request package: CreateAdmissionObjects, VerifyAdmissionResponse). The version is v1
 * when the webhook lists it, else v1beta1 when it lists that.
 */
import { randomUUID } from 'node:crypto';
import type { Status } from '@keel/apimachinery';
import type { AdmissionAttributes } from '../../attributes.js';
import type { WebhookSpec } from './config.js';

export type ReviewVersion = 'v1' | 'v1beta1';

/** The first AdmissionReview version both sides know, in the webhook's order of preference. */
export function reviewVersion(hook: WebhookSpec): ReviewVersion | undefined {
  return (hook.admissionReviewVersions ?? []).find((v): v is ReviewVersion => v === 'v1' || v === 'v1beta1');
}

const OPTIONS_KIND = {
  CREATE: 'CreateOptions',
  UPDATE: 'UpdateOptions',
  DELETE: 'DeleteOptions',
  CONNECT: '',
} as const;

/** The review of one write; `object`/`oldObject` are already in their wire form. */
export function admissionReview(
  version: ReviewVersion,
  attrs: AdmissionAttributes,
  wire: { object: unknown; oldObject: unknown },
): { uid: string; review: Record<string, unknown> } {
  const uid = randomUUID();
  const { user } = attrs;
  const optionsKind = OPTIONS_KIND[attrs.operation];
  const request: Record<string, unknown> = {
    uid,
    kind: attrs.kind,
    resource: attrs.resource,
    ...(attrs.subresource ? { subResource: attrs.subresource } : {}),
    requestKind: attrs.kind,
    requestResource: attrs.resource,
    ...(attrs.subresource ? { requestSubResource: attrs.subresource } : {}),
    ...(attrs.name ? { name: attrs.name } : {}),
    ...(attrs.namespace ? { namespace: attrs.namespace } : {}),
    operation: attrs.operation,
    userInfo: {
      username: user.name,
      ...(user.uid ? { uid: user.uid } : {}),
      ...(user.groups.length > 0 ? { groups: user.groups } : {}),
      ...(Object.keys(user.extra).length > 0 ? { extra: user.extra } : {}),
    },
    object: wire.object ?? null,
    oldObject: wire.oldObject ?? null,
    dryRun: attrs.dryRun,
    ...(optionsKind
      ? {
          options: {
            kind: optionsKind,
            apiVersion: 'meta.k8s.io/v1',
            ...(attrs.dryRun ? { dryRun: ['All'] } : {}),
          },
        }
      : {}),
  };
  return { uid, review: { kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`, request } };
}

/** A webhook's verdict, checked. */
export interface ReviewResponse {
  readonly allowed: boolean;
  readonly result: Partial<Status> | undefined;
  /** The decoded JSON patch text, when there is one. */
  readonly patch: string | undefined;
  readonly auditAnnotations: Readonly<Record<string, string>>;
  readonly warnings: readonly string[];
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function gvkString(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const [group, version] =
    slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  return `${group}/${version}, Kind=${kind}`;
}

/** verifyPatch. */
function checkPatch(patchType: string, patch: string, mutating: boolean): void {
  if (patch === '') {
    if (patchType !== '')
      throw new Error(`webhook returned patchType=${JSON.stringify(patchType)} with no patch`);
    return;
  }
  if (!mutating) throw new Error('validating webhook may not return response.patch');
  if (patchType === '') throw new Error('webhook returned response.patch but not response.patchType');
  if (patchType !== 'JSONPatch')
    throw new Error(`webhook returned invalid response.patchType of ${JSON.stringify(patchType)}`);
}

/** VerifyAdmissionResponse; throws an Error whose message follows `received invalid webhook response: `. */
export function verifyResponse(
  version: ReviewVersion,
  uid: string,
  answer: unknown,
  mutating: boolean,
): ReviewResponse {
  const review = isRecord(answer) ? answer : {};
  const response = review['response'];
  if (!isRecord(response)) throw new Error('webhook response was absent');
  let patchType = str(response['patchType']);
  const patchB64 = str(response['patch']);
  const patch = patchB64 === '' ? '' : Buffer.from(patchB64, 'base64').toString('utf8');
  if (version === 'v1') {
    const got = gvkString(str(review['apiVersion']), str(review['kind']));
    const want = 'admission.k8s.io/v1, Kind=AdmissionReview';
    if (got !== want) throw new Error(`expected webhook response of ${want}, got ${got}`);
    if (str(response['uid']) !== uid)
      throw new Error(
        `expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(str(response['uid']))}`,
      );
  } else if (patch !== '' && mutating && patchType === '') {
    // v1beta1 answers were never checked this strictly: a bare patch is a JSON patch.
    patchType = 'JSONPatch';
  }
  checkPatch(patchType, patch, mutating);
  const annotations = isRecord(response['auditAnnotations']) ? response['auditAnnotations'] : {};
  const warnings = Array.isArray(response['warnings']) ? response['warnings'] : [];
  return {
    allowed: response['allowed'] === true,
    result: isRecord(response['status']) ? response['status'] : undefined,
    patch: patch === '' ? undefined : patch,
    auditAnnotations: Object.fromEntries(
      Object.entries(annotations).filter((e): e is [string, string] => typeof e[1] === 'string'),
    ),
    warnings: warnings.filter((w): w is string => typeof w === 'string'),
  };
}
