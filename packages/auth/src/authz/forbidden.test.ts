import { describe, expect, it } from 'vitest';
import { forbiddenError, forbiddenMessage } from './forbidden.js';
import type { Attributes } from './types.js';

const base: Attributes = {
  user: { name: 'bob', uid: '', groups: [], extra: {} },
  verb: 'list',
  isResourceRequest: true,
  path: '/apis/events.k8s.io/v1/namespaces/default/events',
  namespace: 'default',
  apiGroup: 'events.k8s.io',
  apiVersion: 'v1',
  resource: 'events',
  subresource: '',
  name: '',
};

describe('forbiddenMessage', () => {
  it.each<[string, Partial<Attributes>, string, string]>([
    [
      'a namespaced list',
      {},
      '',
      'events.events.k8s.io is forbidden: User "bob" cannot list resource "events" in API group "events.k8s.io" in the namespace "default"',
    ],
    [
      'a named object',
      { verb: 'get', name: 'x' },
      '',
      'events.events.k8s.io "x" is forbidden: User "bob" cannot get resource "events" in API group "events.k8s.io" in the namespace "default"',
    ],
    [
      'cluster scope, core group',
      { namespace: '', apiGroup: '', resource: 'nodes' },
      '',
      'nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope',
    ],
    [
      'a subresource',
      { verb: 'create', apiGroup: '', resource: 'pods', subresource: 'binding', name: 'p' },
      '',
      'pods "p" is forbidden: User "bob" cannot create resource "pods/binding" in API group "" in the namespace "default"',
    ],
    [
      'a non-resource path',
      {
        user: { name: 'system:anonymous', uid: '', groups: [], extra: {} },
        verb: 'get',
        isResourceRequest: false,
        path: '/livez/etcd',
      },
      '',
      'forbidden: User "system:anonymous" cannot get path "/livez/etcd"',
    ],
    [
      'with a reason',
      {},
      'Everything is forbidden.',
      'events.events.k8s.io is forbidden: User "bob" cannot list resource "events" in API group "events.k8s.io" in the namespace "default": Everything is forbidden.',
    ],
    [
      'a quote in the user name',
      {
        user: { name: 'a"b', uid: '', groups: [], extra: {} },
        verb: 'get',
        isResourceRequest: false,
        path: '/x',
      },
      '',
      'forbidden: User "a\\"b" cannot get path "/x"',
    ],
  ])('%s', (_name, patch, reason, message) => {
    expect(forbiddenMessage({ ...base, ...patch }, reason)).toBe(message);
  });

  it('builds the 403 Status with the resource details', () => {
    expect(forbiddenError({ ...base, verb: 'get', name: 'x' }).status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'events.events.k8s.io "x" is forbidden: User "bob" cannot get resource "events" in API group "events.k8s.io" in the namespace "default"',
      reason: 'Forbidden',
      details: { name: 'x', group: 'events.k8s.io', kind: 'events' },
      code: 403,
    });
  });
});
