/**
 * --enable-garbage-collector=false: deletes add none of the collector's finalizers, whatever
 * propagationPolicy asks, and dependents are left alone (no collector runs, no hook is listed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { expectStatus, unique } from './support/core.js';
import { cmPath, createConfigMap, meta, ownerRef, read } from './support/gc.js';

describe('with --enable-garbage-collector=false', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({ args: ['--enable-garbage-collector=false'] });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('adds no finalizers, deletes at once and leaves dependents alone', async () => {
    const ns = unique('gc-off');
    const held = await createConfigMap(server, ns, 'held', { finalizers: ['example.com/hold'] });
    for (const policy of ['Foreground', 'Orphan']) {
      const owner = await createConfigMap(server, ns, `owner-${policy.toLowerCase()}`);
      await createConfigMap(server, ns, `dep-${policy.toLowerCase()}`, {
        ownerReferences: [ownerRef(owner)],
      });
      const status = await expectStatus(
        server.request('DELETE', cmPath(ns, `owner-${policy.toLowerCase()}`, `propagationPolicy=${policy}`)),
        200,
      );
      expect(status['kind']).toBe('Status');
    }
    const marked = await expectStatus(
      server.request('DELETE', cmPath(ns, 'held', 'propagationPolicy=Foreground')),
      200,
    );
    expect(meta(marked)['finalizers']).toEqual(meta(held)['finalizers']);

    // A dependent whose owner is gone is a sure sign of no collector; the background owner is
    // deleted last, and a second object created afterwards shows the server has moved on.
    const owner = await createConfigMap(server, ns, 'owner-bg');
    await createConfigMap(server, ns, 'dep-bg', { ownerReferences: [ownerRef(owner)] });
    await expectStatus(server.request('DELETE', cmPath(ns, 'owner-bg')), 200);
    const readyz = await server.request('GET', '/readyz?verbose');
    expect(readyz.text).not.toContain('start-garbage-collector-controller');
    for (const name of ['dep-foreground', 'dep-orphan', 'dep-bg']) {
      const dep = await read(server, cmPath(ns, name));
      expect((meta(dep)['ownerReferences'] as unknown[]).length).toBe(1);
    }
  });
});
