import type { StatusError } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes, Operation } from '../index.js';
import { chainOf } from '../testing/index.js';

type Json = Record<string, unknown>;

const pods = new Map<string, StoredObject>();
const nodes = new Map<string, StoredObject>();
const chain = chainOf(['NodeRestriction'], {
  objects: (resource) =>
    resource === 'pods'
      ? { get: (ns, name) => pods.get(`${ns}/${name}`), list: () => [...pods.values()] }
      : { get: (_ns, name) => nodes.get(name), list: () => [...nodes.values()] },
  read: () => Promise.resolve(undefined),
  authorizer: { authorize: () => Promise.resolve({ decision: 'allow', reason: '' }) },
  resourcesFor: () => [],
  createNamespace: () => Promise.reject(new Error('not used')),
  list: () => Promise.resolve([]),
  replaceStatus: () => Promise.reject(new Error('not used by NodeRestriction')),
});

const n1 = { name: 'system:node:n1', uid: '', groups: ['system:nodes', 'system:authenticated'], extra: {} };

const RESOURCES: Record<string, [string, string]> = {
  nodes: ['', 'Node'],
  pods: ['', 'Pod'],
  leases: ['coordination.k8s.io', 'Lease'],
  serviceaccounts: ['', 'ServiceAccount'],
  persistentvolumeclaims: ['', 'PersistentVolumeClaim'],
  configmaps: ['', 'ConfigMap'],
};

function attrs(
  operation: Operation,
  resource: string,
  name: string,
  over: Partial<AdmissionAttributes> = {},
): AdmissionAttributes {
  const [group, kind] = RESOURCES[resource] ?? ['', ''];
  return {
    operation,
    resource: { group, version: 'v1', resource },
    subresource: '',
    kind: { group, version: 'v1', kind },
    namespace: resource === 'nodes' ? '' : 'ns',
    name,
    object: undefined,
    oldObject: undefined,
    user: n1,
    dryRun: false,
    ...over,
  };
}

async function refusal(a: AdmissionAttributes): Promise<{ code: number; message: string } | undefined> {
  try {
    await chain.admit(a);
    return undefined;
  } catch (err) {
    const s = (err as StatusError).status;
    return { code: s.code ?? 0, message: s.message ?? '' };
  }
}

const forbidden = (message: string) => ({ code: 403, message });

// The plugin reads stored JSON; StoredObject types only the metadata.
const stored = (o: Json): StoredObject => o as unknown as StoredObject;
const node = (name: string, labels: Record<string, string> = {}, spec: Json = {}): StoredObject =>
  stored({ metadata: { name, labels, uid: `uid-${name}` }, spec });
const pod = (name: string, nodeName: string, extra: Json = {}, meta: Json = {}): StoredObject =>
  stored({
    metadata: { name, namespace: 'ns', uid: `uid-${name}`, ...meta },
    spec: { nodeName, containers: [{ name: 'c', image: 'i' }], ...extra },
  });

describe('NodeRestriction', () => {
  it('leaves users that are not nodes and resources it does not restrict alone', async () => {
    const bob = { ...n1, name: 'bob' };
    expect(
      await refusal(attrs('UPDATE', 'nodes', 'n2', { user: bob, object: node('n2'), oldObject: node('n2') })),
    ).toBeUndefined();
    expect(
      await refusal(attrs('CREATE', 'configmaps', 'c', { object: { metadata: { name: 'c' } } })),
    ).toBeUndefined();
    const unnamed = { ...n1, name: 'system:node:' };
    expect(await refusal(attrs('CREATE', 'configmaps', 'c', { user: unnamed }))).toEqual(
      forbidden('configmaps "c" is forbidden: could not determine node from user "system:node:"'),
    );
  });

  describe('nodes', () => {
    it('lets a node create and update only its own Node', async () => {
      expect(
        await refusal(
          attrs('CREATE', 'nodes', 'n1', { object: node('n1', { 'kubernetes.io/hostname': 'n1' }) }),
        ),
      ).toBeUndefined();
      expect(
        await refusal(
          attrs('UPDATE', 'nodes', 'n1', {
            subresource: 'status',
            object: node('n1'),
            oldObject: node('n1'),
          }),
        ),
      ).toBeUndefined();
      expect(
        await refusal(
          attrs('UPDATE', 'nodes', 'n2', {
            subresource: 'status',
            object: node('n2'),
            oldObject: node('n2'),
          }),
        ),
      ).toEqual(forbidden('nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"'));
      expect(await refusal(attrs('DELETE', 'nodes', 'n2', { oldObject: node('n2') }))).toEqual(
        forbidden('nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"'),
      );
    });

    it('refuses restricted labels on create, listed in order', async () => {
      const labels = {
        'node-restriction.kubernetes.io/tier': 'gold',
        'node-role.kubernetes.io/control-plane': '',
        'node.kubernetes.io/exclude-from-external-load-balancers': '',
        'example.com/own': 'x',
      };
      expect(await refusal(attrs('CREATE', 'nodes', 'n1', { object: node('n1', labels) }))).toEqual(
        forbidden(
          'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: node-restriction.kubernetes.io/tier, node-role.kubernetes.io/control-plane',
        ),
      );
    });

    it('refuses label and taint changes on update', async () => {
      const before = node(
        'n1',
        { 'kubernetes.io/hostname': 'n1' },
        { taints: [{ key: 'k', effect: 'NoSchedule' }] },
      );
      const relabelled = node(
        'n1',
        { 'kubernetes.io/hostname': 'n1', 'foo.k8s.io/bar': 'x' },
        { taints: [{ key: 'k', effect: 'NoSchedule' }] },
      );
      expect(
        await refusal(attrs('UPDATE', 'nodes', 'n1', { object: relabelled, oldObject: before })),
      ).toEqual(forbidden('nodes "n1" is forbidden: is not allowed to modify labels: foo.k8s.io/bar'));
      const untainted = node('n1', { 'kubernetes.io/hostname': 'n1' });
      expect(await refusal(attrs('UPDATE', 'nodes', 'n1', { object: untainted, oldObject: before }))).toEqual(
        forbidden('nodes "n1" is forbidden: node "n1" is not allowed to modify taints'),
      );
      const ownLabel = node(
        'n1',
        { 'kubernetes.io/hostname': 'n1', 'example.com/x': 'y' },
        { taints: [{ key: 'k', effect: 'NoSchedule' }] },
      );
      expect(
        await refusal(attrs('UPDATE', 'nodes', 'n1', { object: ownLabel, oldObject: before })),
      ).toBeUndefined();
    });
  });

  describe('pods', () => {
    it('updates only the status of pods bound to itself, without touching labels', async () => {
      const mine = pod('p', 'n1', {}, { labels: { a: 'b' } });
      const theirs = pod('q', 'n2');
      expect(
        await refusal(attrs('UPDATE', 'pods', 'p', { subresource: 'status', object: mine, oldObject: mine })),
      ).toBeUndefined();
      expect(
        await refusal(
          attrs('UPDATE', 'pods', 'q', { subresource: 'status', object: theirs, oldObject: theirs }),
        ),
      ).toEqual(
        forbidden(
          'pods "q" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself',
        ),
      );
      const relabelled = pod('p', 'n1', {}, { labels: { a: 'c' } });
      expect(
        await refusal(
          attrs('UPDATE', 'pods', 'p', { subresource: 'status', object: relabelled, oldObject: mine }),
        ),
      ).toEqual(forbidden('pods "p" is forbidden: node "n1" cannot update labels through pod status'));
      expect(await refusal(attrs('UPDATE', 'pods', 'p', { object: mine, oldObject: mine }))).toEqual(
        forbidden(
          'pods "p" is forbidden: unexpected operation "UPDATE", node "n1" can only create and delete mirror pods',
        ),
      );
      expect(await refusal(attrs('CREATE', 'pods', 'p', { subresource: 'binding', object: mine }))).toEqual(
        forbidden(
          `pods "p" is forbidden: unexpected pod subresource "binding", only 'status' and 'eviction' are allowed`,
        ),
      );
    });

    it('deletes only pods bound to itself', async () => {
      expect(await refusal(attrs('DELETE', 'pods', 'p', { oldObject: pod('p', 'n1') }))).toBeUndefined();
      expect(await refusal(attrs('DELETE', 'pods', 'q', { oldObject: pod('q', 'n2') }))).toEqual(
        forbidden('pods "q" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself'),
      );
    });

    it('creates only mirror pods bound to itself, owned by its Node, naming nothing else', async () => {
      nodes.set('n1', node('n1'));
      const owner = { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'uid-n1', controller: true };
      const mirror = (extra: Json = {}, meta: Json = {}) =>
        pod('m', 'n1', extra, {
          annotations: { 'kubernetes.io/config.mirror': 'hash' },
          ownerReferences: [owner],
          ...meta,
        });
      const create = (object: StoredObject) => refusal(attrs('CREATE', 'pods', 'm', { object }));
      expect(await create(mirror())).toBeUndefined();
      expect(await create(pod('m', 'n1'))).toEqual(
        forbidden(
          'pods "m" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods',
        ),
      );
      expect(await create(stored({ ...mirror(), spec: { nodeName: 'n2' } }))).toEqual(
        forbidden('pods "m" is forbidden: node "n1" can only create pods with spec.nodeName set to itself'),
      );
      expect(await create(mirror({}, { ownerReferences: [] }))).toEqual(
        forbidden(
          'pods "m" is forbidden: node "n1" can only create pods with an owner reference set to itself',
        ),
      );
      expect(await create(mirror({}, { ownerReferences: [{ ...owner, controller: false }] }))).toEqual(
        forbidden(
          'pods "m" is forbidden: node "n1" can only create pods with a controller owner reference set to itself',
        ),
      );
      expect(await create(mirror({}, { ownerReferences: [{ ...owner, uid: 'old' }] }))).toEqual(
        forbidden('pods "m" is forbidden: node n1 UID mismatch: expected old got uid-n1'),
      );
      expect(await create(mirror({ volumes: [{ name: 'v', secret: { secretName: 's' } }] }))).toEqual(
        forbidden('pods "m" is forbidden: node "n1" can not create pods that reference secrets'),
      );
      expect(await create(mirror({ serviceAccountName: 'sa' }))).toEqual(
        forbidden('pods "m" is forbidden: node "n1" can not create pods that reference a service account'),
      );
      expect(
        await create(mirror({ volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] })),
      ).toEqual(
        forbidden(
          'pods "m" is forbidden: node "n1" can not create pods that reference persistentvolumeclaims',
        ),
      );
    });
  });

  it('lets a node write only its own Lease in the node-lease namespace', async () => {
    const lease = (name: string) => ({ metadata: { name } });
    expect(
      await refusal(attrs('CREATE', 'leases', '', { namespace: 'platform-node-lease', object: lease('n1') })),
    ).toBeUndefined();
    expect(
      await refusal(attrs('CREATE', 'leases', '', { namespace: 'platform-node-lease', object: lease('n2') })),
    ).toEqual(
      forbidden(
        'leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node',
      ),
    );
    expect(
      await refusal(attrs('UPDATE', 'leases', 'n1', { namespace: 'default', object: lease('n1') })),
    ).toEqual(
      forbidden(
        'leases.coordination.k8s.io "n1" is forbidden: can only access leases in the "platform-node-lease" system namespace',
      ),
    );
  });

  it('issues tokens only bound to a pod on itself', async () => {
    pods.set('ns/p', pod('p', 'n1'));
    pods.set('ns/q', pod('q', 'n2'));
    const request = (ref?: Json) => ({
      metadata: {},
      spec: { audiences: ['api'], ...(ref ? { boundObjectRef: ref } : {}) },
    });
    const token = (ref?: Json) =>
      refusal(attrs('CREATE', 'serviceaccounts', 'sa', { subresource: 'token', object: request(ref) }));
    expect(await token({ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'uid-p' })).toBeUndefined();
    expect(await token()).toEqual(
      forbidden('serviceaccounts "sa" is forbidden: node requested token not bound to a pod'),
    );
    expect(await token({ apiVersion: 'v1', kind: 'Pod', name: 'p' })).toEqual(
      forbidden('serviceaccounts "sa" is forbidden: node requested token with a pod binding without a uid'),
    );
    expect(await token({ apiVersion: 'v1', kind: 'Pod', name: 'q', uid: 'uid-q' })).toEqual(
      forbidden(
        'serviceaccounts "sa" is forbidden: node requested token bound to a pod scheduled on a different node',
      ),
    );
    expect(await token({ apiVersion: 'v1', kind: 'Pod', name: 'gone', uid: 'x' })).toEqual({
      code: 404,
      message: 'pod "gone" not found',
    });
  });
});
