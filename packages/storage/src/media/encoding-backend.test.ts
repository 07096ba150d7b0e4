import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { describeStorageConformance, EventCollector } from '../testing/index.js';
import { randomPrefix, dropStore, redisFixture } from '../testing/redis-fixture.js';
import { createRedisStorage } from '../redis/redis-storage.js';
import { PROTOBUF_MAGIC, type StoredEncoding } from './encoding-backend.js';
import type { StoredObject } from '../storage.js';

/**
 * A binary stand-in for protobuf (apps/apiserver tests the real one): the magic, then the JSON
 * bytes with their top bit flipped, so no stored byte after the magic is valid UTF-8 on its own
 * and any layer that reads or writes the value as text would corrupt it.
 */
const flip = (b: Buffer): Buffer => Buffer.from(b.map((x) => x ^ 0x80));
const binary: StoredEncoding = {
  encode: (_key, json) => PROTOBUF_MAGIC + flip(Buffer.from(json, 'utf8')).toString('latin1'),
  decode: (_key, stored) => flip(Buffer.from(stored.slice(PROTOBUF_MAGIC.length), 'latin1')).toString('utf8'),
};

const prefixes: string[] = [];
for (const watchCache of [false, true])
  describeStorageConformance(`redis, binary stored encoding${watchCache ? ', watch cache' : ''}`, (opts) => {
    const prefix = randomPrefix();
    prefixes.push(prefix);
    return createRedisStorage({
      urls: [inject('redisUrl')],
      prefix,
      watchBlockMs: 200,
      ...opts,
      storedEncoding: binary,
      ...(watchCache ? { watchCache: () => true } : {}),
    });
  });

afterAll(async () => {
  const admin = new Redis(inject('redisUrl'));
  for (const prefix of prefixes) await dropStore(admin, prefix);
  await admin.quit();
});

const named = (name: string, note = 'é ✓'): StoredObject => ({ metadata: { name }, data: { note } });
const jsonOnly: StoredEncoding = { encode: (_k, json) => json, decode: (k, s) => binary.decode(k, s) };

describe('stored encoding in Redis', () => {
  const fx = redisFixture();

  it('stores the bytes themselves: the magic, then the encoding', async () => {
    const prefix = randomPrefix();
    const store = await fx.open({ prefix, storedEncoding: binary });
    await store.create('/things/a', named('a'));
    const stored = await fx.admin().hgetBuffer(`{${prefix}}:obj:/things/a`, 'v');
    expect(stored!.subarray(0, 4)).toEqual(Buffer.from('k8s\0', 'latin1'));
    expect(flip(stored!.subarray(4)).toString('utf8')).toBe(
      '{"metadata":{"name":"a"},"data":{"note":"é ✓"}}',
    );
  });

  it('reads objects stored in either encoding, whichever it writes, and migrates on a no-op update', async () => {
    const prefix = randomPrefix();
    const asJson = await fx.open({ prefix, storedEncoding: jsonOnly });
    await asJson.create('/things/j', named('j'));
    const asBinary = await fx.open({ prefix, storedEncoding: binary });
    const w = new EventCollector(asBinary, '/things', { resourceVersion: '1' });
    await asBinary.create('/things/b', named('b'));
    // Each server reads what the other wrote: get, list, watch.
    expect((await asJson.get<StoredObject>('/things/b')).metadata?.['name']).toBe('b');
    expect((await asBinary.get<StoredObject>('/things/j')).metadata?.['name']).toBe('j');
    for (const s of [asJson, asBinary])
      expect((await s.list('/things')).items.map((o) => o.metadata?.['name'])).toEqual(['b', 'j']);
    await w.waitFor(1);
    // An update that changes nothing keeps the version in the same encoding, and rewrites (migrates)
    // an object stored in the other one, as etcd3 compares encoded bytes.
    const b = await asBinary.guaranteedUpdate<StoredObject>('/things/b', (o) => o!);
    expect(b.metadata?.['resourceVersion']).toBe('2');
    const j = await asBinary.guaranteedUpdate<StoredObject>('/things/j', (o) => o!);
    expect(j.metadata?.['resourceVersion']).toBe('3');
    const raw = await fx.admin().hgetBuffer(`{${prefix}}:obj:/things/j`, 'v');
    expect(raw!.subarray(0, 4).toString('latin1')).toBe(PROTOBUF_MAGIC);
    await w.waitFor(2);
    expect(w.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED']);
    // The JSON server's update of the binary object takes it back to JSON.
    await asJson.guaranteedUpdate<StoredObject>('/things/j', (o) => ({ ...o!, data: { note: 'x' } }));
    expect((await fx.admin().hget(`{${prefix}}:obj:/things/j`, 'v'))!.startsWith('{')).toBe(true);
    expect((await asBinary.get<StoredObject>('/things/j')).data).toEqual({ note: 'x' });
    await asBinary.delete('/things/b');
    await w.waitFor(4);
    expect(w.events.at(-1)?.type).toBe('DELETED');
    await w.stop();
  });
});

describe('stored encoding, watched', () => {
  const fx = redisFixture();

  it('decodes a change once for all the watches it reaches, and not at all when none is of its resource', async () => {
    const decoded: string[] = [];
    const counting: StoredEncoding = {
      encode: (key, json) => binary.encode(key, json),
      decode: (key, stored) => {
        decoded.push(key);
        return binary.decode(key, stored);
      },
    };
    const store = await fx.open({ prefix: randomPrefix(), storedEncoding: counting });
    const seed = await store.create<StoredObject>('/seed/s', named('s'));
    const from = { resourceVersion: String(seed.metadata?.['resourceVersion']) };
    const things = [1, 2].map(() => new EventCollector(store, '/things', from));
    const others = [1, 2, 3].map(() => new EventCollector(store, '/others', from));
    // Once these reached every watch, all of them are live: each a subscriber of the store's one
    // change-log reader, handed every entry of the store.
    await store.create('/things/m', named('m'));
    await store.create('/others/m', named('m'));
    for (const w of [...things, ...others]) await w.waitFor(1);
    decoded.length = 0;
    await store.create('/nobody/z', named('z'));
    await store.create('/things/a', named('a'));
    await store.create('/others/o', named('o'));
    for (const w of things) expect((await w.waitFor(2)).map((e) => e.type)).toEqual(['ADDED', 'ADDED']);
    for (const w of others) expect((await w.waitFor(2)).map((e) => e.type)).toEqual(['ADDED', 'ADDED']);
    expect(decoded.sort()).toEqual(['/others/o', '/things/a']);
    for (const w of [...things, ...others]) await w.stop();
  });
});
