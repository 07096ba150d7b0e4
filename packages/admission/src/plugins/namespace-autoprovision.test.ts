import { alreadyExists } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import { describe, expect, it } from 'vitest';
import { chainOf, depsOf } from '../testing/index.js';
import { namespace, namespaceWrite, refusal, write } from '../testing/namespace-writes.js';

const names = (list: StoredObject[]) => list.map((n) => n.metadata?.name);

describe('NamespaceAutoProvision', () => {
  it('creates the missing namespace of a create, Active, and admits the create', async () => {
    const namespaces: StoredObject[] = [namespace('default')];
    const chain = chainOf(['NamespaceAutoProvision'], depsOf({ namespaces }));
    expect(await refusal(chain, write('CREATE', 'auto', 'p'))).toBeUndefined();
    expect(names(namespaces)).toEqual(['default', 'auto']);
    expect(namespaces[1]).toMatchObject({ status: { phase: 'Active' } });
  });

  it('leaves existing namespaces alone', async () => {
    const namespaces: StoredObject[] = [namespace('default')];
    const deps = depsOf({ namespaces });
    let created = 0;
    deps.createNamespace = () => Promise.resolve(void created++);
    const chain = chainOf(['NamespaceAutoProvision'], deps);
    expect(await refusal(chain, write('CREATE', 'default', 'p'))).toBeUndefined();
    expect(created).toBe(0);
  });

  it('takes a namespace someone else created meanwhile (AlreadyExists) as success', async () => {
    const deps = depsOf({ namespaces: [] });
    deps.createNamespace = (name) =>
      Promise.reject(alreadyExists({ group: '', resource: 'namespaces' }, name));
    expect(
      await refusal(chainOf(['NamespaceAutoProvision'], deps), write('CREATE', 'raced', 'p')),
    ).toBeUndefined();
  });

  it('refuses the create with a 403 naming why the namespace could not be created', async () => {
    const deps = depsOf({ namespaces: [] });
    deps.createNamespace = () => Promise.reject(new Error('store unreachable'));
    expect(await refusal(chainOf(['NamespaceAutoProvision'], deps), write('CREATE', 'x', 'p'))).toMatchObject(
      {
        code: 403,
        reason: 'Forbidden',
        message: 'pods "p" is forbidden: store unreachable',
      },
    );
  });

  it('creates nothing for a dry run, an update, a namespace or a cluster-scoped object', async () => {
    const namespaces: StoredObject[] = [];
    const chain = chainOf(['NamespaceAutoProvision'], depsOf({ namespaces }));
    expect(await refusal(chain, write('CREATE', 'dry', 'p', { dryRun: true }))).toBeUndefined();
    expect(await refusal(chain, write('UPDATE', 'upd', 'p'))).toBeUndefined();
    expect(await refusal(chain, namespaceWrite('CREATE', 'ns'))).toBeUndefined();
    const node = write('CREATE', '', 'n1', {
      resource: { group: '', version: 'v1', resource: 'nodes' },
      kind: { group: '', version: 'v1', kind: 'Node' },
    });
    expect(await refusal(chain, node)).toBeUndefined();
    expect(namespaces).toEqual([]);
  });

  it('runs before NamespaceLifecycle, so the create then finds its namespace', async () => {
    const namespaces: StoredObject[] = [];
    const chain = chainOf(['NamespaceAutoProvision', 'NamespaceLifecycle'], depsOf({ namespaces }));
    expect(await refusal(chain, write('CREATE', 'auto', 'p'))).toBeUndefined();
    expect(names(namespaces)).toEqual(['auto']);
  });
});
