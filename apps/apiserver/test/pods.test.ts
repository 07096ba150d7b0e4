import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bindingBody,
  create,
  expectStatus,
  names,
  nodeBody,
  nodePath,
  podBody,
  podPath,
  SMP,
  newNamespace,
  unique,
  type Json,
} from './support/core.js';
import { stores } from './support/fixtures.js';
import { WatchStream } from './support/watch-stream.js';

describe.each(stores)('pods (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start(redisUrl ? { redisUrl } : {});
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('defaults a new pod for the scheduler: schedulerName, priority, Pending', async () => {
    const ns = await newNamespace(server);
    const pod = await create(server, podPath(ns), podBody('web'));
    expect(pod['spec']).toMatchObject({
      schedulerName: 'default-scheduler',
      priority: 0,
      preemptionPolicy: 'PreemptLowerPriority',
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
    });
    expect(pod['status']).toMatchObject({ phase: 'Pending', qosClass: 'BestEffort' });
    expect((pod['spec'] as Json)['nodeName']).toBeUndefined();
    expect((await expectStatus(server.request('GET', podPath(ns, 'web')), 200))['metadata']).toMatchObject({
      name: 'web',
      namespace: ns,
    });
  });

  it('keeps a schedulerName the pod names', async () => {
    const ns = await newNamespace(server);
    const pod = await create(server, podPath(ns), podBody('custom', { schedulerName: 'my-scheduler' }));
    expect(pod['spec']).toMatchObject({ schedulerName: 'my-scheduler' });
  });

  it('takes the priority from a system PriorityClass and refuses an unknown one (Priority admission)', async () => {
    const ns = await newNamespace(server);
    const critical = await create(
      server,
      podPath(ns),
      podBody('critical', { priorityClassName: 'system-cluster-critical' }),
    );
    expect(critical['spec']).toMatchObject({ priority: 2000000000 });
    const unknown = await server.request('POST', podPath(ns), {
      body: podBody('nope', { priorityClassName: 'gold' }),
    });
    expect(unknown.status).toBe(403);
    expect(unknown.json).toMatchObject({
      reason: 'Forbidden',
      message: 'pods "nope" is forbidden: no PriorityClass with name gold was found',
    });
  });

  it('refuses an invalid pod with a 422', async () => {
    const r = await server.request('POST', podPath(await newNamespace(server)), {
      body: podBody('bad', { containers: [] }),
    });
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ reason: 'Invalid', details: { name: 'bad', kind: 'Pod' } });
  });

  it('selects pods the way the scheduler lists them: spec.nodeName and status.phase!=', async () => {
    const ns = await newNamespace(server);
    const node = unique('node');
    await create(server, nodePath(), nodeBody(node));
    await create(server, podPath(ns), podBody('waiting'));
    await create(server, podPath(ns), podBody('placed'));
    await create(server, podPath(ns), podBody('done'));
    await expectStatus(
      server.request('POST', podPath(ns, 'placed', 'binding'), { body: bindingBody('placed', node) }),
      201,
    );
    await expectStatus(
      server.request('PATCH', podPath(ns, 'done', 'status'), {
        body: { status: { phase: 'Succeeded' } },
        contentType: SMP,
      }),
      200,
    );
    const select = async (selector: string) =>
      names(
        await expectStatus(
          server.request(
            'GET',
            podPath(ns, undefined, undefined, `fieldSelector=${encodeURIComponent(selector)}`),
          ),
          200,
        ),
      ).sort();
    expect(await select('spec.nodeName=')).toEqual(['done', 'waiting']);
    expect(await select(`spec.nodeName=${node}`)).toEqual(['placed']);
    expect(await select('spec.nodeName!=')).toEqual(['placed']);
    expect(await select('status.phase!=Succeeded,status.phase!=Failed')).toEqual(['placed', 'waiting']);
    // spec.host is the old name of spec.nodeName.
    expect(await select(`spec.host=${node}`)).toEqual(['placed']);
    // Across namespaces, as the scheduler's informer does.
    const all = await expectStatus(
      server.request(
        'GET',
        `/api/v1/pods?fieldSelector=${encodeURIComponent('status.phase!=Succeeded,status.phase!=Failed')}`,
      ),
      200,
    );
    expect(names(all)).toEqual(expect.arrayContaining(['placed', 'waiting']));
    expect(names(all)).not.toContain('done');
    const bad = await server.request(
      'GET',
      podPath(ns, undefined, undefined, 'fieldSelector=spec.image%3Dx'),
    );
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      reason: 'BadRequest',
      message: 'field label not supported: spec.image',
    });
  });

  it('watches unassigned pods: binding one ends its match', async () => {
    const ns = await newNamespace(server);
    const node = unique('node');
    await create(server, nodePath(), nodeBody(node));
    const listed = await expectStatus(
      server.request('GET', podPath(ns, undefined, undefined, 'fieldSelector=spec.nodeName%3D')),
      200,
    );
    const rv = (listed['metadata'] as Json)['resourceVersion'] as string;
    const watch = await WatchStream.open(
      server,
      podPath(ns, undefined, undefined, `watch=true&fieldSelector=spec.nodeName%3D&resourceVersion=${rv}`),
    );
    try {
      await create(server, podPath(ns), podBody('queued'));
      expect(await watch.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'queued' } } });
      await expectStatus(
        server.request('POST', podPath(ns, 'queued', 'binding'), { body: bindingBody('queued', node) }),
        201,
      );
      // As the watch cache does: the last matching state, at the binding's resourceVersion.
      const gone = await watch.next();
      expect(gone).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'queued' } } });
      expect((gone.object['spec'] as Json)['nodeName']).toBeUndefined();
      const bound = await expectStatus(server.request('GET', podPath(ns, 'queued')), 200);
      expect((gone.object['metadata'] as Json)['resourceVersion']).toBe(
        (bound['metadata'] as Json)['resourceVersion'],
      );
    } finally {
      watch.close();
    }
  });

  it('merges status conditions by type with a strategic merge patch on pods/status', async () => {
    const ns = await newNamespace(server);
    await create(server, podPath(ns), podBody('cond'));
    const first = { type: 'Initialized', status: 'True' };
    await expectStatus(
      server.request('PATCH', podPath(ns, 'cond', 'status'), {
        body: { status: { conditions: [first] } },
        contentType: SMP,
      }),
      200,
    );
    // What the scheduler sends when the pod does not fit.
    const unschedulable = {
      type: 'PodScheduled',
      status: 'False',
      reason: 'Unschedulable',
      message: '0/0 nodes are available: no nodes available to schedule pods.',
    };
    const patched = await expectStatus(
      server.request('PATCH', podPath(ns, 'cond', 'status'), {
        body: { status: { conditions: [unschedulable], nominatedNodeName: null } },
        contentType: SMP,
      }),
      200,
    );
    const conditions = (patched['status'] as Json)['conditions'] as Json[];
    expect(conditions.map((c) => c['type'])).toEqual(['PodScheduled', 'Initialized']);
    expect(conditions[0]).toMatchObject(unschedulable);
    expect(patched['status']).toMatchObject({ phase: 'Pending', qosClass: 'BestEffort' });
    // A second patch of the same type replaces that condition only.
    const again = await expectStatus(
      server.request('PATCH', podPath(ns, 'cond', 'status'), {
        body: {
          status: {
            conditions: [
              { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: 'still not' },
            ],
          },
        },
        contentType: SMP,
      }),
      200,
    );
    expect(((again['status'] as Json)['conditions'] as Json[]).map((c) => [c['type'], c['message']])).toEqual(
      [
        ['PodScheduled', 'still not'],
        ['Initialized', undefined],
      ],
    );
  });

  it('ignores status on a pod write and spec on a status write', async () => {
    const ns = await newNamespace(server);
    const pod = await create(server, podPath(ns), podBody('split', {}, { labels: { a: '1' } }));
    const withStatus = await expectStatus(
      server.request('PUT', podPath(ns, 'split'), { body: { ...pod, status: { phase: 'Running' } } }),
      200,
    );
    expect(withStatus['status']).toMatchObject({ phase: 'Pending' });
    const statusWrite = await expectStatus(
      server.request('PUT', podPath(ns, 'split', 'status'), {
        body: {
          ...withStatus,
          spec: { ...(withStatus['spec'] as Json), activeDeadlineSeconds: 5 },
          status: { phase: 'Running' },
        },
      }),
      200,
    );
    expect(statusWrite['status']).toMatchObject({ phase: 'Running' });
    expect((statusWrite['spec'] as Json)['activeDeadlineSeconds']).toBeUndefined();
  });

  it('routes pods/status to get, update and patch only', async () => {
    const ns = await newNamespace(server);
    await create(server, podPath(ns), podBody('routes'));
    expect((await server.request('GET', podPath(ns, 'routes', 'status'))).json).toMatchObject({
      kind: 'Pod',
      metadata: { name: 'routes' },
    });
    const post = await server.request('POST', podPath(ns, 'routes', 'status'), { body: {} });
    expect(post.status).toBe(405);
    expect((await server.request('GET', podPath(ns, 'routes', 'logs'))).status).toBe(404);
    expect(
      (await server.request('PATCH', podPath(ns, 'missing', 'status'), { body: {}, contentType: SMP })).json,
    ).toMatchObject({
      code: 404,
      message: 'pods "missing" not found',
    });
  });
});
