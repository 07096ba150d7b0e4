/**
 * Two API servers on one Redis both run the namespace controller: deleting a namespace through
 * one empties and removes it once, whichever server does each step, and both agree it is gone.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { create, expectStatus, podBody, podPath, unique, type Json } from './support/core.js';

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

describe('namespace deletion with two API servers on one Redis', () => {
  let a: TestApiServer;
  let b: TestApiServer;
  beforeAll(async () => {
    const args = [
      `--store-servers=${inject('redisUrl')}`,
      `--store-prefix=/ns-${randomBytes(6).toString('hex')}`,
    ];
    [a, b] = await Promise.all([
      TestApiServer.start({ args, namespaceLifecycle: true }),
      TestApiServer.start({ args, namespaceLifecycle: true }),
    ]);
    await Promise.all([a.ready(), b.ready()]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('a namespace deleted through one server is emptied and removed, and new content is refused on both', async () => {
    const ns = unique('shared');
    await create(a, '/api/v1/namespaces', { metadata: { name: ns } });
    // The other server's copy of the namespaces learns of it; its creates then pass.
    await eventually('the namespace on the second server', async () =>
      (await b.request('POST', podPath(ns), { body: podBody('first') })).status === 201 ? true : undefined,
    );
    for (let i = 0; i < 20; i++) {
      const server = i % 2 === 0 ? a : b;
      await create(server, `/api/v1/namespaces/${ns}/configmaps`, {
        metadata: { name: `c${i}` },
        data: { i: `${i}` },
      });
    }
    await expectStatus(a.request('DELETE', `/api/v1/namespaces/${ns}`), 200);
    // New content is refused (Terminating: 403, or already gone: 404): at once by the server the
    // delete went through, by the other once its copy caught up. Dry runs, so nothing is left behind.
    const late = (server: TestApiServer) =>
      server.request('POST', `${podPath(ns)}?dryRun=All`, { body: podBody('late') });
    expect([403, 404]).toContain((await late(a)).status);
    await eventually('the second server to refuse new content', async () =>
      [403, 404].includes((await late(b)).status) ? true : undefined,
    );
    for (const server of [a, b]) {
      await eventually('the namespace to be gone', async () =>
        (await server.request('GET', `/api/v1/namespaces/${ns}`)).status === 404 ? true : undefined,
      );
      const cms = await expectStatus(server.request('GET', `/api/v1/namespaces/${ns}/configmaps`), 200);
      expect(cms['items'] as Json[]).toEqual([]);
      const pods = await expectStatus(server.request('GET', podPath(ns)), 200);
      expect(pods['items'] as Json[]).toEqual([]);
    }
  });
});
