import { forbiddenByAuthorizer, type StatusError } from '@keel/apimachinery';
import type { Attributes } from './types.js';

/**
 * The 403 Status for a request the authorizers did not allow, e.g. `events.events.k8s.io is
 * forbidden: User "bob" cannot list resource "events" in API group "events.k8s.io" in the
 * namespace "default"`, or `forbidden: User "system:anonymous" cannot get path "/livez/etcd"`;
 * `: <reason>` is appended when the authorizer gave one.
 */
export function forbiddenError(attrs: Attributes, reason = ''): StatusError {
  return forbiddenByAuthorizer(
    {
      user: attrs.user.name,
      verb: attrs.verb,
      resourceRequest: attrs.isResourceRequest,
      path: attrs.path,
      group: attrs.apiGroup,
      resource: attrs.resource,
      subresource: attrs.subresource,
      namespace: attrs.namespace,
      name: attrs.name,
    },
    reason,
  );
}

/** Just the message of `forbiddenError`. */
export function forbiddenMessage(attrs: Attributes, reason = ''): string {
  return forbiddenError(attrs, reason).message;
}
