import { describe, expect, it } from 'vitest';
import {
  alreadyExists,
  badRequest,
  conflict,
  conflictModified,
  expired,
  forbidden,
  forbiddenByAuthorizer,
  generateNameConflict,
  gone,
  groupKindString,
  internalError,
  methodNotSupported,
  namespaceTerminating,
  notAcceptable,
  notFound,
  qualifiedResourceString,
  requestEntityTooLarge,
  serverTimeout,
  serviceUnavailable,
  StatusError,
  timeout,
  tooLargeResourceVersion,
  tooManyRequests,
  unauthorized,
  unknownError,
  unprocessableEntity,
  unsupportedMediaType,
} from './errors.js';

const events = { group: 'events.k8s.io', resource: 'events' };
const coreEvents = { group: '', resource: 'events' };
const head = '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",';

describe('qualified names', () => {
  it.each([
    [coreEvents, 'events'],
    [events, 'events.events.k8s.io'],
  ])('resource %j → %s', (qr, want) => {
    expect(qualifiedResourceString(qr)).toBe(want);
  });

  it.each([
    [{ group: '', kind: 'Event' }, 'Event'],
    [{ group: 'meta.k8s.io', kind: 'CreateOptions' }, 'CreateOptions.meta.k8s.io'],
  ])('kind %j → %s', (gk, want) => {
    expect(groupKindString(gk)).toBe(want);
  });
});

describe('Status bodies of the constructors', () => {
  it.each<[string, StatusError, string]>([
    [
      'notFound',
      notFound(events, 'x'),
      head + '"message":"events.events.k8s.io \\"x\\" not found","reason":"NotFound","details":{"name":"x","group":"events.k8s.io","kind":"events"},"code":404}',
    ],
    ['notFound core', notFound(coreEvents, 'x'), head + '"message":"events \\"x\\" not found","reason":"NotFound","details":{"name":"x","kind":"events"},"code":404}'],
    [
      'notFound namespace',
      notFound({ group: '', resource: 'namespaces' }, 'ns1'),
      head + '"message":"namespaces \\"ns1\\" not found","reason":"NotFound","details":{"name":"ns1","kind":"namespaces"},"code":404}',
    ],
    [
      'alreadyExists',
      alreadyExists(events, 'x'),
      head + '"message":"events.events.k8s.io \\"x\\" already exists","reason":"AlreadyExists","details":{"name":"x","group":"events.k8s.io","kind":"events"},"code":409}',
    ],
    [
      'generateNameConflict',
      generateNameConflict(events, 'x-abcde'),
      head +
        '"message":"events.events.k8s.io \\"x-abcde\\" already exists, the server was not able to generate a unique name for the object","reason":"AlreadyExists","details":{"name":"x-abcde","group":"events.k8s.io","kind":"events","retryAfterSeconds":1},"code":409}',
    ],
    [
      'conflictModified',
      conflictModified(events, 'x'),
      head +
        '"message":"Operation cannot be fulfilled on events.events.k8s.io \\"x\\": the object has been modified; please apply your changes to the latest version and try again","reason":"Conflict","details":{"name":"x","group":"events.k8s.io","kind":"events"},"code":409}',
    ],
    [
      'conflict (uid precondition)',
      conflict(coreEvents, 'x', 'Precondition failed: UID in precondition: A, UID in object meta: B'),
      head +
        '"message":"Operation cannot be fulfilled on events \\"x\\": Precondition failed: UID in precondition: A, UID in object meta: B","reason":"Conflict","details":{"name":"x","kind":"events"},"code":409}',
    ],
    ['unauthorized', unauthorized(), head + '"message":"Unauthorized","reason":"Unauthorized","code":401}'],
    ['unauthorized empty', unauthorized(''), head + '"message":"not authorized","reason":"Unauthorized","code":401}'],
    [
      'forbidden named',
      forbidden(events, 'x', 'nope'),
      head + '"message":"events.events.k8s.io \\"x\\" is forbidden: nope","reason":"Forbidden","details":{"name":"x","group":"events.k8s.io","kind":"events"},"code":403}',
    ],
    [
      'forbidden unnamed',
      forbidden(events, '', 'nope'),
      head + '"message":"events.events.k8s.io is forbidden: nope","reason":"Forbidden","details":{"group":"events.k8s.io","kind":"events"},"code":403}',
    ],
    ['forbidden without resource', forbidden({ group: '', resource: '' }, '', 'nope'), head + '"message":"forbidden: nope","reason":"Forbidden","details":{},"code":403}'],
    [
      'methodNotSupported',
      methodNotSupported(events, 'watch'),
      head +
        '"message":"watch is not supported on resources of kind \\"events.events.k8s.io\\"","reason":"MethodNotAllowed","details":{"group":"events.k8s.io","kind":"events"},"code":405}',
    ],
    [
      'notAcceptable',
      notAcceptable(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']),
      head +
        '"message":"only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf","reason":"NotAcceptable","code":406}',
    ],
    [
      'unsupportedMediaType',
      unsupportedMediaType(['application/json-patch+json', 'application/merge-patch+json']),
      head +
        '"message":"the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json","reason":"UnsupportedMediaType","code":415}',
    ],
    [
      'expired',
      expired('The resourceVersion for the provided list is too old.'),
      head + '"message":"The resourceVersion for the provided list is too old.","reason":"Expired","code":410}',
    ],
    ['gone', gone('gone away'), head + '"message":"gone away","reason":"Gone","code":410}'],
    [
      'badRequest',
      badRequest('field label not supported: involvedObject.name'),
      head + '"message":"field label not supported: involvedObject.name","reason":"BadRequest","code":400}',
    ],
    [
      'requestEntityTooLarge',
      requestEntityTooLarge(3145728),
      head + '"message":"Request entity too large: limit is 3145728","reason":"RequestEntityTooLarge","code":413}',
    ],
    ['tooManyRequests', tooManyRequests('slow down'), head + '"message":"Too many requests: slow down","reason":"TooManyRequests","code":429}'],
    [
      'tooManyRequests with retry',
      tooManyRequests('slow down', 3),
      head + '"message":"Too many requests: slow down","reason":"TooManyRequests","details":{"retryAfterSeconds":3},"code":429}',
    ],
    [
      'internalError',
      internalError(new Error('boom')),
      head + '"message":"Internal error occurred: boom","reason":"InternalError","details":{"causes":[{"message":"boom"}]},"code":500}',
    ],
    [
      'timeout',
      timeout('request did not complete within the allotted timeout'),
      head + '"message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}',
    ],
    [
      'serverTimeout',
      serverTimeout(events, 'get', 2),
      head +
        '"message":"The get operation against events.events.k8s.io could not be completed at this time, please try again.","reason":"ServerTimeout","details":{"name":"get","group":"events.k8s.io","kind":"events","retryAfterSeconds":2},"code":500}',
    ],
    [
      'serviceUnavailable',
      serviceUnavailable('the request has been made before all known HTTP paths have been installed, please try again', 5),
      head +
        '"message":"the request has been made before all known HTTP paths have been installed, please try again","reason":"ServiceUnavailable","details":{"retryAfterSeconds":5},"code":503}',
    ],
    [
      'tooLargeResourceVersion',
      tooLargeResourceVersion(500, 400),
      head +
        '"message":"Timeout: Too large resource version: 500, current: 400","reason":"Timeout","details":{"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}],"retryAfterSeconds":1},"code":504}',
    ],
    [
      'unprocessableEntity',
      unprocessableEntity(new Error('test failed')),
      head + '"message":"the server rejected our request due to an error in our request","reason":"Invalid","details":{},"code":422}',
    ],
    ['unknownError', unknownError('something odd'), head + '"message":"something odd","code":500}'],
  ])('%s', (_name, err, want) => {
    expect(JSON.stringify(err.status)).toBe(want);
    expect(err).toBeInstanceOf(StatusError);
    expect(err.message).toBe(err.status.message);
    expect(err.code).toBe(err.status.code);
  });
});

describe('forbiddenByAuthorizer', () => {
  it.each([
    [
      { user: 'bob', verb: 'list', resourceRequest: true, group: 'events.k8s.io', resource: 'events', namespace: 'default' },
      '',
      'events.events.k8s.io is forbidden: User "bob" cannot list resource "events" in API group "events.k8s.io" in the namespace "default"',
    ],
    [
      { user: 'bob', verb: 'get', resourceRequest: true, group: '', resource: 'nodes', name: 'n1' },
      '',
      'nodes "n1" is forbidden: User "bob" cannot get resource "nodes" in API group "" at the cluster scope',
    ],
    [
      { user: 'bob', verb: 'create', resourceRequest: true, group: '', resource: 'pods', subresource: 'binding', namespace: 'ns', name: 'p' },
      'no RBAC policy matched',
      'pods "p" is forbidden: User "bob" cannot create resource "pods/binding" in API group "" in the namespace "ns": no RBAC policy matched',
    ],
    [{ user: 'bob', verb: 'get', resourceRequest: false, path: '/livez/etcd' }, '', 'forbidden: User "bob" cannot get path "/livez/etcd"'],
  ])('%j', (attrs, reason, want) => {
    const err = forbiddenByAuthorizer(attrs, reason);
    expect(err.message).toBe(want);
    expect(err.code).toBe(403);
  });

  it('keeps the resource (without subresource) in details', () => {
    const err = forbiddenByAuthorizer({ user: 'u', verb: 'create', resourceRequest: true, resource: 'pods', subresource: 'binding', name: 'p' });
    expect(err.status.details).toEqual({ name: 'p', kind: 'pods' });
  });
});

describe('namespaceTerminating', () => {
  it('adds the NamespaceTerminating cause', () => {
    expect(JSON.stringify(namespaceTerminating(coreEvents, 'x', 'ns').status)).toBe(
      head +
        '"message":"events \\"x\\" is forbidden: unable to create new content in namespace ns because it is being terminated","reason":"Forbidden","details":{"name":"x","kind":"events","causes":[{"reason":"NamespaceTerminating","message":"namespace ns is being terminated","field":"metadata.namespace"}]},"code":403}',
    );
  });
});

describe('StatusError', () => {
  it('keeps a cause without exposing it in the Status', () => {
    const cause = new Error('inner');
    const err = unprocessableEntity(cause);
    expect(err.cause).toBe(cause);
    expect(JSON.stringify(err.status)).not.toContain('inner');
  });
});
