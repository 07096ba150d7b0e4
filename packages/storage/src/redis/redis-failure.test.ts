import { freePort, startRedisServer, type RedisServer } from '@keel/testing';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { isStorageError } from '../errors.js';
import { EventCollector, eventually } from '../testing/index.js';
import { Redis } from 'ioredis';
import { keyspace } from './keyspace.js';
import { createRedisStorage } from './redis-storage.js';
import type { Storage, StoredObject } from '../storage.js';

const named = (name: string): StoredObject => ({ metadata: { name } });

/** Runs `op`, expecting an Unreachable rejection within `withinMs`. */
async function failsFast(op: () => Promise<unknown>, withinMs = 1_000): Promise<void> {
  const started = Date.now();
  const err = await op().then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  expect(isStorageError(err) ? err.code : err).toBe('Unreachable');
  expect(Date.now() - started).toBeLessThan(withinMs);
}

/** A TCP relay to Redis that can cut one store off while others keep working. */
class Relay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  constructor(
    private readonly target: URL,
    readonly port: number,
  ) {}

  async up(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = createConnection(Number(this.target.port), this.target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => this.sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => this.server!.listen(this.port, '127.0.0.1', r));
  }

  async down(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server?.close(r));
  }
}

describe('redis storage when Redis goes away', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  async function open(server: RedisServer | { url: string }, startupTimeoutMs?: number): Promise<Storage> {
    const store = await createRedisStorage({
      urls: [server.url],
      prefix: '/registry',
      watchBlockMs: 200,
      connectTimeoutMs: 500,
      commandTimeoutMs: 1_000,
      ...(startupTimeoutMs ? { startupTimeoutMs } : {}),
    });
    cleanup.push(() => store.close());
    return store;
  }

  it('fails fast with Unreachable, then recovers by itself with every acknowledged write', async () => {
    const server = await startRedisServer();
    cleanup.push(() => server.close());
    const store = await open(server);
    for (const n of ['a', 'b', 'c']) await store.create(`/things/${n}`, named(n));
    const w = new EventCollector(store, '/things', { resourceVersion: '3' });
    await store.create('/things/d', named('d'));
    await w.waitFor(1);

    await server.stop();
    await failsFast(() => store.get('/things/a'));
    await failsFast(() => store.create('/things/e', named('e')));
    await failsFast(() => store.list('/things', { limit: 2 }));
    await failsFast(() => store.guaranteedUpdate('/things/a', (o) => o!));
    await failsFast(() => store.delete('/things/a'));
    await failsFast(() => store.currentResourceVersion());
    await failsFast(() => store.healthCheck(500));
    await failsFast(() => store.readinessCheck(500));
    const during = new EventCollector(store, '/things', { resourceVersion: '4' });
    await during.done;
    expect(during.events.map((e) => (e.type === 'ERROR' ? e.error.code : e.type))).toEqual(['Unreachable']);

    await server.restart();
    await eventually(() => store.healthCheck(500), 10_000);
    expect((await store.list('/things')).items.map((o) => o.metadata?.['name'])).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    expect(await store.currentResourceVersion()).toBe('4');
    const e = await eventually(() => store.create('/things/e', named('e')), 5_000);
    expect(e.metadata?.resourceVersion).toBe('5');
    // The watch opened before the outage resumes where it was: no error, nothing missed.
    const events = await w.waitFor(2, 5_000);
    expect(events.map((ev) => (ev.type === 'ADDED' ? `${ev.type} ${ev.resourceVersion}` : ev.type))).toEqual([
      'ADDED 4',
      'ADDED 5',
    ]);
    await w.stop();
  });

  it('ends a watch with Expired when Redis comes back older than what it delivered', async () => {
    const server = await startRedisServer();
    cleanup.push(() => server.close());
    const store = await open(server);
    const w = new EventCollector(store, '/things', { resourceVersion: '0' });
    for (const n of ['a', 'b', 'c']) await store.create(`/things/${n}`, named(n));
    await w.waitFor(3);
    // What a replica promoted after its master crashed may hold: the first write, not the others.
    const admin = new Redis(server.url);
    cleanup.push(() => admin.quit());
    const k = keyspace('/registry');
    await admin
      .multi()
      .set(k.rv, '1')
      .del(k.log, k.object('/things/b'), k.object('/things/c'))
      .zrem(k.index, '/things/b', '/things/c')
      .exec();
    await admin.call('CLIENT', 'KILL', 'TYPE', 'normal'); // the store's connections, not this one
    await w.done;
    expect(w.events.map((e) => (e.type === 'ERROR' ? `ERROR ${e.error.code}` : e.type))).toEqual([
      'ADDED',
      'ADDED',
      'ADDED',
      'ERROR Expired',
    ]);
    // Versions 2 and 3 are given out again, and a new watch sees them.
    const again = new EventCollector(store, '/things', { resourceVersion: '1' });
    const d = await eventually(() => store.create('/things/d', named('d')), 5_000);
    expect(d.metadata?.resourceVersion).toBe('2');
    expect((await again.waitFor(1)).map((e) => e.type === 'ADDED' && e.resourceVersion)).toEqual(['2']);
    await again.stop();
  });

  it('starts while Redis is down, answers Unreachable, and connects when Redis comes up', async () => {
    const port = await freePort();
    const store = await open({ url: `redis://127.0.0.1:${port}` }, 300);
    await failsFast(() => store.get('/things/a'));
    await failsFast(() => store.healthCheck(200));
    const server = await startRedisServer({ port });
    cleanup.push(() => server.close());
    await eventually(() => store.healthCheck(500), 10_000);
    expect((await store.create('/things/a', named('a'))).metadata?.resourceVersion).toBe('1');
  });

  it('ends a watch with Expired when the history it needs was compacted during the outage', async () => {
    const url = new URL(inject('redisUrl'));
    const relay = new Relay(url, await freePort());
    await relay.up();
    cleanup.push(() => relay.down());
    const prefix = `/outage-${Date.now()}-${Math.random()}`;
    const cutOff = await createRedisStorage({
      urls: [`redis://127.0.0.1:${relay.port}`],
      prefix,
      watchBlockMs: 200,
    });
    const other = await createRedisStorage({ urls: [url.href], prefix, compactionIntervalMs: 100 });
    cleanup.push(
      () => cutOff.close(),
      () => other.close(),
    );
    await other.create('/things/a', named('a'));
    const w = new EventCollector(cutOff, '/things', { resourceVersion: '1' });
    await other.create('/things/b', named('b'));
    await w.waitFor(1);
    await relay.down();
    await other.create('/things/c', named('c'));
    await other.create('/things/d', named('d'));
    await eventually(async () => {
      const err: unknown = await other
        .list('/things', { resourceVersion: '3', match: 'Exact' })
        .catch((e: unknown) => e);
      expect(isStorageError(err, 'Expired')).toBe(true);
    });
    await relay.up();
    await w.done;
    expect(
      w.events.map((e) => (e.type === 'ERROR' ? `ERROR ${e.error.code}` : `${e.type} ${e.resourceVersion}`)),
    ).toEqual(['ADDED 2', 'ERROR Expired']);
  });

  it('with the watch cache: ends its watches cleanly when the feed lost events, and fills a new cache', async () => {
    const url = new URL(inject('redisUrl'));
    const relay = new Relay(url, await freePort());
    await relay.up();
    cleanup.push(() => relay.down());
    const prefix = `/outage-cache-${Date.now()}-${Math.random()}`;
    const cutOff = await createRedisStorage({
      urls: [`redis://127.0.0.1:${relay.port}`],
      prefix,
      watchBlockMs: 200,
      watchCache: () => true,
    });
    const other = await createRedisStorage({ urls: [url.href], prefix, compactionIntervalMs: 100 });
    cleanup.push(
      () => cutOff.close(),
      () => other.close(),
    );
    await other.create('/things/a', named('a'));
    await cutOff.list('/things'); // fills the cache at 1
    const w = new EventCollector(cutOff, '/things', { resourceVersion: '1' });
    await other.create('/things/b', named('b'));
    await w.waitFor(1);
    await relay.down();
    await other.create('/things/c', named('c'));
    await other.create('/things/d', named('d'));
    await eventually(async () => {
      const err: unknown = await other
        .list('/things', { resourceVersion: '3', match: 'Exact' })
        .catch((e: unknown) => e);
      expect(isStorageError(err, 'Expired')).toBe(true);
    });
    await relay.up();
    // No ERROR: everything it sent was true; the client watches again from 2.
    await w.done;
    expect(w.events.map((e) => `${e.type} ${e.type === 'ERROR' ? e.error.code : e.resourceVersion}`)).toEqual(
      ['ADDED 2'],
    );
    // The store answers that watch: its history no longer reaches back to 2, so the client re-lists,
    // and the list (a new cache) has what the dropped one missed.
    const again = new EventCollector(cutOff, '/things', { resourceVersion: '2' });
    await again.done;
    expect(again.events.map((e) => e.type)).toEqual(['ERROR']);
    const names = (await cutOff.list('/things')).items.map((o) => o.metadata?.['name']);
    expect(names).toEqual(['a', 'b', 'c', 'd']);
  });
});
