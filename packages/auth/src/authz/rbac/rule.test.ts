import { describe, expect, it } from 'vitest';
import type { Attributes } from '../types.js';
import { ruleAllows } from './rule.js';
import type { PolicyRule } from './types.js';

const user = { name: 'bob', uid: '', groups: ['system:authenticated'], extra: {} };

function res(verb: string, resource: string, opts: Partial<Attributes> = {}): Attributes {
  return {
    user,
    verb,
    isResourceRequest: true,
    path: '',
    namespace: 'default',
    apiGroup: '',
    apiVersion: 'v1',
    resource,
    subresource: '',
    name: '',
    ...opts,
  };
}

function url(verb: string, path: string): Attributes {
  return { ...res(verb, ''), isResourceRequest: false, path, namespace: '' };
}

const podsGet: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };

describe('RBAC rule semantics', () => {
  it.each<[string, PolicyRule, Attributes, boolean]>([
    ['exact verb, group and resource', podsGet, res('get', 'pods'), true],
    ['another verb', podsGet, res('list', 'pods'), false],
    ['another group', podsGet, res('get', 'pods', { apiGroup: 'apps' }), false],
    ['another resource', podsGet, res('get', 'services'), false],
    ['verb *', { verbs: ['*'], apiGroups: [''], resources: ['pods'] }, res('delete', 'pods'), true],
    [
      'group *',
      { verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] },
      res('get', 'deployments', { apiGroup: 'apps' }),
      true,
    ],
    [
      'resource * takes subresources',
      { verbs: ['get'], apiGroups: [''], resources: ['*'] },
      res('get', 'pods', { subresource: 'log' }),
      true,
    ],
    [
      'a resource alone is not its subresources',
      podsGet,
      res('get', 'pods', { subresource: 'status' }),
      false,
    ],
    [
      'resource/subresource',
      { verbs: ['create'], apiGroups: [''], resources: ['pods/binding'] },
      res('create', 'pods', { subresource: 'binding' }),
      true,
    ],
    [
      '*/status matches any status',
      { verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] },
      res('update', 'nodes', { subresource: 'status' }),
      true,
    ],
    [
      '*/status is not the resource',
      { verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] },
      res('update', 'nodes'),
      false,
    ],
    [
      '*/status is not another subresource',
      { verbs: ['get'], apiGroups: ['*'], resources: ['*/status'] },
      res('get', 'pods', { subresource: 'log' }),
      false,
    ],
    [
      'pods/* is literal',
      { verbs: ['get'], apiGroups: [''], resources: ['pods/*'] },
      res('get', 'pods', { subresource: 'log' }),
      false,
    ],
    [
      'a named get in resourceNames',
      { ...podsGet, resourceNames: ['a'] },
      res('get', 'pods', { name: 'a' }),
      true,
    ],
    [
      'a named get outside resourceNames',
      { ...podsGet, resourceNames: ['a'] },
      res('get', 'pods', { name: 'b' }),
      false,
    ],
    [
      'list without a name never matches names',
      { verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] },
      res('list', 'pods'),
      false,
    ],
    [
      'create without a name never matches names',
      { verbs: ['create'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] },
      res('create', 'pods'),
      false,
    ],
    ['a resource rule is not a URL rule', podsGet, url('get', '/healthz'), false],
    ['exact URL', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, url('get', '/healthz'), true],
    [
      'exact URL is not a prefix',
      { verbs: ['get'], nonResourceURLs: ['/healthz'] },
      url('get', '/healthz/ping'),
      false,
    ],
    [
      'URL prefix with *',
      { verbs: ['get'], nonResourceURLs: ['/healthz*'] },
      url('get', '/healthz/ping'),
      true,
    ],
    ['URL * is every path', { verbs: ['get'], nonResourceURLs: ['*'] }, url('get', '/metrics'), true],
    ['URL verb must match', { verbs: ['get'], nonResourceURLs: ['*'] }, url('post', '/metrics'), false],
    [
      'a URL rule is not a resource rule',
      { verbs: ['*'], nonResourceURLs: ['*'] },
      res('get', 'pods'),
      false,
    ],
  ])('%s', (_name, rule, attrs, allowed) => {
    expect(ruleAllows(attrs, rule)).toBe(allowed);
  });
});
