import { describe, expect, it } from 'vitest';
import { chainOf, depsOf } from '../testing/index.js';
import { namespace, namespaceWrite, refusal, write } from '../testing/namespace-writes.js';

describe('NamespaceExists', () => {
  it('refuses every write of a namespaced object in a missing namespace with the namespace 404', async () => {
    const chain = chainOf(['NamespaceExists'], depsOf({ namespaces: [namespace('default')] }));
    for (const op of ['CREATE', 'UPDATE', 'DELETE'] as const) {
      expect(await refusal(chain, write(op, 'nope', 'p'))).toMatchObject({
        code: 404,
        reason: 'NotFound',
        message: 'namespaces "nope" not found',
      });
    }
  });

  it('admits writes in an existing namespace, terminating ones included', async () => {
    const chain = chainOf(
      ['NamespaceExists'],
      depsOf({ namespaces: [namespace('default'), namespace('going', 'Terminating', true)] }),
    );
    expect(await refusal(chain, write('CREATE', 'default', 'p'))).toBeUndefined();
    expect(await refusal(chain, write('CREATE', 'going', 'p'))).toBeUndefined();
  });

  it('reads the store when the copy does not know the namespace yet', async () => {
    const deps = depsOf({ namespaces: [] });
    deps.read = (_r, _ns, name) => Promise.resolve(name === 'fresh' ? namespace('fresh') : undefined);
    const chain = chainOf(['NamespaceExists'], deps);
    expect(await refusal(chain, write('CREATE', 'fresh', 'p'))).toBeUndefined();
    expect((await refusal(chain, write('CREATE', 'stale', 'p')))?.code).toBe(404);
  });

  it('never judges cluster-scoped objects or namespaces', async () => {
    const chain = chainOf(['NamespaceExists'], depsOf({}));
    expect(await refusal(chain, namespaceWrite('CREATE', 'new'))).toBeUndefined();
    const node = write('CREATE', '', 'n1', {
      resource: { group: '', version: 'v1', resource: 'nodes' },
      kind: { group: '', version: 'v1', kind: 'Node' },
    });
    expect(await refusal(chain, node)).toBeUndefined();
  });

  it('validates (after mutation) and does not mutate', () => {
    const [plugin] = chainOf(['NamespaceExists'], depsOf({})).plugins;
    expect(plugin && 'validate' in plugin).toBe(true);
    expect(plugin && 'admit' in plugin).toBe(false);
  });
});
