import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '@keel/testing';
import {
  body,
  corePath,
  createEvents,
  evPath,
  items,
  newEvent,
  startServer,
  STORES,
  uniqueNs,
  type Json,
} from './support/events.js';

/** Enough events (with long notes) that the list body passes the 256 KiB streaming threshold. */
const COUNT = 300;
const NOTE = 'n'.repeat(900);

describe.each(STORES)('large Event lists (%s store)', (store) => {
  let server: TestApiServer;
  let ns: string;
  beforeAll(async () => {
    server = await startServer(store);
    ns = uniqueNs('large');
    await createEvents(
      server,
      ns,
      Array.from({ length: COUNT }, (_, i) =>
        newEvent(ns, `ev-${String(i).padStart(4, '0')}`, { note: NOTE }),
      ),
    );
  });
  afterAll(async () => {
    await server.stop();
  });

  it('streams a large list whose bytes equal the one-shot (pretty) encoding', async () => {
    const streamed = await server.request('GET', evPath(ns));
    expect(streamed.status).toBe(200);
    // Streamed in several writes, under a Content-Length of the whole body (no chunked framing);
    // the body still ends with the encoder's newline.
    expect(streamed.headers['transfer-encoding']).toBeUndefined();
    expect(Number(streamed.headers['content-length'])).toBe(Buffer.byteLength(streamed.text));
    expect(streamed.text.length).toBeGreaterThan(256 * 1024);
    expect(streamed.text.endsWith(']}\n')).toBe(true);
    const oneShot = await server.request('GET', evPath(ns, undefined, 'pretty=true'));
    expect(oneShot.headers['content-length']).toBeDefined();
    expect(JSON.parse(streamed.text)).toEqual(JSON.parse(oneShot.text));
    const list = body(streamed);
    expect(Object.keys(list)).toEqual(['kind', 'apiVersion', 'metadata', 'items']);
    expect(items(list)).toHaveLength(COUNT);
    expect(items(list)[0]).not.toHaveProperty('kind');
  });

  it('serves each view its own encoding of the same stored state', async () => {
    const v1 = items(body(await server.request('GET', evPath(ns))));
    const core = items(body(await server.request('GET', corePath(ns))));
    expect(v1[0]?.['note']).toBe(NOTE);
    expect(core[0]?.['message']).toBe(NOTE);
    expect(core[0]).not.toHaveProperty('note');
  });

  it('a list after an update carries the new state, not a cached encoding of the old one', async () => {
    const name = 'ev-0007';
    const before = items(body(await server.request('GET', evPath(ns)))).find(
      (e) => (e['metadata'] as Json)['name'] === name,
    );
    const patched = await server.request('PATCH', evPath(ns, name), {
      body: JSON.stringify({ metadata: { labels: { changed: 'yes' } } }),
      contentType: 'application/merge-patch+json',
    });
    expect(patched.status).toBe(200);
    const after = items(body(await server.request('GET', evPath(ns)))).find(
      (e) => (e['metadata'] as Json)['name'] === name,
    );
    expect((before?.['metadata'] as Json)['labels']).toBeUndefined();
    expect((after?.['metadata'] as Json)['labels']).toEqual({ changed: 'yes' });
    expect((after?.['metadata'] as Json)['resourceVersion']).toBe(
      (body(patched)['metadata'] as Json)['resourceVersion'],
    );
  });

  it('a list after a delete and a re-create by the same name holds only the new object', async () => {
    const name = 'ev-0011';
    const named = (list: Json[]) => list.filter((e) => (e['metadata'] as Json)['name'] === name);
    expect(named(items(body(await server.request('GET', evPath(ns)))))).toHaveLength(1);
    expect((await server.request('DELETE', evPath(ns, name))).status).toBe(200);
    const without = items(body(await server.request('GET', evPath(ns))));
    expect(without).toHaveLength(COUNT - 1);
    expect(named(without)).toEqual([]);
    const created = await server.request('POST', evPath(ns), { body: newEvent(ns, name, { note: 'again' }) });
    expect(created.status).toBe(201);
    const again = named(items(body(await server.request('GET', evPath(ns)))));
    expect(again.map((e) => e['note'])).toEqual(['again']);
    expect(items(body(await server.request('GET', evPath(ns))))).toHaveLength(COUNT);
  });
});
