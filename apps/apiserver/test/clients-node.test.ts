/**
 * The official JavaScript client (@kubernetes/client-node) against the built keel-apiserver, on
 * both stores, configured only through KubeConfig.loadFromOptions: the typed EventsV1Api and
 * CoreV1Api, KubernetesObjectApi for server-side apply, the informer, and the errors as the
 * client throws them.
 */
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestApiServer } from '@keel/testing';
import { body, evPath, startServer, STORES, uniqueNs, type Json } from './support/events.js';
import { clientConfig } from './support/clients/kubeconfig.js';
import { fieldsByManager } from './support/clients/manifests.js';

function kubeConfig(server: string, caFile: string, token: string): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'keel', server, caFile, skipTLSVerify: false }],
    users: [{ name: 'keel-user', token }],
    contexts: [{ name: 'keel', cluster: 'keel', user: 'keel-user' }],
    currentContext: 'keel',
  });
  return kc;
}

function event(namespace: string, name: string, labels: Record<string, string> = {}): k8s.EventsV1Event {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace, labels },
    eventTime: new Date('2024-05-01T10:00:00.123Z'),
    action: 'Scheduled',
    reason: 'Started',
    type: 'Normal',
    reportingController: 'keel.io/node',
    reportingInstance: 'node-1',
    regarding: { kind: 'Pod', namespace, name: 'pod-1' },
    note: 'from node',
  };
}

/** What the client threw: its status code and the Status body (JSON text, parsed). */
async function thrown(p: Promise<unknown>): Promise<{ code: number; body: unknown }> {
  try {
    await p;
  } catch (err) {
    if (!(err instanceof k8s.ApiException)) throw err;
    const e = err as k8s.ApiException<unknown>;
    return { code: e.code, body: typeof e.body === 'string' ? (JSON.parse(e.body) as unknown) : e.body };
  }
  throw new Error('the call did not fail');
}

const patchAs = (type: k8s.PatchStrategy) => k8s.setHeaderOptions('Content-Type', type);

describe.each(STORES)('@kubernetes/client-node against Keel (%s store)', (store) => {
  let server: TestApiServer;
  let kc: k8s.KubeConfig;
  let events: k8s.EventsV1Api;
  let core: k8s.CoreV1Api;
  let objects: k8s.KubernetesObjectApi;

  beforeAll(async () => {
    server = await startServer(store);
    const cfg = clientConfig(server);
    kc = kubeConfig(cfg.server, cfg.caFile, ADMIN_TOKEN);
    events = kc.makeApiClient(k8s.EventsV1Api);
    core = kc.makeApiClient(k8s.CoreV1Api);
    objects = k8s.KubernetesObjectApi.makeApiClient(kc);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('creates, reads and lists Events; its millisecond MicroTime is kept to the microsecond', async () => {
    const namespace = uniqueNs('js');
    const created = await events.createNamespacedEvent({
      namespace,
      body: event(namespace, 'e1', { app: 'js' }),
    });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    const stored = body(await server.request('GET', evPath(namespace, 'e1')));
    expect(stored['eventTime']).toBe('2024-05-01T10:00:00.123000Z');
    const read = await events.readNamespacedEvent({ name: 'e1', namespace });
    expect([read.note, read.regarding?.name, read.metadata?.labels]).toEqual([
      'from node',
      'pod-1',
      { app: 'js' },
    ]);
    const coreList = await core.listNamespacedEvent({ namespace });
    expect(coreList.items.map((e) => [e.metadata.name, e.message, e.involvedObject.name])).toEqual([
      ['e1', 'from node', 'pod-1'],
    ]);
  });

  it('lists across namespaces with selectors, and in pages that share one resourceVersion', async () => {
    const [a, b] = [uniqueNs('jsa'), uniqueNs('jsb')];
    const suite = uniqueNs('suite');
    await events.createNamespacedEvent({ namespace: a, body: event(a, 'l1', { suite, tier: 'x' }) });
    await events.createNamespacedEvent({ namespace: b, body: event(b, 'l2', { suite, tier: 'y' }) });
    await events.createNamespacedEvent({ namespace: b, body: event(b, 'l3', { suite, tier: 'y' }) });
    const all = await events.listEventForAllNamespaces({ labelSelector: `suite=${suite}` });
    expect(all.items.map((e) => e.metadata?.name).sort()).toEqual(['l1', 'l2', 'l3']);
    const selected = await events.listEventForAllNamespaces({
      labelSelector: `suite=${suite},tier=y`,
      fieldSelector: 'metadata.name=l3',
    });
    expect(selected.items.map((e) => e.metadata?.namespace)).toEqual([b]);
    const first = await events.listNamespacedEvent({ namespace: b, limit: 1 });
    const next = await events.listNamespacedEvent({
      namespace: b,
      limit: 1,
      _continue: first.metadata?._continue,
    });
    expect([first.items[0]?.metadata?.name, next.items[0]?.metadata?.name]).toEqual(['l2', 'l3']);
    expect(next.metadata?._continue).toBeUndefined();
    expect(next.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
  });

  it('replaces, and patches with merge, strategic merge and JSON patches', async () => {
    const namespace = uniqueNs('jsw');
    const created = await events.createNamespacedEvent({
      namespace,
      body: event(namespace, 'w1', { a: '1' }),
    });
    const replaced = await events.replaceNamespacedEvent({
      name: 'w1',
      namespace,
      body: { ...created, metadata: { ...created.metadata, labels: { a: '2' } } },
    });
    expect(replaced.metadata?.labels).toEqual({ a: '2' });
    const patch = (body: object, type: k8s.PatchStrategy) =>
      events.patchNamespacedEvent({ name: 'w1', namespace, body }, patchAs(type));
    expect(
      (await patch({ metadata: { labels: { m: '1' } } }, k8s.PatchStrategy.MergePatch)).metadata?.labels,
    ).toEqual({ a: '2', m: '1' });
    const smp = await patch({ metadata: { labels: { s: '1' } } }, k8s.PatchStrategy.StrategicMergePatch);
    expect(smp.metadata?.labels).toEqual({ a: '2', m: '1', s: '1' });
    const json = await patch([{ op: 'remove', path: '/metadata/labels/a' }], k8s.PatchStrategy.JsonPatch);
    expect(json.metadata?.labels).toEqual({ m: '1', s: '1' });
    // Without a Content-Type choice the client sends its first one, a JSON patch: an object is not one.
    expect(
      await thrown(events.patchNamespacedEvent({ name: 'w1', namespace, body: { note: 'x' } })),
    ).toMatchObject({
      code: 400,
      body: {
        reason: 'BadRequest',
        message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
      },
    });
  });

  it('server-side apply with KubernetesObjectApi: create, conflict (409) and force', async () => {
    const namespace = uniqueNs('jsssa');
    const spec = (app: string) => ({
      ...event(namespace, 's1', { app }),
      eventTime: '2024-05-01T10:00:00.000000Z',
    });
    const apply = (app: string, manager: string, force?: boolean) =>
      objects.patch(spec(app), undefined, undefined, manager, force, k8s.PatchStrategy.ServerSideApply);
    const applied = (await apply('one', 'js-one')) as unknown as Json;
    expect(Object.keys(fieldsByManager(applied))).toEqual(['js-one/Apply']);
    expect(await thrown(apply('two', 'js-two'))).toEqual({
      code: 409,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Apply failed with 1 conflict: conflict with "js-one": .metadata.labels.app',
        reason: 'Conflict',
        details: {
          causes: [
            {
              reason: 'FieldManagerConflict',
              message: 'conflict with "js-one"',
              field: '.metadata.labels.app',
            },
          ],
        },
        code: 409,
      },
    });
    const forced = (await apply('two', 'js-two', true)) as unknown as Json;
    expect((forced['metadata'] as Json)['labels']).toEqual({ app: 'two' });
    expect(Object.keys(fieldsByManager(forced)).sort()).toEqual(['js-one/Apply', 'js-two/Apply']);
  });

  it('dry-run and delete: a Success Status per event, the deleted list for a collection', async () => {
    const namespace = uniqueNs('jsdel');
    const dry = await events.createNamespacedEvent({
      namespace,
      body: event(namespace, 'd0'),
      dryRun: 'All',
    });
    expect(dry.metadata?.resourceVersion).toBeUndefined();
    for (const name of ['d1', 'd2', 'd3'])
      await events.createNamespacedEvent({ namespace, body: event(namespace, name) });
    const kept = await events.deleteNamespacedEvent({ name: 'd1', namespace, dryRun: 'All' });
    expect(kept).toMatchObject({ status: 'Success', details: { name: 'd1', kind: 'events' } });
    expect((await events.deleteNamespacedEvent({ name: 'd1', namespace })).status).toBe('Success');
    await events.deleteCollectionNamespacedEvent({ namespace });
    expect((await events.listNamespacedEvent({ namespace })).items).toEqual([]);
  });

  it('the informer sees add, update and delete', async () => {
    const namespace = uniqueNs('jsinf');
    const seen: [string, string | undefined][] = [];
    const informer = k8s.makeInformer(kc, `/apis/events.k8s.io/v1/namespaces/${namespace}/events`, () =>
      events.listNamespacedEvent({ namespace }),
    );
    const errors: unknown[] = [];
    for (const verb of [k8s.ADD, k8s.UPDATE, k8s.DELETE] as const) {
      informer.on(verb, (obj) => seen.push([verb, obj.metadata?.name]));
    }
    informer.on(k8s.ERROR, (err) => errors.push(err));
    await informer.start();
    let errorsBeforeStop: unknown[] = [];
    try {
      await events.createNamespacedEvent({ namespace, body: event(namespace, 'i1') });
      await events.patchNamespacedEvent(
        { name: 'i1', namespace, body: { metadata: { labels: { seen: 'yes' } } } },
        patchAs(k8s.PatchStrategy.MergePatch),
      );
      await events.deleteNamespacedEvent({ name: 'i1', namespace });
      const deadline = Date.now() + 10_000;
      while (seen.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      errorsBeforeStop = [...errors];
    } finally {
      // Stopping aborts the watch, which the informer reports as an AbortError.
      await informer.stop();
    }
    expect(errorsBeforeStop).toEqual([]);
    expect(seen).toEqual([
      ['add', 'i1'],
      ['update', 'i1'],
      ['delete', 'i1'],
    ]);
  });

  it.each<[string, (ns: string) => Promise<unknown>, number, string]>([
    ['NotFound', (ns) => events.readNamespacedEvent({ name: 'nope', namespace: ns }), 404, 'NotFound'],
    [
      'AlreadyExists',
      (ns) => events.createNamespacedEvent({ namespace: ns, body: event(ns, 'dup') }),
      409,
      'AlreadyExists',
    ],
    [
      'Conflict',
      (ns) =>
        events.replaceNamespacedEvent({
          name: 'dup',
          namespace: ns,
          body: { ...event(ns, 'dup'), metadata: { name: 'dup', resourceVersion: '1' } },
        }),
      409,
      'Conflict',
    ],
    [
      'Invalid',
      (ns) => events.createNamespacedEvent({ namespace: ns, body: { ...event(ns, 'bad'), type: 'Bogus' } }),
      422,
      'Invalid',
    ],
  ])('throws ApiException for %s with the Status as its body', async (_name, call, code, reason) => {
    const namespace = uniqueNs('jserr');
    await events.createNamespacedEvent({ namespace, body: event(namespace, 'dup') });
    expect(await thrown(call(namespace))).toMatchObject({ code, body: { kind: 'Status', reason, code } });
  });

  it('a bad token is ApiException 401', async () => {
    const cfg = clientConfig(server);
    const bad = kubeConfig(cfg.server, cfg.caFile, 'not-a-known-token').makeApiClient(k8s.EventsV1Api);
    expect((await thrown(bad.listNamespacedEvent({ namespace: 'default' }))).code).toBe(401);
  });
});
