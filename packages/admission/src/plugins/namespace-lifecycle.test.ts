import type { StoredObject } from '@keel/resource';
import { describe, expect, it } from 'vitest';
import { chainOf, depsOf } from '../testing/index.js';
import { namespace, namespaceWrite, refusal, write } from '../testing/namespace-writes.js';

/** A copy (the informer) and a store that may disagree, as right after a create or a delete. */
function setup(copy: StoredObject[], live: StoredObject[] = copy) {
  const deps = depsOf({ namespaces: copy });
  const reads: string[] = [];
  deps.read = (resource, ns, name) => {
    reads.push(name);
    return Promise.resolve(
      live.find((o) => resource === 'namespaces' && ns === '' && o.metadata?.name === name),
    );
  };
  return { chain: chainOf(['NamespaceLifecycle'], deps), reads, deps };
}

describe('NamespaceLifecycle', () => {
  it('refuses a create in a namespace that does not exist with the namespace 404', async () => {
    const { chain } = setup([namespace('default')]);
    expect(await refusal(chain, write('CREATE', 'nope', 'p'))).toMatchObject({
      code: 404,
      reason: 'NotFound',
      message: 'namespaces "nope" not found',
      details: { name: 'nope', kind: 'namespaces' },
    });
  });

  it('admits a create in a namespace the copy does not know yet but the store has', async () => {
    const { chain, reads } = setup([], [namespace('fresh')]);
    expect(await refusal(chain, write('CREATE', 'fresh', 'p'))).toBeUndefined();
    expect(reads).toEqual(['fresh']);
  });

  it('decides from the copy when it knows the namespace', async () => {
    const { chain, reads } = setup([namespace('team')]);
    expect(await refusal(chain, write('CREATE', 'team', 'p'))).toBeUndefined();
    expect(await refusal(chain, write('UPDATE', 'team', 'p'))).toBeUndefined();
    expect(reads).toEqual([]);
  });

  it('refuses creates in a terminating namespace with the real 403 and its cause', async () => {
    const { chain } = setup([namespace('going', 'Terminating', true)]);
    expect(await refusal(chain, write('CREATE', 'going', 'p'))).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message:
        'pods "p" is forbidden: unable to create new content in namespace going because it is being terminated',
      details: {
        name: 'p',
        kind: 'pods',
        causes: [
          {
            reason: 'NamespaceTerminating',
            message: 'namespace going is being terminated',
            field: 'metadata.namespace',
          },
        ],
      },
    });
  });

  it('names a generateName create by its prefix', async () => {
    const { chain } = setup([namespace('going', 'Terminating', true)]);
    const a = write('CREATE', 'going', '', { object: { metadata: { generateName: 'web-' } } });
    expect((await refusal(chain, a))?.message).toBe(
      'pods "web-" is forbidden: unable to create new content in namespace going because it is being terminated',
    );
  });

  it('lets updates and deletes through in a terminating namespace, so its content can go', async () => {
    const { chain } = setup([namespace('going', 'Terminating', true)]);
    expect(await refusal(chain, write('UPDATE', 'going', 'p'))).toBeUndefined();
    expect(await refusal(chain, write('DELETE', 'going', 'p'))).toBeUndefined();
  });

  it('lets deletes through even in a namespace that does not exist', async () => {
    const { chain } = setup([]);
    expect(await refusal(chain, write('DELETE', 'nope', 'p'))).toBeUndefined();
  });

  it('refuses an update in a namespace that does not exist', async () => {
    const { chain } = setup([]);
    expect((await refusal(chain, write('UPDATE', 'nope', 'p')))?.code).toBe(404);
  });

  it('never judges cluster-scoped objects or namespaces themselves', async () => {
    const { chain } = setup([]);
    const node = write('CREATE', '', 'n1', {
      resource: { group: '', version: 'v1', resource: 'nodes' },
      kind: { group: '', version: 'v1', kind: 'Node' },
    });
    expect(await refusal(chain, node)).toBeUndefined();
    expect(await refusal(chain, namespaceWrite('CREATE', 'new'))).toBeUndefined();
    expect(await refusal(chain, namespaceWrite('DELETE', 'team'))).toBeUndefined();
  });

  it('admits local access reviews in any namespace', async () => {
    const { chain } = setup([]);
    const review = write('CREATE', 'secret-plans', '', {
      resource: { group: 'authorization.k8s.io', version: 'v1', resource: 'localsubjectaccessreviews' },
      kind: { group: 'authorization.k8s.io', version: 'v1', kind: 'LocalSubjectAccessReview' },
    });
    expect(await refusal(chain, review)).toBeUndefined();
  });

  it.each(['default', 'platform-system', 'platform-public', 'kube-system'])(
    'refuses to delete the namespace %s',
    async (name) => {
      const { chain } = setup([namespace(name)]);
      expect(await refusal(chain, namespaceWrite('DELETE', name))).toMatchObject({
        code: 403,
        reason: 'Forbidden',
        message: `namespaces "${name}" is forbidden: this namespace may not be deleted`,
        details: { name, kind: 'namespaces' },
      });
    },
  );

  it('lets the node-lease namespace and any other be deleted', async () => {
    const { chain } = setup([namespace('platform-node-lease')]);
    expect(await refusal(chain, namespaceWrite('DELETE', 'platform-node-lease'))).toBeUndefined();
  });

  it('after deleting a namespace reads it from the store while the copy still shows it Active', async () => {
    const copy = [namespace('team')];
    const live = [namespace('team', 'Terminating', true)];
    const { chain, reads } = setup(copy, live);
    expect(await refusal(chain, write('CREATE', 'team', 'before'))).toBeUndefined();
    expect(reads).toEqual([]);
    expect(await refusal(chain, namespaceWrite('DELETE', 'team'))).toBeUndefined();
    expect((await refusal(chain, write('CREATE', 'team', 'after')))?.code).toBe(403);
    expect(reads).toEqual(['team']);
  });

  it('refuses a create into a namespace deleted and already gone while the copy still has it', async () => {
    const { chain } = setup([namespace('team')], []);
    await refusal(chain, namespaceWrite('DELETE', 'team'));
    expect((await refusal(chain, write('CREATE', 'team', 'p')))?.message).toBe('namespaces "team" not found');
  });

  it('is a mutating plugin handling creates, updates and deletes', () => {
    const { chain } = setup([]);
    const [plugin] = chain.plugins;
    expect(plugin && 'admit' in plugin).toBe(true);
    expect(plugin && 'validate' in plugin).toBe(false);
    expect(['CREATE', 'UPDATE', 'DELETE', 'CONNECT'].map((op) => chain.handles(op as 'CREATE'))).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });
});
