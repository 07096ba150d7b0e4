import { describe, expect, it } from 'vitest';
import type { Attributes } from '../types.js';
import { NodeAuthorizer, NodeGraph, podGraphSource } from './index.js';

const graph = new NodeGraph();
graph.set(podGraphSource, {
  metadata: { name: 'p', namespace: 'ns' },
  spec: {
    nodeName: 'n1',
    serviceAccountName: 'sa',
    volumes: [
      { name: 'c', configMap: { name: 'cfg' } },
      { name: 's', secret: { secretName: 'sec' } },
    ],
  },
});
const authorizer = new NodeAuthorizer(graph);

const node1 = {
  name: 'system:node:n1',
  uid: '',
  groups: ['system:nodes', 'system:authenticated'],
  extra: {},
};

function attrs(over: Partial<Attributes>): Attributes {
  return {
    user: node1,
    verb: 'get',
    isResourceRequest: true,
    path: '',
    namespace: '',
    apiGroup: '',
    apiVersion: 'v1',
    resource: '',
    subresource: '',
    name: '',
    ...over,
  };
}

const allow = { decision: 'allow', reason: '' };
const none = (reason = '') => ({ decision: 'noOpinion', reason });
const noRelation = none("no relationship found between node 'n1' and this object");

describe('NodeAuthorizer', () => {
  it.each([
    ['a user without the nodes group', { user: { ...node1, groups: ['system:authenticated'] } }, none()],
    ['a nodes-group member not named system:node:', { user: { ...node1, name: 'bob' } }, none()],
    [
      'a node user without a node name',
      { user: { ...node1, name: 'system:node:' } },
      none('unknown node for user "system:node:"'),
    ],
  ])('has no opinion about %s', async (_what, over, want) => {
    expect(await authorizer.authorize(attrs({ resource: 'nodes', name: 'n1', ...over }))).toEqual(want);
  });

  it.each([
    ['get a configmap its pod uses', { resource: 'configmaps', namespace: 'ns', name: 'cfg' }, allow],
    [
      'watch a secret its pod uses',
      { verb: 'watch', resource: 'secrets', namespace: 'ns', name: 'sec' },
      allow,
    ],
    ['get an unrelated configmap', { resource: 'configmaps', namespace: 'ns', name: 'other' }, noRelation],
    ['get the same name elsewhere', { resource: 'configmaps', namespace: 'x', name: 'cfg' }, noRelation],
    [
      'list configmaps',
      { verb: 'list', resource: 'configmaps', namespace: 'ns' },
      none('No Object name found'),
    ],
    [
      'update a related configmap',
      { verb: 'update', resource: 'configmaps', namespace: 'ns', name: 'cfg' },
      none('can only read resources of this type'),
    ],
    [
      'read configmaps across namespaces',
      { resource: 'configmaps', name: 'cfg' },
      none('can only read namespaced object of this type'),
    ],
    [
      'create a token for its pod’s service account',
      { verb: 'create', resource: 'serviceaccounts', subresource: 'token', namespace: 'ns', name: 'sa' },
      allow,
    ],
    [
      'create a token for another service account',
      { verb: 'create', resource: 'serviceaccounts', subresource: 'token', namespace: 'ns', name: 'other' },
      noRelation,
    ],
    [
      'get a service account',
      { resource: 'serviceaccounts', namespace: 'ns', name: 'sa' },
      none('can only create tokens for individual service accounts'),
    ],
    ['get an unrelated persistent volume', { resource: 'persistentvolumes', name: 'pv' }, noRelation],
    [
      'update its own lease',
      {
        verb: 'update',
        apiGroup: 'coordination.k8s.io',
        resource: 'leases',
        namespace: 'platform-node-lease',
        name: 'n1',
      },
      allow,
    ],
    [
      'create a lease (the name is NodeRestriction’s)',
      {
        verb: 'create',
        apiGroup: 'coordination.k8s.io',
        resource: 'leases',
        namespace: 'platform-node-lease',
      },
      allow,
    ],
    [
      'update another node’s lease',
      {
        verb: 'update',
        apiGroup: 'coordination.k8s.io',
        resource: 'leases',
        namespace: 'platform-node-lease',
        name: 'n2',
      },
      none('can only access node lease with the same name as the requesting node'),
    ],
    [
      'get a lease elsewhere',
      { apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'default', name: 'n1' },
      none('can only access leases in the "platform-node-lease" system namespace'),
    ],
    [
      'list leases',
      { verb: 'list', apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'platform-node-lease' },
      none('can only get, create, update, patch, or delete a node lease'),
    ],
  ])('%s', async (_what, over, want) => {
    expect(await authorizer.authorize(attrs(over))).toEqual(want);
  });

  it.each([
    ['get nodes', { resource: 'nodes', name: 'n2' }, allow],
    ['update node status', { verb: 'patch', resource: 'nodes', subresource: 'status', name: 'n1' }, allow],
    ['list pods everywhere', { verb: 'list', resource: 'pods' }, allow],
    [
      'update pod status',
      { verb: 'update', resource: 'pods', subresource: 'status', namespace: 'ns', name: 'p' },
      allow,
    ],
    ['create events', { verb: 'create', resource: 'events', namespace: 'ns' }, allow],
    ['update a pod', { verb: 'update', resource: 'pods', namespace: 'ns', name: 'p' }, none()],
    ['delete nodes', { verb: 'delete', resource: 'nodes', name: 'n1' }, none()],
    [
      'bind pods',
      { verb: 'create', resource: 'pods', subresource: 'binding', namespace: 'ns', name: 'p' },
      none(),
    ],
    ['create namespaces', { verb: 'create', resource: 'namespaces' }, none()],
    ['get /livez', { isResourceRequest: false, path: '/livez' }, none()],
  ])('static rules: %s', async (_what, over, want) => {
    expect(await authorizer.authorize(attrs(over))).toEqual(want);
  });
});
