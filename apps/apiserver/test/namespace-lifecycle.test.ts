/**
 * Namespaces end to end on the memory store: NamespaceLifecycle's refusals, NamespaceExists,
 * NamespaceAutoProvision, and deleting a namespace (Terminating, its content removed by the
 * in-server namespace controller, then gone), by HTTP and with the real kubectl.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { clientConfig, type ClientConfig } from './support/clients/kubeconfig.js';
import { kubectl, kubectlOk } from './support/clients/kubectl.js';
import { create, expectStatus, MERGE, podBody, podPath, unique, type Json } from './support/core.js';

const HOLD = 'example.com/hold';

function nsPath(name?: string, sub?: string): string {
  return `/api/v1/namespaces${name ? `/${name}` : ''}${sub ? `/${sub}` : ''}`;
}

const cmPath = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;
const secretPath = (ns: string) => `/api/v1/namespaces/${ns}/secrets`;
const configMap = (name: string, finalizers: string[] = []) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(finalizers.length > 0 ? { finalizers } : {}) },
  data: { a: '1' },
});

/** Polls `probe` until it returns something other than undefined (no timing is asserted). */
async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function startServer(args: string[] = [], namespaceLifecycle = true): Promise<TestApiServer> {
  const server = await TestApiServer.start({ args, namespaceLifecycle });
  await server.ready();
  return server;
}

describe('NamespaceLifecycle and namespace deletion (memory store)', () => {
  let server: TestApiServer;
  let cfg: ClientConfig;
  beforeAll(async () => {
    server = await startServer();
    cfg = clientConfig(server);
  });
  afterAll(async () => {
    await server.stop();
  });

  const createNamespace = (name: string) =>
    create(server, nsPath(), { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  const conditions = async (name: string) => {
    const ns = await expectStatus(server.request('GET', nsPath(name)), 200);
    return ((ns['status'] as Json)['conditions'] ?? []) as Json[];
  };

  it('refuses a pod in a namespace that does not exist with the namespace 404', async () => {
    const ns = unique('missing');
    const r = await server.request('POST', podPath(ns), { body: podBody('p') });
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'NotFound',
      code: 404,
      message: `namespaces "${ns}" not found`,
      details: { name: ns, kind: 'namespaces' },
    });
  });

  it('admits objects in a namespace created a moment before', async () => {
    const ns = unique('fresh');
    await createNamespace(ns);
    await create(server, podPath(ns), podBody('p'));
  });

  it.each(['default', 'platform-system', 'platform-public', 'kube-system'])(
    'refuses to delete %s',
    async (name) => {
      const r = await server.request('DELETE', nsPath(name));
      expect(r.status).toBe(403);
      expect(r.json).toMatchObject({
        reason: 'Forbidden',
        code: 403,
        message: `namespaces "${name}" is forbidden: this namespace may not be deleted`,
        details: { name, kind: 'namespaces' },
      });
      expect(await expectStatus(server.request('GET', nsPath(name)), 200)).toMatchObject({
        status: { phase: 'Active' },
      });
    },
  );

  it('deletes a namespace: Terminating, new content refused, content removed, finalizers waited for, then gone', async () => {
    const ns = unique('doomed');
    await createNamespace(ns);
    await create(server, cmPath(ns), configMap('plain'));
    await create(server, cmPath(ns), configMap('held', [HOLD]));
    await create(server, podPath(ns), podBody('web'));
    await create(server, secretPath(ns), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } });

    const deleted = await expectStatus(server.request('DELETE', nsPath(ns)), 200);
    expect(deleted).toMatchObject({
      kind: 'Namespace',
      metadata: { name: ns },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Terminating' },
    });
    expect((deleted['metadata'] as Json)['deletionTimestamp']).toEqual(expect.any(String));

    // Held by the configmap's finalizer, the namespace stays Terminating and takes nothing new.
    const refused = await server.request('POST', podPath(ns), { body: podBody('late') });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({
      reason: 'Forbidden',
      message: `pods "late" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
      details: {
        name: 'late',
        kind: 'pods',
        causes: [
          {
            reason: 'NamespaceTerminating',
            message: `namespace ${ns} is being terminated`,
            field: 'metadata.namespace',
          },
        ],
      },
    });
    // Deleting it again answers with the namespace as it is.
    expect(await expectStatus(server.request('DELETE', nsPath(ns)), 200)).toMatchObject({
      status: { phase: 'Terminating' },
    });

    const byType = await eventually('the conditions to show the held configmap', async () => {
      const all = new Map((await conditions(ns)).map((c) => [c['type'], c]));
      return all.get('NamespaceFinalizersRemaining')?.['status'] === 'True' ? all : undefined;
    });
    expect([...byType.keys()]).toEqual([
      'NamespaceDeletionDiscoveryFailure',
      'NamespaceDeletionGroupVersionParsingFailure',
      'NamespaceDeletionContentFailure',
      'NamespaceContentRemaining',
      'NamespaceFinalizersRemaining',
    ]);
    expect(byType.get('NamespaceDeletionDiscoveryFailure')).toMatchObject({
      status: 'False',
      reason: 'ResourcesDiscovered',
      message: 'All resources successfully discovered',
    });
    expect(byType.get('NamespaceDeletionContentFailure')).toMatchObject({
      status: 'False',
      reason: 'ContentDeleted',
      message: 'All content successfully deleted, may be waiting on finalization',
    });
    expect(byType.get('NamespaceContentRemaining')).toMatchObject({
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: configmaps. has 1 resource instances',
    });
    expect(byType.get('NamespaceFinalizersRemaining')).toMatchObject({
      status: 'True',
      reason: 'SomeFinalizersRemain',
      message: `Some content in the namespace has finalizers remaining: ${HOLD} in 1 resource instances`,
    });

    // Everything without a finalizer is gone; the held configmap is marked, not removed.
    const items = async (path: string) =>
      (await expectStatus(server.request('GET', path), 200))['items'] as Json[];
    expect(await items(podPath(ns))).toEqual([]);
    expect(await items(secretPath(ns))).toEqual([]);
    const left = await items(cmPath(ns));
    expect(left.map((c) => (c['metadata'] as Json)['name'])).toEqual(['held']);
    expect((left[0]?.['metadata'] as Json)['deletionTimestamp']).toEqual(expect.any(String));

    // Updates in a terminating namespace pass: the finalizer comes off, and with it the namespace.
    await expectStatus(
      server.request('PATCH', cmPath(ns, 'held'), {
        body: { metadata: { finalizers: null } },
        contentType: MERGE,
      }),
      200,
    );
    await eventually('the namespace to be gone', async () =>
      (await server.request('GET', nsPath(ns))).status === 404 ? true : undefined,
    );
    expect((await server.request('GET', cmPath(ns, 'held'))).status).toBe(404);
  });

  it('kubectl delete namespace waits until the namespace and its content are gone', async () => {
    const ns = unique('kubectl');
    await kubectlOk(cfg, ['create', 'namespace', ns]);
    await kubectlOk(cfg, ['create', 'configmap', 'c1', '-n', ns, '--from-literal=a=1']);
    await kubectlOk(cfg, ['create', 'secret', 'generic', 's1', '-n', ns, '--from-literal=a=1']);
    await create(server, podPath(ns), podBody('web'));
    expect(await kubectlOk(cfg, ['delete', 'namespace', ns, '--timeout=60s'])).toBe(
      `namespace "${ns}" deleted\n`,
    );
    expect((await server.request('GET', nsPath(ns))).status).toBe(404);
    const after = await kubectl(cfg, ['get', 'namespace', ns]);
    expect([after.code, after.stderr.trim()]).toEqual([
      1,
      `Error from server (NotFound): namespaces "${ns}" not found`,
    ]);
    // A namespace of the same name starts empty but for what the server puts in every namespace.
    await kubectlOk(cfg, ['create', 'namespace', ns]);
    const left = await kubectlOk(cfg, ['get', 'configmaps,secrets,pods', '-n', ns, '-o', 'name']);
    expect(left.split('\n').filter((l) => l !== '' && l !== 'configmap/kube-root-ca.crt')).toEqual([]);
  });

  it('serves namespaces/finalize: update only, spec.finalizers changes, status stays', async () => {
    const ns = unique('fin');
    await createNamespace(ns);
    const current = await expectStatus(server.request('GET', nsPath(ns)), 200);
    const bad = await server.request('PUT', nsPath(ns, 'finalize'), {
      body: { ...current, spec: { finalizers: ['kubernetes', 'unqualified'] } },
    });
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({ reason: 'Invalid' });
    expect((bad.json as Json)['message']).toContain('spec.finalizers[1]');

    const put = await expectStatus(
      server.request('PUT', nsPath(ns, 'finalize'), {
        body: { ...current, spec: { finalizers: [HOLD] }, status: { phase: 'Terminating' } },
      }),
      200,
    );
    expect(put).toMatchObject({ spec: { finalizers: [HOLD] }, status: { phase: 'Active' } });
    // Only update is served there.
    expect((await server.request('GET', nsPath(ns, 'finalize'))).status).toBe(405);

    // A namespace held by another finalizer stays Terminating after its content is gone...
    await expectStatus(server.request('DELETE', nsPath(ns)), 200);
    await eventually('the content conditions', async () => {
      const found = (await conditions(ns)).find((c) => c['type'] === 'NamespaceContentRemaining');
      return found?.['status'] === 'False' ? found : undefined;
    });
    expect(await expectStatus(server.request('GET', nsPath(ns)), 200)).toMatchObject({
      spec: { finalizers: [HOLD] },
      status: { phase: 'Terminating' },
    });
    // ...until its owner finalizes it.
    const terminating = await expectStatus(server.request('GET', nsPath(ns)), 200);
    await expectStatus(
      server.request('PUT', nsPath(ns, 'finalize'), { body: { ...terminating, spec: { finalizers: [] } } }),
      200,
    );
    expect((await server.request('GET', nsPath(ns))).status).toBe(404);
  });

  it('checks delete preconditions, and a dry run marks nothing', async () => {
    const ns = unique('pre');
    const created = await createNamespace(ns);
    const uid = (created['metadata'] as Json)['uid'] as string;
    const wrong = await server.request('DELETE', nsPath(ns), {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-the-uid' } },
    });
    expect(wrong.status).toBe(409);
    expect(wrong.json).toMatchObject({
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on namespaces "${ns}": Precondition failed: UID in precondition: not-the-uid, UID in object meta: ${uid}`,
    });
    const dry = await expectStatus(server.request('DELETE', `${nsPath(ns)}?dryRun=All`), 200);
    expect(dry).toMatchObject({ status: { phase: 'Terminating' } });
    const kept = await expectStatus(server.request('GET', nsPath(ns)), 200);
    expect(kept).toMatchObject({ status: { phase: 'Active' } });
    expect((kept['metadata'] as Json)['deletionTimestamp']).toBeUndefined();
  });

  it('lists namespaces/finalize in discovery', async () => {
    const discovery = await expectStatus(server.request('GET', '/api/v1'), 200);
    const byName = new Map((discovery['resources'] as Json[]).map((r) => [r['name'], r]));
    expect(byName.get('namespaces/finalize')).toEqual({
      name: 'namespaces/finalize',
      singularName: '',
      namespaced: false,
      kind: 'Namespace',
      verbs: ['update'],
    });
  });
});

describe('NamespaceAutoProvision and NamespaceExists (memory store)', () => {
  let auto: TestApiServer;
  let exists: TestApiServer;
  beforeAll(async () => {
    auto = await startServer(['--enable-admission-plugins=NamespaceAutoProvision']);
    exists = await startServer(['--enable-admission-plugins=NamespaceExists'], false);
  });
  afterAll(async () => {
    await Promise.all([auto?.stop(), exists?.stop()]);
  });

  it('NamespaceAutoProvision creates the missing namespace of a create, with its defaults', async () => {
    const ns = unique('auto');
    await create(auto, podPath(ns), podBody('p'));
    const created = await expectStatus(auto.request('GET', nsPath(ns)), 200);
    expect(created).toMatchObject({
      metadata: { name: ns, labels: { 'kubernetes.io/metadata.name': ns } },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
    const meta = created['metadata'] as Json;
    expect(meta['uid']).toEqual(expect.any(String));
    expect(meta['creationTimestamp']).toEqual(expect.any(String));
    // A second create in it finds it there.
    await create(auto, podPath(ns), podBody('q'));
  });

  it('NamespaceAutoProvision creates nothing for a dry run', async () => {
    const ns = unique('dry');
    await server404(auto, ns);
    const r = await auto.request('POST', `${podPath(ns)}?dryRun=All`, { body: podBody('p') });
    // NamespaceLifecycle (still on) then finds no namespace.
    expect([r.status, (r.json as Json)['message']]).toEqual([404, `namespaces "${ns}" not found`]);
    await server404(auto, ns);
  });

  it('NamespaceExists refuses writes in a namespace that does not exist', async () => {
    const ns = unique('nope');
    // Not a pod: the ServiceAccount plugin, a mutating one, would refuse it first (as upstream).
    const r = await exists.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      body: { metadata: { name: 'c' } },
    });
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ reason: 'NotFound', message: `namespaces "${ns}" not found` });
    await create(exists, podPath('default'), podBody(unique('p')));
  });
});

async function server404(server: TestApiServer, ns: string): Promise<void> {
  expect((await server.request('GET', nsPath(ns))).status).toBe(404);
}
