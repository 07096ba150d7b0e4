/**
 * The official Python client (kubernetes) against the built keel-apiserver, on both stores, with
 * nothing but a kubeconfig: typed create/read/list/replace/patch/delete, the dynamic client for
 * merge patches and server-side apply, watch, dry-run, and the errors as ApiException reports them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '@keel/testing';
import { startServer, STORES, uniqueNs, type Json } from './support/events.js';
import { clientConfig, type ClientConfig } from './support/clients/kubeconfig.js';
import { fieldsByManager } from './support/clients/manifests.js';
import { python, pythonOk, PythonWatch } from './support/clients/python.js';

interface Names {
  readonly names: string[];
  readonly continue: string | null;
  readonly resourceVersion: string;
}

const meta = (o: Json) => o['metadata'] as Json;

describe.each(STORES)('the Python client against Keel (%s store)', (store) => {
  let server: TestApiServer;
  let cfg: ClientConfig;
  const py = (op: string, args: Record<string, unknown> = {}) => python(cfg, op, args);
  const pyOk = <T = Json>(op: string, args: Record<string, unknown> = {}) => pythonOk<T>(cfg, op, args);

  beforeAll(async () => {
    server = await startServer(store);
    cfg = clientConfig(server);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('creates typed Events (its own MicroTime formats included) and reads them back through both APIs', async () => {
    const namespace = uniqueNs('py');
    const created = await pyOk('create', { namespace, name: 'e1', labels: { app: 'py' } });
    expect(created).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e1', namespace, labels: { app: 'py' } },
      eventTime: '2024-05-01T10:00:00.123456+00:00',
      note: 'from python',
    });
    expect(meta(created)['uid']).toMatch(/^[0-9a-f-]{36}$/);
    // isoformat() leaves the fraction out when it is zero.
    const whole = await pyOk('create', { namespace, name: 'e0', micros: 0 });
    expect(whole['eventTime']).toBe('2024-05-01T10:00:00+00:00');
    expect(await pyOk('get', { namespace, name: 'e1' })).toMatchObject({ reason: 'Started', type: 'Normal' });
    await pyOk('create_core', { namespace, name: 'c1' });
    expect((await pyOk<Names>('list_core', { namespace })).names).toEqual(['c1', 'e0', 'e1']);
  });

  it('lists across namespaces, by label and field selector, and in pages', async () => {
    const [a, b] = [uniqueNs('pya'), uniqueNs('pyb')];
    const suite = uniqueNs('suite');
    await pyOk('create', { namespace: a, name: 'l1', labels: { suite, tier: 'x' } });
    await pyOk('create', { namespace: b, name: 'l2', labels: { suite, tier: 'y' }, reason: 'Other' });
    await pyOk('create', { namespace: b, name: 'l3', labels: { suite, tier: 'y' } });
    const all = await pyOk<Names>('list', { label_selector: `suite=${suite}` });
    expect(all.names.sort()).toEqual(['l1', 'l2', 'l3']);
    expect((await pyOk<Names>('list', { label_selector: `suite=${suite},tier=y` })).names).toEqual([
      'l2',
      'l3',
    ]);
    expect(
      (await pyOk<Names>('list', { namespace: b, field_selector: 'reason=Other,metadata.name=l2' })).names,
    ).toEqual(['l2']);
    const first = await pyOk<Names>('list', { namespace: b, limit: 1 });
    expect(first.names).toEqual(['l2']);
    expect(first.continue).toEqual(expect.any(String));
    const second = await pyOk<Names>('list', { namespace: b, limit: 1, _continue: first.continue });
    expect([second.names, second.continue, second.resourceVersion]).toEqual([
      ['l3'],
      null,
      first.resourceVersion,
    ]);
  });

  it('replaces, and patches with a strategic merge patch, a JSON patch and a merge patch', async () => {
    const namespace = uniqueNs('pyw');
    await pyOk('create', { namespace, name: 'w1', labels: { a: '1' } });
    expect(meta(await pyOk('replace', { namespace, name: 'w1', labels: { a: '2' } }))['labels']).toEqual({
      a: '2',
    });
    const smp = await pyOk('patch', { namespace, name: 'w1', patch: { metadata: { labels: { s: '1' } } } });
    expect(meta(smp)['labels']).toEqual({ a: '2', s: '1' });
    const jsonPatch = await pyOk('patch', {
      namespace,
      name: 'w1',
      patch: [{ op: 'remove', path: '/metadata/labels/a' }],
    });
    expect(meta(jsonPatch)['labels']).toEqual({ s: '1' });
    const merge = await pyOk('merge_patch', {
      namespace,
      name: 'w1',
      patch: { metadata: { labels: { s: null } } },
    });
    expect(meta(merge)['labels']).toBeUndefined();
  });

  it('server-side apply through the dynamic client: create, conflict (409) and force', async () => {
    const namespace = uniqueNs('pyssa');
    const applied = await pyOk('apply', { namespace, name: 's1', manager: 'py-one', labels: { app: 'one' } });
    expect(Object.keys(fieldsByManager(applied))).toEqual(['py-one/Apply']);
    const clash = await py('apply', { namespace, name: 's1', manager: 'py-two', labels: { app: 'two' } });
    expect(clash).toEqual({
      ok: false,
      status: 409,
      reason: 'Conflict',
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Apply failed with 1 conflict: conflict with "py-one": .metadata.labels.app',
        reason: 'Conflict',
        details: {
          causes: [
            {
              reason: 'FieldManagerConflict',
              message: 'conflict with "py-one"',
              field: '.metadata.labels.app',
            },
          ],
        },
        code: 409,
      },
    });
    const forced = await pyOk('apply', {
      namespace,
      name: 's1',
      manager: 'py-two',
      labels: { app: 'two' },
      force: true,
    });
    expect(meta(forced)['labels']).toEqual({ app: 'two' });
    expect(fieldsByManager(forced)['py-one/Apply']).not.toHaveProperty('f:metadata');
  });

  it('dry-run creates, applies and deletes change nothing', async () => {
    const namespace = uniqueNs('pydry');
    const dry = await pyOk('create', { namespace, name: 'd1', dryRun: 'All' });
    expect(meta(dry)['name']).toBe('d1');
    expect(meta(dry)).not.toHaveProperty('resourceVersion');
    await pyOk('apply', { namespace, name: 'd2', manager: 'py', dryRun: 'All' });
    expect((await pyOk<Names>('list', { namespace })).names).toEqual([]);
    await pyOk('create', { namespace, name: 'd3' });
    expect(await pyOk('delete', { namespace, name: 'd3', dryRun: 'All' })).toMatchObject({
      status: 'Success',
    });
    expect((await pyOk<Names>('list', { namespace })).names).toEqual(['d3']);
  });

  it('deletes one event (a Success Status) and a labelled collection', async () => {
    const namespace = uniqueNs('pydel');
    for (const [name, tier] of [
      ['x1', 'a'],
      ['x2', 'b'],
      ['x3', 'b'],
    ]) {
      await pyOk('create', { namespace, name, labels: { tier } });
    }
    expect(await pyOk('delete', { namespace, name: 'x1' })).toMatchObject({
      kind: 'Status',
      status: 'Success',
      details: { name: 'x1', group: 'events.k8s.io', kind: 'events' },
    });
    expect((await pyOk<Names>('delete_collection', { namespace, label_selector: 'tier=b' })).names).toEqual(
      [],
    );
  });

  it('watch.Watch().stream sees ADDED, MODIFIED and DELETED as typed events', async () => {
    const namespace = uniqueNs('pywatch');
    await pyOk('create', { namespace, name: 'v1' });
    const w = new PythonWatch(cfg, namespace);
    try {
      await w.waitFor('ADDED');
      await pyOk('patch', { namespace, name: 'v1', patch: { metadata: { labels: { seen: 'yes' } } } });
      await w.waitFor('MODIFIED');
      await pyOk('delete', { namespace, name: 'v1' });
      await w.waitFor('DELETED');
    } finally {
      await w.stop();
    }
    expect(w.events).toEqual([
      { type: 'ADDED', name: 'v1', model: 'EventsV1Event', labels: null },
      { type: 'MODIFIED', name: 'v1', model: 'EventsV1Event', labels: { seen: 'yes' } },
      { type: 'DELETED', name: 'v1', model: 'EventsV1Event', labels: { seen: 'yes' } },
    ]);
  });

  it.each<[string, string, Record<string, unknown>, number, string, string]>([
    ['NotFound', 'get', { name: 'nope' }, 404, 'Not Found', 'NotFound'],
    ['AlreadyExists', 'create', { name: 'dup' }, 409, 'Conflict', 'AlreadyExists'],
    ['Conflict', 'replace', { name: 'dup', labels: {}, resourceVersion: '1' }, 409, 'Conflict', 'Conflict'],
    ['Invalid', 'create', { name: 'bad', type: 'Bogus' }, 422, 'Unprocessable Entity', 'Invalid'],
  ])(
    'reports %s as ApiException(status, reason) with the Status body',
    async (_n, op, args, status, reason, kind) => {
      const namespace = uniqueNs('pyerr');
      await pyOk('create', { namespace, name: 'dup' });
      const r = await py(op, { namespace, ...args });
      expect(r).toMatchObject({
        ok: false,
        status,
        reason,
        body: { kind: 'Status', reason: kind, code: status },
      });
    },
  );

  it('a bad token is ApiException(401, Unauthorized)', async () => {
    const r = await python(cfg, 'list', { namespace: 'default' }, cfg.badKubeconfig);
    expect(r).toEqual({
      ok: false,
      status: 401,
      reason: 'Unauthorized',
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Unauthorized',
        reason: 'Unauthorized',
        code: 401,
      },
    });
  });
});
