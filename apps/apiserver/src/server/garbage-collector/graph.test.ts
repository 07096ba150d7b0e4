import { describe, expect, it } from 'vitest';
import { DependencyGraph, observe, type ObservedObject, type OwnerReference } from './graph.js';

function recorder() {
  const deletes: string[] = [];
  const orphans: string[] = [];
  const graph = new DependencyGraph({
    attemptToDelete: (uid) => deletes.push(uid),
    attemptToOrphan: (uid) => orphans.push(uid),
  });
  const drain = () => [deletes.splice(0), orphans.splice(0)];
  return { graph, deletes, orphans, drain };
}

const ref = (uid: string, over: Partial<OwnerReference> = {}): OwnerReference => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name: uid,
  uid,
  ...over,
});

function obj(uid: string, over: Partial<ObservedObject> = {}): ObservedObject {
  return { resource: '/configmaps', namespace: 'ns', name: uid, uid, owners: [], finalizers: [], ...over };
}

const deleting = (finalizer: string) => ({
  deletionTimestamp: '2024-01-01T00:00:00Z',
  finalizers: [finalizer],
});

describe('DependencyGraph', () => {
  it('takes what it needs from stored metadata', () => {
    expect(
      observe('/pods', {
        metadata: {
          name: 'p',
          namespace: 'ns',
          uid: 'u',
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'o1', blockOwnerDeletion: true },
          ],
          finalizers: ['orphan'],
          labels: { a: 'b' },
        },
      }),
    ).toEqual({
      resource: '/pods',
      namespace: 'ns',
      name: 'p',
      uid: 'u',
      owners: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'o1', blockOwnerDeletion: true }],
      finalizers: ['orphan'],
    });
  });

  it('looks at a dependent whose owner it has not seen, not at one whose owner it holds', () => {
    const { graph, drain } = recorder();
    graph.upsert(obj('owner'));
    graph.upsert(obj('child', { owners: [ref('owner')] }));
    expect(drain()).toEqual([[], []]);
    graph.upsert(obj('stray', { owners: [ref('missing')] }));
    expect(drain()).toEqual([['stray'], []]);
    expect(graph.dependents('owner').map((d) => d.uid)).toEqual(['child']);
  });

  it('looks at a dependent whose reference names its owner elsewhere', () => {
    const { graph, drain } = recorder();
    graph.upsert(obj('owner', { namespace: 'a' }));
    graph.upsert(obj('other-ns', { namespace: 'b', owners: [ref('owner')] }));
    graph.upsert(obj('wrong-name', { namespace: 'a', owners: [ref('owner', { name: 'x' })] }));
    graph.upsert(obj('cluster-owner', { resource: '/nodes', namespace: '' }));
    graph.upsert(obj('fine', { namespace: 'b', owners: [ref('cluster-owner', { kind: 'Node' })] }));
    expect(drain()).toEqual([['other-ns', 'wrong-name'], []]);
  });

  it('an owner going away sends its dependents to be looked at', () => {
    const { graph, drain } = recorder();
    graph.upsert(obj('owner'));
    graph.upsert(obj('a', { owners: [ref('owner')] }));
    graph.upsert(obj('b', { owners: [ref('owner')] }));
    graph.remove('owner');
    expect(drain()).toEqual([['a', 'b'], []]);
    expect(graph.node('owner')).toBeUndefined();
    // Still referenced: a dependent added later is looked at too.
    graph.upsert(obj('c', { owners: [ref('owner')] }));
    expect(drain()).toEqual([['c'], []]);
  });

  it('an owner starting to orphan goes to attemptToOrphan once', () => {
    const { graph, drain } = recorder();
    graph.upsert(obj('owner'));
    graph.upsert(obj('owner', deleting('orphan')));
    graph.upsert(obj('owner', { ...deleting('orphan'), finalizers: ['orphan', 'x'] }));
    expect(drain()).toEqual([[], ['owner']]);
  });

  it('an owner starting foreground deletion sends itself and its dependents; blocking ones hold it', () => {
    const { graph, drain } = recorder();
    graph.upsert(obj('owner'));
    graph.upsert(obj('blocker', { owners: [ref('owner', { blockOwnerDeletion: true })] }));
    graph.upsert(obj('loose', { owners: [ref('owner')] }));
    graph.upsert(obj('owner', deleting('foregroundDeletion')));
    expect(drain()).toEqual([['blocker', 'loose', 'owner'], []]);
    expect(graph.blockingDependents('owner').map((d) => d.uid)).toEqual(['blocker']);
    // The loose one going brings the owner back; so does the blocker no longer blocking.
    graph.remove('loose');
    expect(drain()).toEqual([['owner'], []]);
    graph.upsert(obj('blocker', { owners: [ref('owner', { blockOwnerDeletion: false })] }));
    expect(drain()).toEqual([['owner'], []]);
    expect(graph.blockingDependents('owner')).toEqual([]);
    // A dependent added to an owner that waits for its dependents is looked at at once.
    graph.upsert(obj('newcomer', { owners: [ref('owner', { blockOwnerDeletion: true })] }));
    expect(drain()).toEqual([['newcomer'], []]);
  });

  it('a dropped reference moves the dependent off its owner', () => {
    const { graph, drain } = recorder();
    graph.upsert(obj('a'));
    graph.upsert(obj('b'));
    graph.upsert(obj('d', { owners: [ref('a'), ref('b')] }));
    graph.upsert(obj('d', { owners: [ref('b')] }));
    expect(graph.dependents('a')).toEqual([]);
    expect(graph.dependents('b').map((d) => d.uid)).toEqual(['d']);
    expect(drain()).toEqual([[], []]);
  });

  it('a re-read removes what a resource no longer holds and takes in the rest', () => {
    const { graph, drain } = recorder();
    graph.upsert(obj('owner'));
    graph.upsert(obj('pod', { resource: '/pods', owners: [ref('owner')] }));
    graph.upsert(obj('kept'));
    graph.replace('/configmaps', [obj('kept'), obj('new')]);
    expect(graph.node('owner')).toBeUndefined();
    expect(graph.node('pod')).toBeDefined();
    expect(graph.node('new')).toBeDefined();
    expect(drain()).toEqual([['pod'], []]);
    expect(graph.size).toBe(3);
  });
});
