import { describe, expect, it } from 'vitest';
import { uncoveredRules } from './covers.js';
import { bootstrapPolicy } from './index.js';

// What keel-scheduler's informers list and watch must stay within system:kube-scheduler, as in
// upstream's bootstrap policy: a missing verb would leave the informer failing and scheduling
// waiting for its caches.
describe('system:kube-scheduler', () => {
  const role = bootstrapPolicy().clusterRoles.find((r) => r.metadata.name === 'system:kube-scheduler');

  it('may list and watch the objects whose selectors default topology spreading', () => {
    const needed = [
      { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['services', 'replicationcontrollers'] },
      { verbs: ['get', 'list', 'watch'], apiGroups: ['apps'], resources: ['replicasets', 'statefulsets'] },
    ];
    expect(uncoveredRules(role?.rules ?? [], needed)).toEqual([]);
  });

  it('may not change them', () => {
    const writes = [{ verbs: ['update'], apiGroups: ['apps'], resources: ['replicasets'] }];
    expect(uncoveredRules(role?.rules ?? [], writes)).toHaveLength(1);
  });
});
