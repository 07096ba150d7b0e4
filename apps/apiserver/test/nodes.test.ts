import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  create,
  expectStatus,
  MERGE,
  names,
  nodeBody,
  nodePath,
  SMP,
  unique,
  type Json,
} from './support/core.js';
import { stores } from './support/fixtures.js';

describe.each(stores)('nodes (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start(redisUrl ? { redisUrl } : {});
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('creates, reads, lists, updates and deletes a cluster-scoped node', async () => {
    const name = unique('node');
    const made = await create(server, nodePath(), nodeBody(name, { spec: { podCIDR: '10.0.0.0/24' } }));
    expect(made).toMatchObject({ kind: 'Node', apiVersion: 'v1', metadata: { name } });
    expect((made['metadata'] as Json)['namespace']).toBeUndefined();

    const got = await expectStatus(server.request('GET', nodePath(name)), 200);
    expect(got['metadata']).toMatchObject({ name, uid: (made['metadata'] as Json)['uid'] });
    expect(names(await expectStatus(server.request('GET', nodePath()), 200))).toContain(name);

    const updated = await expectStatus(
      server.request('PUT', nodePath(name), {
        body: { ...got, spec: { ...(got['spec'] as Json), unschedulable: true } },
      }),
      200,
    );
    expect(updated['spec']).toMatchObject({ unschedulable: true, podCIDR: '10.0.0.0/24' });

    const gone = await server.request('DELETE', nodePath(name));
    expect(gone.status).toBe(200);
    expect(gone.json).toMatchObject({ kind: 'Status', status: 'Success', details: { name, kind: 'nodes' } });
    const missing = await server.request('GET', nodePath(name));
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ reason: 'NotFound', message: `nodes "${name}" not found` });
  });

  it('is not served under a namespace', async () => {
    const r = await server.request('GET', '/api/v1/namespaces/default/nodes');
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({
      reason: 'NotFound',
      message: 'the server could not find the requested resource',
    });
  });

  it('selects nodes by spec.unschedulable and refuses other field labels', async () => {
    const cordoned = unique('cordoned');
    const open = unique('open');
    await create(server, nodePath(), nodeBody(cordoned, { spec: { unschedulable: true } }));
    await create(server, nodePath(), nodeBody(open));
    const list = await expectStatus(
      server.request('GET', nodePath(undefined, undefined, 'fieldSelector=spec.unschedulable%3Dtrue')),
      200,
    );
    expect(names(list)).toContain(cordoned);
    expect(names(list)).not.toContain(open);
    const bad = await server.request('GET', nodePath(undefined, undefined, 'fieldSelector=spec.podCIDR%3Dx'));
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      reason: 'BadRequest',
      message: 'field label not supported: spec.podCIDR',
    });
  });

  it('changes only the status through nodes/status, and only the spec through the node', async () => {
    const name = unique('node');
    await create(server, nodePath(), nodeBody(name));
    const current = await expectStatus(server.request('GET', nodePath(name, 'status')), 200);
    expect(current).toMatchObject({ kind: 'Node', metadata: { name } });

    const ready = {
      type: 'Ready',
      status: 'True',
      reason: 'KubeletReady',
      message: 'kubelet is posting ready status',
    };
    const put = await expectStatus(
      server.request('PUT', nodePath(name, 'status'), {
        body: {
          ...current,
          spec: { unschedulable: true },
          status: {
            capacity: { cpu: '4', memory: '8Gi', pods: '110' },
            allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
            conditions: [ready],
          },
        },
      }),
      200,
    );
    expect(put['status']).toMatchObject({
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      conditions: [{ ...ready }],
    });
    // The spec is the stored one on a status write.
    expect((put['spec'] as Json)['unschedulable']).toBeUndefined();

    // Strategic merge on nodes/status merges conditions by type.
    const pressure = { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory' };
    const patched = await expectStatus(
      server.request('PATCH', nodePath(name, 'status'), {
        body: { status: { conditions: [pressure] } },
        contentType: SMP,
      }),
      200,
    );
    // Zero times are written as Go writes them: null.
    const stamped = (c: Json) => ({ ...c, lastHeartbeatTime: null, lastTransitionTime: null });
    expect((patched['status'] as Json)['conditions']).toEqual([stamped(pressure), stamped(ready)]);

    // A write to the node itself keeps the stored status.
    const spec = await expectStatus(
      server.request('PATCH', nodePath(name), {
        body: { spec: { unschedulable: true }, status: { conditions: [] } },
        contentType: MERGE,
      }),
      200,
    );
    expect(spec['spec']).toMatchObject({ unschedulable: true });
    expect((spec['status'] as Json)['conditions']).toEqual([stamped(pressure), stamped(ready)]);
  });

  it('takes only get, update and patch on nodes/status', async () => {
    const name = unique('node');
    await create(server, nodePath(), nodeBody(name));
    for (const method of ['POST', 'DELETE']) {
      const r = await server.request(method, nodePath(name, 'status'), { body: {} });
      expect(r.status).toBe(405);
      expect(r.json).toMatchObject({ reason: 'MethodNotAllowed' });
    }
    expect((await server.request('GET', nodePath('missing-node', 'status'))).status).toBe(404);
  });
});
