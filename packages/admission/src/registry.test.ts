import { StatusError } from '@keel/apimachinery';
import { describe, expect, it } from 'vitest';
import { buildAdmissionChain, type AdmissionAttributes, type AdmissionPluginDeps } from './index.js';

const noObjects: AdmissionPluginDeps = {
  pods: () => ({ get: () => undefined }),
  nodes: () => ({ get: () => undefined }),
};

const createNamespace: AdmissionAttributes = {
  operation: 'CREATE',
  resource: { group: '', version: 'v1', resource: 'namespaces' },
  subresource: '',
  kind: { group: '', version: 'v1', kind: 'Namespace' },
  namespace: '',
  name: 'team-a',
  object: { metadata: { name: 'team-a' } },
  oldObject: undefined,
  user: { name: 'alice', uid: '', groups: [], extra: {} },
  dryRun: false,
};

describe('buildAdmissionChain', () => {
  it('builds the plugins it implements, in the order given, and leaves out the others', () => {
    const asked: string[] = [];
    const chain = buildAdmissionChain(
      ['AlwaysAdmit', 'NamespaceLifecycle', 'NodeRestriction', 'Priority', 'AlwaysDeny'],
      {
        pods: () => (asked.push('pods'), { get: () => undefined }),
        nodes: () => (asked.push('nodes'), { get: () => undefined }),
      },
    );
    expect(chain.plugins.map((p) => p.name)).toEqual(['AlwaysAdmit', 'NodeRestriction', 'AlwaysDeny']);
    expect(asked).toEqual(['pods', 'nodes']);
  });

  it('asks for no informer when no plugin reads one', () => {
    let asked = 0;
    const deps: AdmissionPluginDeps = {
      pods: () => (asked++, { get: () => undefined }),
      nodes: () => (asked++, { get: () => undefined }),
    };
    buildAdmissionChain(['AlwaysDeny', 'NamespaceLifecycle'], deps);
    expect(asked).toBe(0);
  });

  it('AlwaysDeny refuses every write with the real 403', async () => {
    const chain = buildAdmissionChain(['AlwaysDeny'], noObjects);
    for (const operation of ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const)
      expect(chain.handles(operation)).toBe(true);
    const err = await chain.admit(createNamespace).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'namespaces "team-a" is forbidden: admission control is denying all modifications',
    });
  });

  it('AlwaysAdmit admits', async () => {
    const chain = buildAdmissionChain(['AlwaysAdmit'], noObjects);
    await expect(chain.admit(createNamespace)).resolves.toBeUndefined();
    await expect(chain.validate(createNamespace)).resolves.toBeUndefined();
  });
});
