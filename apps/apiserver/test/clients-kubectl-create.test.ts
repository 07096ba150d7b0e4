/**
 * kubectl's generator commands, which send their objects in the protobuf encoding
 * (`kubectl create namespace`, `kubectl create configmap`), against the built keel-apiserver.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { clientConfig, type ClientConfig } from './support/clients/kubeconfig.js';
import { kubectl, kubectlOk } from './support/clients/kubectl.js';
import { expectStatus, unique, type Json } from './support/core.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

describe('kubectl create <generator> (protobuf bodies)', () => {
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

  it('creates a namespace and a configmap in it', async () => {
    const ns = unique('gen');
    expect(await ok('create', 'namespace', ns)).toBe(`namespace/${ns} created\n`);
    const created = await expectStatus(server.request('GET', `/api/v1/namespaces/${ns}`), 200);
    expect(created['spec']).toEqual({ finalizers: ['kubernetes'] });
    expect((created['metadata'] as Json)['labels']).toEqual({ 'kubernetes.io/metadata.name': ns });

    expect(
      await ok(
        'create',
        'configmap',
        'settings',
        '-n',
        ns,
        '--from-literal=mode=fast',
        '--from-literal=level=3',
      ),
    ).toBe('configmap/settings created\n');
    const cm = await expectStatus(server.request('GET', `/api/v1/namespaces/${ns}/configmaps/settings`), 200);
    expect(cm['data']).toEqual({ level: '3', mode: 'fast' });
  });

  it('answers kubectl in protobuf, which it asks for first: the object and a Status error', async () => {
    const ns = unique('pbresp');
    const made = await kubectl(cfg, ['create', 'namespace', ns, '-v=8']);
    expect(made.code).toBe(0);
    expect(made.stderr).toContain('Accept: application/vnd.kubernetes.protobuf,application/json');
    // -v=8 prints the response headers: kubectl got (and decoded) protobuf.
    expect(made.stderr).toMatch(/"Response"[\s\S]*Content-Type: application\/vnd\.kubernetes\.protobuf/);
    const again = await kubectl(cfg, ['create', 'namespace', ns, '-v=8']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/"Response"[\s\S]*Content-Type: application\/vnd\.kubernetes\.protobuf/);
    expect(again.stderr).toContain(`Error from server (AlreadyExists): namespaces "${ns}" already exists`);
  });

  it('answers a protobuf body it cannot take as the real server does', async () => {
    // Not the k8s envelope: the real decoder's 400.
    const bad = await server.request('POST', `/api/v1/namespaces/default/configmaps`, {
      body: '{"kind":"ConfigMap"}',
      contentType: PROTOBUF,
    });
    expect(bad.status).toBe(400);
    expect((bad.json as Json)['message']).toBe(
      'the object provided is unrecognized (must be of type ConfigMap): provided object is not a protobuf message',
    );
    // Every built-in kind decodes from protobuf: a body shorter than the magic is the same 400.
    const events = await server.request('POST', '/apis/events.k8s.io/v1/namespaces/default/events', {
      body: 'k8s',
      contentType: PROTOBUF,
    });
    expect(events.status).toBe(400);
    expect((events.json as Json)['message']).toBe(
      'the object provided is unrecognized (must be of type Event): provided object is not a protobuf message',
    );
    // Patches stay JSON, merge, strategic or apply documents, as upstream: protobuf is a 415.
    const patch = await server.request('PATCH', '/api/v1/namespaces/default', {
      body: 'k8s\0',
      contentType: PROTOBUF,
    });
    expect(patch.status).toBe(415);
  });
});
