/**
 * Real clients drive the garbage collector: kubectl's `delete --cascade=background|foreground|orphan`
 * and the Python client's `propagation_policy`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { expectStatus, unique, MERGE } from './support/core.js';
import { clientConfig, type ClientConfig } from './support/clients/kubeconfig.js';
import { kubectlOk } from './support/clients/kubectl.js';
import { pythonOk } from './support/clients/python.js';
import { cmPath, createConfigMap, eventually, gone, meta, ownerRef, read } from './support/gc.js';

const HOLD = 'example.com/hold';

describe('kubectl and the Python client with the garbage collector', () => {
  let server: TestApiServer;
  let cfg: ClientConfig;
  const ok = (...args: string[]) => kubectlOk(cfg, args);

  beforeAll(async () => {
    server = await TestApiServer.start();
    await server.ready();
    cfg = clientConfig(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** An owner with one dependent; `blocking` gives the dependent a finalizer and blockOwnerDeletion. */
  async function family(ns: string, blocking = false) {
    const owner = await createConfigMap(server, ns, 'owner');
    await createConfigMap(server, ns, 'dep', {
      ownerReferences: [ownerRef(owner, blocking ? { blockOwnerDeletion: true } : {})],
      ...(blocking ? { finalizers: [HOLD] } : {}),
    });
  }

  const release = (ns: string) =>
    expectStatus(
      server.request('PATCH', cmPath(ns, 'dep'), {
        body: { metadata: { finalizers: null } },
        contentType: MERGE,
      }),
      200,
    );

  it('kubectl delete --cascade=background deletes the dependents', async () => {
    const ns = unique('k-bg');
    await family(ns);
    expect(await ok('delete', 'configmap', 'owner', '-n', ns, '--cascade=background')).toContain('deleted');
    await gone(server, cmPath(ns, 'dep'));
  });

  it('kubectl delete --cascade=foreground leaves the owner waiting for its blocking dependent', async () => {
    const ns = unique('k-fg');
    await family(ns, true);
    await ok('delete', 'configmap', 'owner', '-n', ns, '--cascade=foreground', '--wait=false');
    const owner = JSON.parse(await ok('get', 'configmap', 'owner', '-n', ns, '-o', 'json')) as Record<
      string,
      unknown
    >;
    expect(meta(owner)['finalizers']).toEqual(['foregroundDeletion']);
    await eventually('the dependent to be marked', async () =>
      meta(await read(server, cmPath(ns, 'dep')))['deletionTimestamp'] ? true : undefined,
    );
    await release(ns);
    // kubectl's own wait for the owner to disappear now ends.
    await ok('wait', '--for=delete', 'configmap/owner', '-n', ns, '--timeout=30s');
  });

  it('kubectl delete --cascade=orphan keeps the dependents without the reference', async () => {
    const ns = unique('k-orphan');
    await family(ns);
    expect(await ok('delete', 'configmap', 'owner', '-n', ns, '--cascade=orphan')).toContain('deleted');
    expect((await server.request('GET', cmPath(ns, 'owner'))).status).toBe(404);
    const dep = JSON.parse(await ok('get', 'configmap', 'dep', '-n', ns, '-o', 'json')) as Record<
      string,
      unknown
    >;
    expect(meta(dep)['ownerReferences']).toBeUndefined();
  });

  it.each(['Background', 'Foreground', 'Orphan'])(
    'Python delete_namespaced_config_map(propagation_policy=%s)',
    async (policy) => {
      const ns = unique(`py-${policy.toLowerCase()}`);
      await family(ns, policy === 'Foreground');
      await pythonOk(cfg, 'delete_configmap', { namespace: ns, name: 'owner', propagation_policy: policy });
      if (policy === 'Foreground') {
        expect(meta(await read(server, cmPath(ns, 'owner')))['finalizers']).toEqual(['foregroundDeletion']);
        await eventually('the dependent to be marked', async () =>
          meta(await read(server, cmPath(ns, 'dep')))['deletionTimestamp'] ? true : undefined,
        );
        await release(ns);
      }
      await gone(server, cmPath(ns, 'owner'));
      if (policy === 'Orphan')
        expect(meta(await read(server, cmPath(ns, 'dep')))['ownerReferences']).toBeUndefined();
      else await gone(server, cmPath(ns, 'dep'));
    },
  );
});
