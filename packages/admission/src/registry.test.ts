import { StatusError } from '@keel/apimachinery';
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from './index.js';
import { chainOf, depsOf } from './testing/index.js';

const noObjects = depsOf({});

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

describe('prepareAdmission', () => {
  it('builds the plugins it implements, in the order given, and asks only for the copies they read', () => {
    const deps = depsOf({});
    const chain = chainOf(['AlwaysAdmit', 'NodeRestriction', 'AlwaysDeny'], deps);
    expect(chain.plugins.map((p) => p.name)).toEqual(['AlwaysAdmit', 'NodeRestriction', 'AlwaysDeny']);
    expect(deps.asked).toEqual(['pods', 'nodes']);
  });

  it('asks for no informer when no plugin reads one', () => {
    const deps = depsOf({});
    chainOf(['AlwaysDeny', 'AlwaysAdmit'], deps);
    expect(deps.asked).toEqual([]);
  });

  it('AlwaysDeny refuses every write with the real 403', async () => {
    const chain = chainOf(['AlwaysDeny'], noObjects);
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
    const chain = chainOf(['AlwaysAdmit'], noObjects);
    await expect(chain.admit(createNamespace)).resolves.toBeUndefined();
    await expect(chain.validate(createNamespace)).resolves.toBeUndefined();
  });
});
