import { describe, expect, it } from 'vitest';
import { breakdownRule, uncoveredRules } from './covers.js';

describe('uncoveredRules', () => {
  it('breaks rules into one verb, group, resource and name each', () => {
    expect(
      breakdownRule({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }),
    ).toEqual([
      { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] },
      { verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] },
    ]);
    expect(breakdownRule({ verbs: ['get'], nonResourceURLs: ['/a', '/b'] })).toHaveLength(2);
  });

  it('honours wildcards, subresource wildcards, URL prefixes and resource names', () => {
    const owner = [
      { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] },
      { verbs: ['*'], apiGroups: ['apps'], resources: ['deployments'] },
      { verbs: ['get'], nonResourceURLs: ['/healthz/*'] },
      { verbs: ['update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] },
    ];
    expect(
      uncoveredRules(owner, [
        { verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale', 'deployments'] },
        { verbs: ['get'], nonResourceURLs: ['/healthz/etcd'] },
        { verbs: ['update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] },
      ]),
    ).toEqual([]);
    expect(
      uncoveredRules(owner, [
        { verbs: ['update'], apiGroups: ['apps'], resources: ['deployments/scale'] },
        { verbs: ['get'], nonResourceURLs: ['/healthz'] },
        { verbs: ['update'], apiGroups: [''], resources: ['configmaps'] },
        { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      ]),
    ).toEqual([
      { verbs: ['update'], apiGroups: ['apps'], resources: ['deployments/scale'] },
      { verbs: ['get'], nonResourceURLs: ['/healthz'] },
      { verbs: ['update'], apiGroups: [''], resources: ['configmaps'] },
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
    ]);
  });
});
