/**
 * User impersonation (kube's WithImpersonation): the Impersonate-* headers ask to act as another
 * identity; each part asked for is checked against the `impersonate` verb for the authenticated
 * user, and the request then goes on as the new identity.
 */
import { badRequest, type StatusError } from '@keel/apimachinery';
import { forbiddenError } from '../authz/forbidden.js';
import type { Attributes, Authorizer } from '../authz/types.js';
import { headerNamesWithPrefix, headerValue, headerValues, type MutableRequest } from './headers.js';
import { unescapeExtraKey } from './request-header.js';
import { splitUsername } from './service-account.js';
import {
  ALL_AUTHENTICATED,
  ALL_UNAUTHENTICATED,
  ANONYMOUS_USER,
  type AuthenticationRequest,
  type UserInfo,
} from './types.js';

export const IMPERSONATE_USER_HEADER = 'Impersonate-User';
export const IMPERSONATE_GROUP_HEADER = 'Impersonate-Group';
export const IMPERSONATE_UID_HEADER = 'Impersonate-Uid';
export const IMPERSONATE_EXTRA_HEADER_PREFIX = 'Impersonate-Extra-';

const AUTHENTICATION_V1 = 'authentication.k8s.io/v1';

/** One identity part asked for (kube builds an ObjectReference per part). */
export interface ImpersonationRequest {
  readonly kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  readonly namespace: string;
  readonly name: string;
  /** `authentication.k8s.io/v1` for extras and uids, whose resources live in that group. */
  readonly apiVersion: string;
  /** The extra's key, for UserExtra. */
  readonly fieldPath: string;
}

/** Go's `%v` of an ObjectReference: every field in declaration order, separated by spaces. */
function goReference(r: ImpersonationRequest): string {
  return `{${[r.kind, r.namespace, r.name, '', r.apiVersion, '', r.fieldPath].join(' ')}}`;
}

const part = (
  kind: ImpersonationRequest['kind'],
  name: string,
  more: Partial<ImpersonationRequest> = {},
): ImpersonationRequest => ({ kind, namespace: '', name, apiVersion: '', fieldPath: '', ...more });

/**
 * The parts a request asks to impersonate, in kube's order: user (or service account), groups,
 * extras, uid. Empty when the request does not impersonate. Groups, extras or a uid without a
 * user are refused with a 400 carrying kube's message (kube answers that with a plain-text 500;
 * it is the client's mistake, so Keel says so).
 */
export function impersonationRequests(req: AuthenticationRequest): ImpersonationRequest[] | StatusError {
  // Nearly no request impersonates: one pass over the names settles that.
  if (!sendsImpersonationHeaders(req)) return [];
  const requests: ImpersonationRequest[] = [];
  const user = headerValue(req, IMPERSONATE_USER_HEADER);
  if (user !== '') {
    const sa = splitUsername(user);
    requests.push(sa ? part('ServiceAccount', sa.name, { namespace: sa.namespace }) : part('User', user));
  }
  const groups = headerValues(req, IMPERSONATE_GROUP_HEADER);
  for (const g of groups) requests.push(part('Group', g));
  const extraHeaders = headerNamesWithPrefix(req, IMPERSONATE_EXTRA_HEADER_PREFIX);
  for (const header of extraHeaders) {
    const key = unescapeExtraKey(header.slice(IMPERSONATE_EXTRA_HEADER_PREFIX.length));
    for (const value of headerValues(req, header)) {
      requests.push(part('UserExtra', value, { apiVersion: AUTHENTICATION_V1, fieldPath: key }));
    }
  }
  const uid = headerValue(req, IMPERSONATE_UID_HEADER);
  if (uid !== '') requests.push(part('UID', uid, { apiVersion: AUTHENTICATION_V1 }));
  if ((groups.length > 0 || extraHeaders.length > 0 || uid !== '') && user === '') {
    return badRequest(`requested [${requests.map(goReference).join(' ')}] without impersonating a user`);
  }
  return requests;
}

function sendsImpersonationHeaders(req: AuthenticationRequest): boolean {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const n = raw[i] ?? '';
    if (n.length > 12 && n.slice(0, 12).toLowerCase() === 'impersonate-') return true;
  }
  return false;
}

/** What impersonating a part is authorized as. */
function attributesFor(requestor: UserInfo, r: ImpersonationRequest): Attributes {
  const [group = '', version = ''] = r.apiVersion.includes('/')
    ? r.apiVersion.split('/')
    : ['', r.apiVersion];
  const resource = {
    User: 'users',
    ServiceAccount: 'serviceaccounts',
    Group: 'groups',
    UserExtra: 'userextras',
    UID: 'uids',
  }[r.kind];
  return {
    user: requestor,
    verb: 'impersonate',
    isResourceRequest: true,
    path: '',
    namespace: r.namespace,
    apiGroup: group,
    apiVersion: version,
    resource,
    subresource: r.kind === 'UserExtra' ? r.fieldPath : '',
    name: r.name,
  };
}

/**
 * Checks every part with the authorizer and builds the identity the request continues as, or
 * the 403 for the first part the requestor may not impersonate. When groups are asked for they
 * are the groups (a service account's own groups are not added).
 */
export async function impersonate(
  requestor: UserInfo,
  requests: readonly ImpersonationRequest[],
  authorizer: Authorizer,
): Promise<{ user: UserInfo } | { error: StatusError }> {
  let name = '';
  let uid = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  const groupsSpecified = requests.some((r) => r.kind === 'Group');
  for (const r of requests) {
    switch (r.kind) {
      case 'ServiceAccount':
        name = `system:serviceaccount:${r.namespace}:${r.name}`;
        if (!groupsSpecified) groups = ['system:serviceaccounts', `system:serviceaccounts:${r.namespace}`];
        break;
      case 'User':
        name = r.name;
        break;
      case 'Group':
        groups.push(r.name);
        break;
      case 'UserExtra':
        (extra[r.fieldPath] ??= []).push(r.name);
        break;
      case 'UID':
        uid = r.name;
        break;
    }
    const attrs = attributesFor(requestor, r);
    const { decision, reason, error } = await authorizer.authorize(attrs);
    if (decision !== 'allow' || error !== undefined) return { error: forbiddenError(attrs, reason) };
  }
  if (name !== ANONYMOUS_USER) {
    if (!groups.some((g) => g === ALL_AUTHENTICATED || g === ALL_UNAUTHENTICATED))
      groups.push(ALL_AUTHENTICATED);
  } else if (!groups.includes(ALL_UNAUTHENTICATED)) {
    groups.push(ALL_UNAUTHENTICATED);
  }
  return { user: { name, uid, groups, extra } };
}

/** Removes every Impersonate-* header, from `headers` and `rawHeaders`, once they are applied. */
export function stripImpersonationHeaders(req: MutableRequest): void {
  const drop = (n: string) => {
    const l = n.toLowerCase();
    return (
      l === 'impersonate-user' ||
      l === 'impersonate-group' ||
      l === 'impersonate-uid' ||
      l.startsWith('impersonate-extra-')
    );
  };
  for (const n of Object.keys(req.headers)) if (drop(n)) delete req.headers[n];
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) if (drop(raw[i] ?? '')) raw.splice(i, 2);
}
