/** TaintNodesByCondition's not-ready taint is lifted by the in-server node taint controller once a node is Ready. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { create, nodeBody, nodePath, unique, type Json } from './support/core.js';

const taintKeys = (node: Json) =>
  ((node['spec'] as Json | undefined)?.['taints'] as { key: string }[] | undefined)?.map((t) => t.key) ?? [];

describe('node condition taints (memory store)', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start();
    await server.ready();
  });
  afterAll(() => server.stop());

  const keysOf = async (name: string) =>
    taintKeys((await server.request('GET', nodePath(name))).json as Json);

  it('a Ready node loses the not-ready taint; a NotReady node keeps it; unschedulable adds its own', async () => {
    const ready = unique('ready');
    const created = await create(
      server,
      nodePath(),
      nodeBody(ready, { status: { conditions: [{ type: 'Ready', status: 'True' }] } }),
    );
    expect(taintKeys(created)).toEqual(['node.kubernetes.io/not-ready']);
    await expect.poll(() => keysOf(ready)).toEqual([]);

    const sick = unique('sick');
    await create(
      server,
      nodePath(),
      nodeBody(sick, { status: { conditions: [{ type: 'Ready', status: 'False' }] } }),
    );
    const patch = await server.request('PATCH', nodePath(sick), {
      body: { spec: { unschedulable: true } },
      contentType: 'application/merge-patch+json',
    });
    expect(patch.status).toBe(200);
    await expect
      .poll(() => keysOf(sick))
      .toEqual(['node.kubernetes.io/not-ready', 'node.kubernetes.io/unschedulable']);
  });
});
