import type { Attributes } from '@keel/auth';
import { describe, expect, it } from 'vitest';
import { AlwaysAllowPathsAuthorizer } from './always-allow-paths.js';

function attrs(path: string): Attributes {
  return {
    user: { name: 'alice', uid: '', groups: ['dev', 'system:authenticated'], extra: {} },
    verb: 'get',
    isResourceRequest: false,
    path,
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
  };
}

describe('AlwaysAllowPathsAuthorizer', () => {
  const a = new AlwaysAllowPathsAuthorizer(['/healthz', '/livez/*', 'readyz']);
  it.each([
    ['/healthz', 'allow'],
    ['/healthz/ping', 'noOpinion'],
    ['/livez/ping', 'allow'],
    ['/livez', 'noOpinion'],
    ['/readyz', 'allow'],
    ['/metrics', 'noOpinion'],
  ])('%s: %s', async (path, decision) => {
    expect((await a.authorize(attrs(path))).decision).toBe(decision);
  });

  it('has no opinion on resource requests', async () => {
    expect((await a.authorize({ ...attrs('/healthz'), isResourceRequest: true })).decision).toBe('noOpinion');
  });

  it('allows everything with *', async () => {
    expect((await new AlwaysAllowPathsAuthorizer(['/*']).authorize(attrs('/anything'))).decision).toBe(
      'allow',
    );
  });
});
