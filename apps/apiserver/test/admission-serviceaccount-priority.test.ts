/**
 * The ServiceAccount and Priority admission plugins (both on by default) end to end: every
 * namespace gets its `default` ServiceAccount and `kube-root-ca.crt`, a pod gets its account's
 * token volume, PriorityClasses are served with the two system ones, and a pod's priority comes
 * from its class.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '@keel/testing';
import { startServer } from './support/events.js';
import { clientConfig, type ClientConfig } from './support/clients/kubeconfig.js';
import { kubectlOk } from './support/clients/kubectl.js';
import { create, expectStatus, newNamespace, podBody, podPath, unique, type Json } from './support/core.js';

const PCS = '/apis/scheduling.k8s.io/v1/priorityclasses';
const saPath = (ns: string, name = '') => `/api/v1/namespaces/${ns}/serviceaccounts${name ? `/${name}` : ''}`;

/** Polls `read` until it returns something (the namespace defaults are written just after the namespace). */
async function eventually<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const v = await read();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function priorityClass(name: string, value: number, more: Json = {}): Json {
  return { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...more };
}

describe('ServiceAccount and Priority admission (memory store)', () => {
  let server: TestApiServer;
  let cfg: ClientConfig;

  beforeAll(async () => {
    server = await startServer('memory');
    cfg = clientConfig(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const found = async (path: string) => {
    const r = await server.request('GET', path);
    return r.status === 200 ? (r.json as Json) : undefined;
  };

  it('gives a new namespace its default ServiceAccount and kube-root-ca.crt, and puts them back when deleted', async () => {
    const ns = await newNamespace(server);
    const sa = await eventually(() => found(saPath(ns, 'default')), 'the default ServiceAccount');
    expect(sa['metadata']).toMatchObject({ name: 'default', namespace: ns });
    const cm = await eventually(
      () => found(`/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`),
      'the root CA',
    );
    expect((cm['data'] as Json)['ca.crt']).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(((cm['metadata'] as Json)['annotations'] as Json)['kubernetes.io/description']).toMatch(
      /^Contains a CA bundle that can be used to verify the kube-apiserver/,
    );

    const uid = (sa['metadata'] as Json)['uid'];
    await expectStatus(server.request('DELETE', saPath(ns, 'default')), 200);
    const again = await eventually(async () => {
      const now = await found(saPath(ns, 'default'));
      return now && (now['metadata'] as Json)['uid'] !== uid ? now : undefined;
    }, 'the default ServiceAccount again');
    expect((again['metadata'] as Json)['name']).toBe('default');
    // The system namespaces have theirs too.
    await eventually(() => found(saPath('platform-system', 'default')), 'platform-system/default');
  });

  it('runs a pod as default with the projected token volume mounted into every container', async () => {
    const ns = await newNamespace(server);
    const pod = await create(
      server,
      podPath(ns),
      podBody('web', { initContainers: [{ name: 'init', image: 'registry.example/init:1.0' }] }),
    );
    const spec = pod['spec'] as Json;
    expect(spec['serviceAccountName']).toBe('default');
    expect(spec['serviceAccount']).toBe('default');
    const volumes = spec['volumes'] as Json[];
    expect(volumes).toHaveLength(1);
    const name = volumes[0]?.['name'] as string;
    expect(name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(volumes[0]).toEqual({
      name,
      projected: {
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          {
            downwardAPI: {
              items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
            },
          },
        ],
        defaultMode: 420,
      },
    });
    const mount = { name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
    for (const key of ['containers', 'initContainers']) {
      expect((spec[key] as Json[])[0]?.['volumeMounts']).toEqual([mount]);
    }
    // The account is fixed once the pod exists: pod update validation refuses a change.
    await create(server, saPath(ns), { metadata: { name: 'other' } });
    const moved = await server.request('PATCH', podPath(ns, 'web'), {
      body: { spec: { serviceAccountName: 'other' } },
      contentType: 'application/merge-patch+json',
    });
    expect(moved.status).toBe(422);
    expect((moved.json as Json)['message']).toMatch(
      /^Pod "web" is invalid: spec: Forbidden: pod updates may not change fields/,
    );
  });

  it('does not mount the token when the ServiceAccount opts out, and copies its pull secrets', async () => {
    const ns = await newNamespace(server);
    await create(server, saPath(ns), {
      metadata: { name: 'builder' },
      automountServiceAccountToken: false,
      imagePullSecrets: [{ name: 'registry' }],
    });
    const pod = await create(server, podPath(ns), podBody('build', { serviceAccountName: 'builder' }));
    const spec = pod['spec'] as Json;
    expect(spec['volumes']).toBeUndefined();
    expect(spec['imagePullSecrets']).toEqual([{ name: 'registry' }]);
  });

  it('refuses a pod whose ServiceAccount does not exist', async () => {
    const ns = await newNamespace(server);
    const r = await server.request('POST', podPath(ns), {
      body: podBody('lost', { serviceAccountName: 'ghost' }),
    });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({
      reason: 'Forbidden',
      message: `pods "lost" is forbidden: error looking up service account ${ns}/ghost: serviceaccount "ghost" not found`,
    });
  });

  it('serves the system PriorityClasses to kubectl get pc', async () => {
    const rows = (await kubectlOk(cfg, ['get', 'pc']))
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => l.trim().split(/\s{2,}/));
    expect(rows[0]?.slice(0, 4)).toEqual(['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE']);
    const byName = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(byName.get('system-node-critical')?.slice(1, 3)).toEqual(['2000001000', 'false']);
    expect(byName.get('system-cluster-critical')?.slice(1, 3)).toEqual(['2000000000', 'false']);
    const stored = await expectStatus(server.request('GET', `${PCS}/system-cluster-critical`), 200);
    expect(stored).toMatchObject({
      value: 2000000000,
      preemptionPolicy: 'PreemptLowerPriority',
      description:
        'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
    });
  });

  it('gives a pod the priority of the class it names, and refuses a class that does not exist', async () => {
    const ns = await newNamespace(server);
    const cls = unique('batch');
    await create(server, PCS, priorityClass(cls, 1000, { preemptionPolicy: 'Never' }));
    const pod = await create(server, podPath(ns), podBody('job', { priorityClassName: cls }));
    expect(pod['spec']).toMatchObject({ priorityClassName: cls, priority: 1000, preemptionPolicy: 'Never' });

    const missing = await server.request('POST', podPath(ns), {
      body: podBody('nope', { priorityClassName: 'gold' }),
    });
    expect(missing.status).toBe(403);
    expect(missing.json).toMatchObject({
      reason: 'Forbidden',
      message: 'pods "nope" is forbidden: no PriorityClass with name gold was found',
    });
    const stated = await server.request('POST', podPath(ns), {
      body: podBody('mine', { priorityClassName: cls, priority: 7 }),
    });
    expect(stated.status).toBe(403);
    expect((stated.json as Json)['message']).toBe(
      `pods "mine" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name`,
    );
  });

  it('validates PriorityClasses: the value ceiling, reserved names, an immutable value', async () => {
    const huge = await server.request('POST', PCS, { body: priorityClass('huge', 1000000001) });
    expect(huge.status).toBe(422);
    expect((huge.json as Json)['message']).toBe(
      'PriorityClass.scheduling.k8s.io "huge" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
    );
    const reserved = await server.request('POST', PCS, { body: priorityClass('system-mine', 1) });
    expect(reserved.status).toBe(422);
    const name = unique('fixed');
    await create(server, PCS, priorityClass(name, 5));
    const changed = await server.request('PATCH', `${PCS}/${name}`, {
      body: { value: 6 },
      contentType: 'application/merge-patch+json',
    });
    expect(changed.status).toBe(422);
    expect((changed.json as Json)['message']).toBe(
      `PriorityClass.scheduling.k8s.io "${name}" is invalid: value: Forbidden: may not be changed in an update.`,
    );
  });

  it('allows one global default, which pods without a class then get', async () => {
    const first = unique('default-a');
    await create(server, PCS, priorityClass(first, 10, { globalDefault: true }));
    const second = unique('default-b');
    const r = await server.request('POST', PCS, { body: priorityClass(second, 20, { globalDefault: true }) });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({
      reason: 'Forbidden',
      message: `priorityclasses.scheduling.k8s.io "${second}" is forbidden: PriorityClass ${first} is already marked as default. Only one default can exist`,
    });
    const ns = await newNamespace(server);
    const pod = await create(server, podPath(ns), podBody('plain'));
    expect(pod['spec']).toMatchObject({ priorityClassName: first, priority: 10 });
    // Leave no default behind for the other tests of this server.
    await expectStatus(server.request('DELETE', `${PCS}/${first}`), 200);
  });
});
