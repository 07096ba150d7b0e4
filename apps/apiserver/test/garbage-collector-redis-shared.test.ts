/**
 * Two API servers on one Redis both run the garbage collector: every owner deleted through either
 * server has its dependents deleted (or orphaned) once, whichever server acts, and neither logs a
 * failed action for work the other did first.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { create, expectStatus, unique, MERGE } from './support/core.js';
import {
  cmPath,
  createConfigMap,
  eventually,
  gone,
  meta,
  ownerRef,
  read,
  secret,
  secretPath,
} from './support/gc.js';

const OWNERS = 12;

describe('garbage collection with two API servers on one Redis', () => {
  let a: TestApiServer;
  let b: TestApiServer;
  let args: string[];
  beforeAll(async () => {
    args = [
      `--store-servers=${inject('redisUrl')}`,
      `--store-prefix=/gc-${randomBytes(6).toString('hex')}`,
      // The collector's retried failures are logged at this verbosity.
      '-v=2',
    ];
    [a, b] = await Promise.all([TestApiServer.start({ args }), TestApiServer.start({ args })]);
    await Promise.all([a.ready(), b.ready()]);
  });
  // The last test stops both servers itself.
  let stopped = false;
  afterAll(async () => {
    if (!stopped) await Promise.all([a?.stop(), b?.stop()]);
  });

  it('owners deleted through either server lose their dependents once, with no failed actions', async () => {
    const ns = unique('gc-shared');
    const policies = ['Background', 'Foreground', 'Orphan'] as const;
    for (let i = 0; i < OWNERS; i++) {
      const via = i % 2 === 0 ? a : b;
      const owner = await createConfigMap(via, ns, `owner-${i}`);
      const refs = { ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] };
      await createConfigMap(via, ns, `dep-cm-${i}`, refs);
      await create(via, secretPath(ns), secret(`dep-secret-${i}`, refs));
    }
    for (let i = 0; i < OWNERS; i++) {
      const via = i % 2 === 0 ? b : a;
      await expectStatus(
        via.request('DELETE', cmPath(ns, `owner-${i}`, `propagationPolicy=${policies[i % 3] ?? ''}`)),
        200,
      );
    }
    for (let i = 0; i < OWNERS; i++) {
      for (const server of [a, b]) await gone(server, cmPath(ns, `owner-${i}`));
      if (policies[i % 3] === 'Orphan') {
        for (const server of [a, b]) {
          expect(meta(await read(server, cmPath(ns, `dep-cm-${i}`)))['ownerReferences']).toBeUndefined();
          expect(
            meta(await read(server, secretPath(ns, `dep-secret-${i}`)))['ownerReferences'],
          ).toBeUndefined();
        }
      } else {
        for (const server of [a, b]) {
          await gone(server, cmPath(ns, `dep-cm-${i}`));
          await gone(server, secretPath(ns, `dep-secret-${i}`));
        }
      }
    }
    for (const server of [a, b]) {
      expect(server.process.stderr).not.toMatch(/Garbage collection failed/);
      // Verbosity 2 is on (the flags are listed at it), so a failed action would show.
      expect(server.process.stderr).toContain('FLAG: --enable-garbage-collector=\\"true\\"');
    }
  });

  it('a server that starts later finishes a foreground deletion another began before stopping', async () => {
    const ns = unique('gc-handover');
    const owner = await createConfigMap(a, ns, 'owner');
    await createConfigMap(a, ns, 'dep', {
      ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })],
      finalizers: ['example.com/hold'],
    });
    await expectStatus(a.request('DELETE', cmPath(ns, 'owner', 'propagationPolicy=Foreground')), 200);
    // Both servers' collectors delete the dependent (its finalizer keeps it) and then wait.
    await eventually('the dependent to be marked', async () =>
      meta(await read(a, cmPath(ns, 'dep')))['deletionTimestamp'] ? true : undefined,
    );
    stopped = true;
    await Promise.all([a.stop(), b.stop()]);
    const c = await TestApiServer.start({ args });
    try {
      await c.ready();
      expect(meta(await read(c, cmPath(ns, 'owner')))['finalizers']).toEqual(['foregroundDeletion']);
      await expectStatus(
        c.request('PATCH', cmPath(ns, 'dep'), {
          body: { metadata: { finalizers: null } },
          contentType: MERGE,
        }),
        200,
      );
      await gone(c, cmPath(ns, 'dep'));
      await gone(c, cmPath(ns, 'owner'));
    } finally {
      await c.stop();
    }
  });
});
