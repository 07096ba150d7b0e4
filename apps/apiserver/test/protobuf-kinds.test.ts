/**
 * Every built-in kind the server serves, end to end in protobuf (JSON → protobuf → JSON): each is
 * created from a protobuf body, read back in both encodings (get, list, watch frame, status and
 * scale subresources), updated and deleted with protobuf bodies, and stored in Redis as
 * protobuf under `--storage-media-type=application/vnd.platform.protobuf` (upstream's etcd
 * bytes; a write whose protobuf form would lose something is stored as JSON, so a kind stored
 * as JSON means its mapping loses a field). The served list comes from discovery: a kind
 * added without a fixture here fails the first test.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadProtobuf, type KubeProtobuf } from '@keel/protobuf';
import { at, str, unwrap } from '@keel/protobuf/testing';
import { TestApiServer, TestPKI } from '@keel/testing';
import { newNamespace, nodeBody, podBody, type Json } from './support/core.js';
import { kindFixtures, reviewFixtures } from './support/protobuf-kinds.js';
import { PROTOBUF, protobufWatch, sendBytes } from './support/protobuf-http.js';
import { writeKeys } from './support/tokens.js';

const JSON_TYPE = 'application/json';
const redisUrl = inject('redisUrl');
const prefix = `/pb-kinds-${randomBytes(6).toString('hex')}`;
const pki = new TestPKI();
const keys = writeKeys(pki, 'sa', 'rsa');

interface Served {
  readonly groupVersion: string;
  readonly name: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
}

/** Subresources whose bodies are exercised below; any other one discovery lists fails the suite. */
const SUBRESOURCES = new Set(['status', 'scale', 'finalize', 'binding', 'token']);
/** One stored Event serves two APIs and keeps fields of both: stored as JSON by design. */
const STORED_AS_JSON = new Set(['v1/events', 'events.k8s.io/v1/events']);

describe('every served built-in kind in protobuf', () => {
  let server: TestApiServer;
  let redis: Redis;
  let pb: KubeProtobuf;
  let ns: string;
  const served = new Map<string, Served>();

  const split = (key: string): [gv: string, resource: string] => {
    const i = key.lastIndexOf('/');
    return [key.slice(0, i), key.slice(i + 1)];
  };
  const collection = (key: string): string => {
    const [gv, resource] = split(key);
    const info = served.get(key);
    if (!info) throw new Error(`${key} is not served`);
    return `${gv === 'v1' ? '/api/v1' : `/apis/${gv}`}${info.namespaced ? `/namespaces/${ns}` : ''}/${resource}`;
  };
  const json = (r: { body: Buffer }): Json => JSON.parse(r.body.toString('utf8')) as Json;
  const expectCode = (r: { status: number; body: Buffer }, code: number, what: string) =>
    expect(r.status, `${what}: ${r.body.toString('utf8').slice(0, 500)}`).toBe(code);
  const storedBytes = async (resource: string, name: string, namespaced: boolean) =>
    redis.hgetBuffer(`{${prefix}}:obj:/${resource}/${namespaced ? `${ns}/` : ''}${name}`, 'v');

  beforeAll(async () => {
    server = await TestApiServer.start({
      args: [
        `--store-servers=${redisUrl}`,
        `--store-prefix=${prefix}`,
        '--storage-media-type=application/vnd.platform.protobuf',
        '--runtime-config=authentication.k8s.io/v1beta1=true,authentication.k8s.io/v1alpha1=true',
        '--service-account-issuer=https://keel.test',
        `--service-account-key-file=${keys.pubFile}`,
        `--service-account-signing-key-file=${keys.keyFile}`,
      ],
    });
    await server.ready();
    redis = new Redis(redisUrl);
    pb = await loadProtobuf();
    ns = await newNamespace(server, 'pbk');
    const groups = json(await sendBytes(server, 'GET', '/apis'))['groups'] as {
      versions: { groupVersion: string }[];
    }[];
    const versions = ['v1', ...groups.flatMap((g) => g.versions.map((v) => v.groupVersion))];
    for (const gv of versions) {
      const doc = json(await sendBytes(server, 'GET', gv === 'v1' ? '/api/v1' : `/apis/${gv}`));
      for (const r of doc['resources'] as Json[]) {
        served.set(`${gv}/${String(r['name'])}`, {
          groupVersion: gv,
          name: String(r['name']),
          kind: String(r['kind']),
          namespaced: r['namespaced'] === true,
          verbs: r['verbs'] as string[],
        });
      }
    }
  });
  afterAll(async () => {
    await server?.stop();
    if (redis) {
      const left = await redis.keys(`{${prefix}}*`);
      if (left.length > 0) await redis.del(...left);
      await redis.quit();
    }
    pki.cleanup();
  });

  it('has an object of every kind discovery lists, and exercises every subresource', () => {
    const covered = new Set([
      ...Object.keys(kindFixtures('')),
      ...Object.keys(reviewFixtures('')),
      'v1/bindings',
    ]);
    const missing = [...served.entries()].flatMap(([key, { groupVersion, name }]) => {
      const [parent, sub] = name.split('/');
      const ok =
        sub === undefined
          ? covered.has(key)
          : SUBRESOURCES.has(sub) && covered.has(`${groupVersion}/${parent}`);
      return ok ? [] : [key];
    });
    expect(missing).toEqual([]);
    expect(served.size).toBeGreaterThan(60);
  });

  it.each(Object.keys(kindFixtures('')))(
    '%s: created from protobuf, read, listed, watched, stored and updated in protobuf',
    async (key) => {
      const [gv, resource] = split(key);
      const info = served.get(key);
      expect(info, `${key} served`).toBeDefined();
      const { kind, namespaced } = info!;
      const base = collection(key);
      const fixture = kindFixtures(ns)[key]!;
      const name = String((fixture['metadata'] as Json)['name']);
      const one = `fieldSelector=metadata.name%3D${encodeURIComponent(name)}`;

      const before = pb.decode((await sendBytes(server, 'GET', `${base}?${one}`, { accept: PROTOBUF })).body);
      const rv = String((before['metadata'] as Json)['resourceVersion']);
      const watch = await protobufWatch(server, `${base}?watch=1&resourceVersion=${rv}&${one}`);
      try {
        expect(watch.res.headers['content-type']).toBe(`${PROTOBUF};stream=watch`);
        const created = await sendBytes(server, 'POST', base, {
          body: pb.encode({ apiVersion: gv, kind, ...fixture }),
          accept: JSON_TYPE,
        });
        expectCode(created, 201, `create ${key}`);
        const obj = json(created);
        // Whatever the server made of it, its protobuf form holds all of it.
        expect(pb.decode(pb.encode(obj))).toEqual(obj);

        const [got, gotPb] = await bothEncodings(`${base}/${name}`);
        expect(gotPb).toEqual(got);

        const [list, listPb] = await bothEncodings(`${base}?${one}`);
        expect(listPb['kind']).toBe(`${kind}List`);
        expect(listPb).toEqual(list);
        expect((listPb['items'] as Json[]).map((i) => (i['metadata'] as Json)['name'])).toEqual([name]);

        const frame = await watch.next();
        expect(str(frame, 1)).toBe('ADDED');
        expect(pb.decode(Buffer.from(at(frame, 2, 1) as Uint8Array))).toEqual(obj);

        if (!STORED_AS_JSON.has(key)) {
          const bytes = await storedBytes(resource, name, namespaced);
          expect(bytes?.subarray(0, 4).toString('latin1'), `${key} stored as protobuf`).toBe('k8s\0');
          expect(unwrap(bytes!).kind).toBe(kind);
        }

        const meta = got['metadata'] as Json;
        const changed = { ...got, metadata: { ...meta, labels: { ...(meta['labels'] as Json), pb: 'put' } } };
        const updated = await sendBytes(server, 'PUT', `${base}/${name}`, {
          body: pb.encode(changed),
          accept: PROTOBUF,
        });
        expectCode(updated, 200, `update ${key}`);
        const after = pb.decode(updated.body);
        expect((after['metadata'] as Json)['labels']).toMatchObject({ pb: 'put' });
        expect(str(await watch.next(), 1)).toBe('MODIFIED');

        await subresources(key, `${base}/${name}`);

        const deleted = await sendBytes(server, 'DELETE', `${base}/${name}`, {
          body: pb.encode({ apiVersion: gv, kind: 'DeleteOptions', gracePeriodSeconds: 0 }),
          accept: PROTOBUF,
        });
        expectCode(deleted, 200, `delete ${key}`);
      } finally {
        watch.close();
      }
    },
  );

  /**
   * A GET in JSON and in protobuf (decoded), again while a controller changed the object between
   * the two (the node taint controller does); a list's own resourceVersion is the store's, which
   * any write anywhere moves, so the pair is taken when it is the same.
   */
  async function bothEncodings(path: string): Promise<[Json, Json]> {
    for (let attempt = 1; ; attempt++) {
      const asJson = json(await sendBytes(server, 'GET', path, { accept: JSON_TYPE }));
      const res = await sendBytes(server, 'GET', path, { accept: PROTOBUF });
      expectCode(res, 200, `get ${path}`);
      expect(res.type).toBe(PROTOBUF);
      const asPb = pb.decode(res.body);
      const rv = (o: Json) => (o['metadata'] as Json | undefined)?.['resourceVersion'];
      if (rv(asJson) === rv(asPb) || attempt === 10) return [asJson, asPb];
    }
  }

  /** status and scale: read in both encodings, written back in protobuf. */
  async function subresources(key: string, path: string): Promise<void> {
    for (const sub of ['status', 'scale']) {
      if (!served.has(`${key}/${sub}`)) continue;
      const [asJson, asPb] = await bothEncodings(`${path}/${sub}`);
      expect(asPb).toEqual(asJson);
      // A status write changes only the status: a spec sent with it is put back.
      const body = sub === 'status' ? { ...asJson, spec: {} } : asJson;
      const put = await sendBytes(server, 'PUT', `${path}/${sub}`, {
        body: pb.encode(body),
        accept: JSON_TYPE,
      });
      expectCode(put, 200, `update ${key}/${sub}`);
      expect(pb.decode(pb.encode(json(put)))).toEqual(json(put));
      if (sub === 'status') expect(json(put)['spec'], `${key}/status keeps the spec`).toEqual(asJson['spec']);
    }
    if (key === 'v1/namespaces') {
      const got = json(await sendBytes(server, 'GET', path, { accept: JSON_TYPE }));
      const fin = await sendBytes(server, 'PUT', `${path}/finalize`, {
        body: pb.encode(got),
        accept: PROTOBUF,
      });
      expectCode(fin, 200, 'finalize');
      expect(pb.decode(fin.body)).toMatchObject({ kind: 'Namespace' });
    }
  }

  it.each(Object.keys(reviewFixtures('')))('%s: answered in protobuf as in JSON', async (key) => {
    const [gv] = split(key);
    const kind = served.get(key)?.kind;
    expect(kind, `${key} served`).toBeDefined();
    const body = { apiVersion: gv, kind, ...reviewFixtures(ns)[key] };
    const asJson = await sendBytes(server, 'POST', collection(key), {
      body: JSON.stringify(body),
      contentType: JSON_TYPE,
      accept: JSON_TYPE,
    });
    expectCode(asJson, 201, `${key} in JSON`);
    const asPb = await sendBytes(server, 'POST', collection(key), {
      body: pb.encode(body),
      accept: PROTOBUF,
    });
    expectCode(asPb, 201, `${key} in protobuf`);
    expect(pb.decode(asPb.body)).toEqual(json(asJson));
  });

  it('binds pods and issues tokens from protobuf bodies (pods/binding, bindings, serviceaccounts/token)', async () => {
    const create = async (path: string, body: Json) =>
      expectCode(await sendBytes(server, 'POST', path, { body: pb.encode(body) }), 201, path);
    await create('/api/v1/nodes', nodeBody('pb-bind-node'));
    const pods = `/api/v1/namespaces/${ns}/pods`;
    for (const name of ['pb-bound-1', 'pb-bound-2']) await create(pods, podBody(name));
    const binding = (pod: string) => ({
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: pod },
      target: { apiVersion: 'v1', kind: 'Node', name: 'pb-bind-node' },
    });
    await create(`${pods}/pb-bound-1/binding`, binding('pb-bound-1'));
    await create(`/api/v1/namespaces/${ns}/bindings`, binding('pb-bound-2'));
    for (const name of ['pb-bound-1', 'pb-bound-2']) {
      const pod = pb.decode((await sendBytes(server, 'GET', `${pods}/${name}`, { accept: PROTOBUF })).body);
      expect((pod['spec'] as Json)['nodeName']).toBe('pb-bind-node');
    }

    const request = {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: {
        audiences: ['pb'],
        expirationSeconds: 3600,
        boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'pb-bound-1' },
      },
    };
    const token = await sendBytes(server, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts/default/token`, {
      body: pb.encode(request),
      accept: PROTOBUF,
    });
    expectCode(token, 201, 'token');
    const issued = pb.decode(token.body);
    expect(issued).toMatchObject({
      kind: 'TokenRequest',
      spec: { audiences: ['pb'], expirationSeconds: 3600 },
    });
    expect(String((issued['status'] as Json)['token']).split('.')).toHaveLength(3);
    expect(pb.decode(pb.encode(issued))).toEqual(issued);
  });
});
