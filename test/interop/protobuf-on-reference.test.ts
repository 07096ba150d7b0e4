/**
 * Keel's protobuf mapping (@keel/protobuf) against the reference kube-apiserver 1.20.2's own Go
 * encoder and decoder, for every kind of Keel's round-trip fixtures that 1.20 also serves: what
 * the reference writes in protobuf, decoded by Keel, equals what it writes in JSON for the same
 * object (get, list, a watch frame); a body Keel encodes is accepted by the reference and makes
 * the same object as its JSON twin; the reviews answer alike in both encodings.
 */
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProtobuf, type KubeProtobuf } from '@keel/protobuf';
import { at, str } from '@keel/protobuf/testing';
import { kindFixtures, reviewFixtures } from '../../apps/apiserver/test/support/protobuf-kinds.js';
import type { Json } from './support/client.js';
import {
  ClusterPKI,
  requireReference,
  startReferenceApiServer,
  type RunningApiServer,
} from './support/reference.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const JSON_TYPE = 'application/json';
const NS = 'pb-interop';

interface Served {
  readonly kind: string;
  readonly namespaced: boolean;
}

/** Metadata the server assigns, and what it allocates, which two twins never share. */
function assigned(obj: Json): Json {
  const {
    name: _n,
    uid: _u,
    resourceVersion: _r,
    creationTimestamp: _c,
    managedFields: _m,
    selfLink: _s,
    ...meta
  } = (obj['metadata'] ?? {}) as Json;
  const out: Json = { ...obj, metadata: meta };
  const spec = obj['spec'] as Json | undefined;
  if (obj['kind'] === 'Service' && spec) {
    const { clusterIP: _ip, clusterIPs: _ips, ...rest } = spec;
    out['spec'] = { ...rest, ports: (rest['ports'] as Json[]).map(({ nodePort: _p, ...p }) => p) };
  }
  return out;
}

/**
 * 1.20 gives a StatefulSet's claim templates apiVersion and kind, which its JSON writes and its
 * protobuf has no field for (an embedded object's TypeMeta is not in the message).
 */
function withoutEmbeddedTypeMeta(obj: Json): Json {
  const spec = obj['spec'] as Json | undefined;
  const templates = spec?.['volumeClaimTemplates'] as Json[] | undefined;
  if (!templates) return obj;
  return {
    ...obj,
    spec: { ...spec, volumeClaimTemplates: templates.map(({ apiVersion: _v, kind: _k, ...t }) => t) },
  };
}

/** A rules review lists its rules in no fixed order (Go map iteration): sorted for comparison. */
function rulesSorted(review: Json): Json {
  const status = review['status'] as Json | undefined;
  if (!status) return review;
  const sort = (rules: unknown) =>
    Array.isArray(rules)
      ? [...(rules as unknown[])].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
      : rules;
  return {
    ...review,
    status: {
      ...status,
      resourceRules: sort(status['resourceRules']),
      nonResourceRules: sort(status['nonResourceRules']),
    },
  };
}

describe('protobuf against the reference kube-apiserver 1.20.2', () => {
  let pki: ClusterPKI;
  let ref: RunningApiServer | undefined;
  let agent: Agent;
  let pb: KubeProtobuf;
  const served = new Map<string, Served>();

  const send = async (method: string, path: string, accept: string, body?: Buffer | string) => {
    const headers: Record<string, string> = { accept };
    if (body !== undefined) headers['content-type'] = typeof body === 'string' ? JSON_TYPE : PROTOBUF;
    const res = await request(ref!.url + path, { method: method as 'GET', dispatcher: agent, headers, body });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, type: String(res.headers['content-type']), bytes };
  };
  const getJson = async (path: string): Promise<Json> => {
    const r = await send('GET', path, JSON_TYPE);
    expect(r.status, `GET ${path}: ${r.bytes.toString()}`).toBe(200);
    return JSON.parse(r.bytes.toString('utf8')) as Json;
  };
  const getProtobuf = async (path: string): Promise<Json> => {
    const r = await send('GET', path, PROTOBUF);
    expect([r.status, r.type], `GET ${path} in protobuf`).toEqual([200, PROTOBUF]);
    return pb.decode(r.bytes);
  };
  const collection = (key: string): string => {
    const i = key.lastIndexOf('/');
    const [gv, resource] = [key.slice(0, i), key.slice(i + 1)];
    const ns = served.get(key)?.namespaced ? `/namespaces/${NS}` : '';
    return `${gv === 'v1' ? '/api/v1' : `/apis/${gv}`}${ns}/${resource}`;
  };
  const kindsBothServe = (fixtures: Record<string, Json>) =>
    Object.keys(fixtures).filter((k) => served.has(k));

  beforeAll(async () => {
    requireReference();
    pki = new ClusterPKI();
    ref = await startReferenceApiServer(pki);
    agent = new Agent({ connect: { ca: pki.ca.certPem, cert: pki.admin.certPem, key: pki.admin.keyPem } });
    pb = await loadProtobuf();
    const groups = (await getJson('/apis'))['groups'] as { versions: { groupVersion: string }[] }[];
    for (const gv of ['v1', ...groups.flatMap((g) => g.versions.map((v) => v.groupVersion))]) {
      const doc = await getJson(gv === 'v1' ? '/api/v1' : `/apis/${gv}`);
      for (const r of doc['resources'] as Json[])
        served.set(`${gv}/${String(r['name'])}`, {
          kind: String(r['kind']),
          namespaced: r['namespaced'] === true,
        });
    }
    await ref.admin.create('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: NS },
    });
    // No controller manager beside the reference: the pods' ServiceAccount is made by hand.
    await ref.admin.create(`/api/v1/namespaces/${NS}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'default' },
    });
  }, 300_000);

  afterAll(async () => {
    await agent?.close();
    await ref?.stop();
    pki?.cleanup();
  }, 120_000);

  it('serves most of the kinds Keel serves (the comparison below is not of nothing)', () => {
    expect(kindsBothServe(kindFixtures(NS)).length).toBeGreaterThan(25);
    expect(kindsBothServe(reviewFixtures(NS)).length).toBeGreaterThan(4);
  });

  it('writes every kind in protobuf as Keel decodes to its JSON, and reads what Keel encodes', async () => {
    const fixtures = kindFixtures(NS);
    const checked: string[] = [];
    for (const key of kindsBothServe(fixtures)) {
      const i = key.lastIndexOf('/');
      const gv = key.slice(0, i);
      const { kind } = served.get(key)!;
      const base = collection(key);
      const fixture = fixtures[key]!;
      const name = String((fixture['metadata'] as Json)['name']);
      const body = { apiVersion: gv, kind, ...fixture };

      const made = await send('POST', base, JSON_TYPE, JSON.stringify(body));
      expect(made.status, `${key} from JSON: ${made.bytes.toString()}`).toBe(201);
      const twin = { ...body, metadata: { ...(fixture['metadata'] as Json), name: `${name}-pb` } };
      const fromPb = await send('POST', base, JSON_TYPE, pb.encode(twin));
      expect(fromPb.status, `${key} from Keel's protobuf: ${fromPb.bytes.toString()}`).toBe(201);

      // The reference's Go encoder, read by Keel's decoder.
      const json = await getJson(`${base}/${name}`);
      expect(await getProtobuf(`${base}/${name}`), key).toEqual(withoutEmbeddedTypeMeta(json));
      const one = `?fieldSelector=metadata.name%3D${encodeURIComponent(name)}`;
      const list = await getJson(`${base}${one}`);
      const listPb = await getProtobuf(`${base}${one}`);
      expect({ ...listPb, metadata: list['metadata'] }, `${key} list`).toEqual({
        ...list,
        items: (list['items'] as Json[]).map(withoutEmbeddedTypeMeta),
      });
      // Keel's encoder, read by the reference's Go decoder: the same object as its JSON twin.
      expect(assigned(await getJson(`${base}/${name}-pb`)), `${key} twin`).toEqual(assigned(json));
      checked.push(key);
    }
    expect(checked.length).toBeGreaterThan(25);
  });

  it('writes discovery in protobuf as Keel decodes to its JSON', async () => {
    for (const path of [
      '/api',
      '/api/v1',
      '/apis',
      '/apis/apps',
      '/apis/apps/v1',
      '/apis/storage.k8s.io/v1',
    ]) {
      const json = await getJson(path);
      expect(await getProtobuf(path), path).toEqual({ apiVersion: '', ...json });
    }
  });

  it('answers the reviews alike to JSON and to Keel-encoded protobuf bodies', async () => {
    const fixtures = reviewFixtures(NS);
    for (const key of kindsBothServe(fixtures)) {
      const gv = key.slice(0, key.lastIndexOf('/'));
      const body = { apiVersion: gv, kind: served.get(key)!.kind, ...fixtures[key] };
      const asJson = await send('POST', collection(key), JSON_TYPE, JSON.stringify(body));
      expect(asJson.status, `${key}: ${asJson.bytes.toString()}`).toBe(201);
      const asPb = await send('POST', collection(key), PROTOBUF, pb.encode(body));
      expect([asPb.status, asPb.type], key).toEqual([201, PROTOBUF]);
      expect(rulesSorted(pb.decode(asPb.bytes)), key).toEqual(
        rulesSorted(JSON.parse(asJson.bytes.toString('utf8')) as Json),
      );
    }
  });

  it('frames a watch as Keel reads frames: length, WatchEvent, the enveloped object', async () => {
    const path = `/api/v1/namespaces/${NS}/configmaps`;
    const rv = String(((await getJson(path))['metadata'] as Json)['resourceVersion']);
    const res = await request(`${ref!.url}${path}?watch=1&resourceVersion=${rv}&timeoutSeconds=30`, {
      dispatcher: agent,
      headers: { accept: PROTOBUF },
    });
    expect(res.headers['content-type']).toBe(`${PROTOBUF};stream=watch`);
    const created = await ref!.admin.create(path, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'watched' },
      data: { a: 'b' },
    });
    let pending = Buffer.alloc(0);
    for await (const chunk of res.body) {
      pending = Buffer.concat([pending, chunk as Buffer]);
      if (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) break;
    }
    const frame = pending.subarray(4, 4 + pending.readUInt32BE(0));
    expect(str(frame, 1)).toBe('ADDED');
    const object = pb.decode(Buffer.from(at(frame, 2, 1) as Uint8Array));
    expect(object).toEqual({ ...created, kind: 'ConfigMap', apiVersion: 'v1' });
    res.body.destroy();
  });
});
