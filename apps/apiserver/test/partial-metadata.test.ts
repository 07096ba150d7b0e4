/**
 * `as=PartialObjectMetadata` and `as=PartialObjectMetadataList` on the built keel-apiserver: what
 * client-go's metadata client (garbage collector, namespace controller, controller-runtime's
 * metadata-only watches) sends, in JSON and protobuf, for get, list, watch and writes, and the
 * reference's 406s for the wrong form, group or version; the reference's answers were read
 * from kube-apiserver 1.20.2 (test/interop/negotiation.test.ts compares the two).
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, str, unwrap } from '@keel/protobuf/testing';
import { ADMIN_TOKEN, TestApiServer, type ApiResponse } from '@keel/testing';
import { openWatch } from './support/clients/http-watch.js';
import { newNamespace, type Json } from './support/core.js';
import { PROTOBUF, protobufWatch, sendBytes } from './support/protobuf-http.js';

const JSON_TYPE = 'application/json';
const POM = ';as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const POM_BETA = ';as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1';
const POML = ';as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
/** client-go's metadata client: protobuf, then JSON, then the object itself. */
const METADATA_CLIENT = (as: string) =>
  `${PROTOBUF};as=${as};g=meta.k8s.io;v=v1,${JSON_TYPE};as=${as};g=meta.k8s.io;v=v1,${JSON_TYPE}`;
const SERVED = `only the following media types are accepted: ${JSON_TYPE}, application/yaml, ${PROTOBUF}`;

const notAcceptable = (message: string, details?: Json): Json => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  reason: 'NotAcceptable',
  ...(details ? { details } : {}),
  code: 406,
});

/** WriteRawJSON: the reference's answer when the Accept leaves nothing to negotiate an error in. */
const raw = (obj: unknown) => JSON.stringify(obj, null, 2);

describe('PartialObjectMetadata and PartialObjectMetadataList', () => {
  let server: TestApiServer;
  let ns: string;
  const cms = () => `/api/v1/namespaces/${ns}/configmaps`;
  const get = (path: string, accept: string) => server.request('GET', path, { headers: { accept } });
  const configMap = (name: string, labels: Json = {}) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, labels: { app: 'pom', ...labels }, annotations: { note: name } },
    data: { k: 'v' },
  });

  beforeAll(async () => {
    server = await TestApiServer.start();
    await server.ready();
    ns = await newNamespace(server, 'pom');
    for (const name of ['a', 'b', 'c']) {
      const r = await server.request('POST', cms(), { body: configMap(name) });
      expect(r.status).toBe(201);
    }
  });
  afterAll(async () => {
    await server?.stop();
  });

  const metadataOf = async (path: string): Promise<Json> =>
    ((await get(path, JSON_TYPE)).json as Json)['metadata'] as Json;

  it.each([
    [POM, 'meta.k8s.io/v1'],
    [POM_BETA, 'meta.k8s.io/v1beta1'],
  ])('GET an object with %s: its whole metadata, typed %s', async (params, apiVersion) => {
    const r = await get(`${cms()}/a`, JSON_TYPE + params);
    expect([r.status, r.headers['content-type']]).toEqual([200, JSON_TYPE]);
    expect(r.json).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion,
      metadata: await metadataOf(`${cms()}/a`),
    });
    // The same object's metadata, so labels, annotations and managedFields too.
    expect(Object.keys((r.json as Json)['metadata'] as Json)).toEqual(
      expect.arrayContaining(['labels', 'annotations', 'managedFields', 'resourceVersion']),
    );
  });

  it('answers the metadata client in protobuf: the meta.k8s.io/v1 PartialObjectMetadata message', async () => {
    const res = await sendBytes(server, 'GET', `${cms()}/a`, {
      accept: METADATA_CLIENT('PartialObjectMetadata'),
    });
    expect([res.status, res.type]).toEqual([200, PROTOBUF]);
    const { apiVersion, kind, raw: body } = unwrap(res.body);
    expect([apiVersion, kind]).toEqual(['meta.k8s.io/v1', 'PartialObjectMetadata']);
    // PartialObjectMetadata{metadata=1{name=1, namespace=3}}
    expect([str(body, 1, 1), str(body, 1, 3)]).toEqual(['a', ns]);
  });

  it('lists the metadata of every item, with the list resourceVersion and continue token only', async () => {
    const r = await get(`${cms()}?labelSelector=app%3Dpom`, JSON_TYPE + POML);
    expect(r.status).toBe(200);
    const list = r.json as Json;
    expect([list['kind'], list['apiVersion']]).toEqual(['PartialObjectMetadataList', 'meta.k8s.io/v1']);
    expect(Object.keys(list['metadata'] as Json)).toEqual(['resourceVersion']);
    const items = list['items'] as Json[];
    expect(items.map((i) => [i['kind'], i['apiVersion'], (i['metadata'] as Json)['name']])).toEqual(
      ['a', 'b', 'c'].map((n) => ['PartialObjectMetadata', 'meta.k8s.io/v1', n]),
    );
    expect(items[0]?.['metadata']).toEqual(await metadataOf(`${cms()}/a`));
    // A page: continue is kept, remainingItemCount is not (the reference copies only the two).
    const plain = (await get(`${cms()}?limit=1`, JSON_TYPE)).json as Json;
    expect((plain['metadata'] as Json)['remainingItemCount']).toBeGreaterThan(0);
    const page = (await get(`${cms()}?limit=1`, JSON_TYPE + POML)).json as Json;
    expect(Object.keys(page['metadata'] as Json)).toEqual(['resourceVersion', 'continue']);
    expect((page['items'] as Json[]).length).toBe(1);
  });

  it('writes no items as null (Go nil slice), in JSON and in protobuf', async () => {
    const r = await get(`${cms()}?labelSelector=app%3Dnone`, JSON_TYPE + POML);
    expect(r.text).toMatch(
      /^\{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io\/v1","metadata":\{"resourceVersion":"\d+"\},"items":null\}\n$/,
    );
    const res = await sendBytes(server, 'GET', `${cms()}?labelSelector=app%3Dnone`, {
      accept: METADATA_CLIENT('PartialObjectMetadataList'),
    });
    const { kind, raw: body } = unwrap(res.body);
    // PartialObjectMetadataList{metadata=1{resourceVersion=2}} and no items (field 2).
    expect([res.status, kind, str(body, 1, 2)]).toEqual([
      200,
      'PartialObjectMetadataList',
      expect.stringMatching(/^\d+$/),
    ]);
    expect(str(body, 2)).toBeUndefined();
  });

  it('lists in protobuf: the PartialObjectMetadataList message with each item', async () => {
    const res = await sendBytes(server, 'GET', `${cms()}?labelSelector=app%3Dpom&limit=2`, {
      accept: METADATA_CLIENT('PartialObjectMetadataList'),
    });
    expect([res.status, res.type]).toEqual([200, PROTOBUF]);
    const { apiVersion, kind, raw: body } = unwrap(res.body);
    expect([apiVersion, kind]).toEqual(['meta.k8s.io/v1', 'PartialObjectMetadataList']);
    // metadata=1{continue=3}, items=2{metadata=1{name=1}}
    expect(str(body, 1, 3)).toBeTruthy();
    expect(str(body, 2, 1, 1)).toBe('a');
  });

  it('refuses the list form of an object and the object form of a list (406 naming the Go type)', async () => {
    // Only `as=` clauses: the error itself cannot be negotiated, so the reference writes raw JSON.
    const onGet = await get(`${cms()}/a`, JSON_TYPE + POML);
    expect([onGet.status, onGet.headers['content-type']]).toEqual([406, JSON_TYPE]);
    expect(onGet.text).toBe(
      raw(
        notAcceptable(
          'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)',
        ),
      ),
    );
    // With the plain JSON fallback the metadata client sends: still 406 (the first clause was
    // servable), the Status now encoded as usual.
    const onList = await get(
      cms(),
      METADATA_CLIENT('PartialObjectMetadata').replace(
        `${PROTOBUF};as=PartialObjectMetadata;g=meta.k8s.io;v=v1,`,
        '',
      ),
    );
    expect(onList.status).toBe(406);
    expect(onList.text).toBe(
      JSON.stringify(
        notAcceptable(
          'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)',
        ),
      ) + '\n',
    );
    const events = await get(`/apis/events.k8s.io/v1/namespaces/${ns}/events`, JSON_TYPE + POM);
    expect((events.json as Json)['message']).toBe(
      'you requested PartialObjectMetadata, but the requested object is a list (*core.EventList)',
    );
    // A missing object is its 404 first (the transformation comes after the read).
    const missing = await get(`${cms()}/nope`, JSON_TYPE + POML);
    expect([missing.status, (missing.json as Json)['reason']]).toEqual([404, 'NotFound']);
  });

  it.each([
    `${JSON_TYPE};as=PartialObjectMetadata;g=meta.k8s.io;v=v2`,
    `${JSON_TYPE};as=PartialObjectMetadata;g=apps;v=v1`,
    `${JSON_TYPE};as=PartialObjectMetadata`,
    `${JSON_TYPE};g=meta.k8s.io;v=v1`,
    `${JSON_TYPE};as=Frobnicator;g=meta.k8s.io;v=v1`,
    `${PROTOBUF};as=Table;g=meta.k8s.io;v=v1`,
  ])('a clause for another group, version or kind is passed over: %s alone is 406', async (accept) => {
    const r = await get(`${cms()}/a`, accept);
    expect([r.status, r.text]).toEqual([406, raw(notAcceptable(SERVED))]);
  });

  it("is go-restful's 406 for an Accept naming no type the route produces", async () => {
    for (const accept of ['text/plain', `application/*${POM}`, 'Application/JSON']) {
      const r = await get(`${cms()}/a`, accept);
      expect([accept, r.status, (r.json as Json)['message'], (r.json as Json)['details']]).toEqual([
        accept,
        406,
        '406: Not Acceptable',
        {},
      ]);
    }
    // `*/*` admits every route; a wildcard clause's conversion is the first serializer's (JSON).
    const any = await get(`${cms()}/a`, `text/plain, */*${POM}`);
    expect([any.status, (any.json as Json)['kind']]).toEqual([200, 'PartialObjectMetadata']);
  });

  it('watches with PartialObjectMetadata objects in every event', async () => {
    const w = await openWatch(server, `${cms()}?watch=true&labelSelector=app%3Dw`, {
      accept: JSON_TYPE + POM,
    });
    try {
      expect([w.status, w.contentType]).toEqual([200, JSON_TYPE]);
      await server.request('POST', cms(), { body: configMap('w1', { app: 'w' }) });
      await server.request('PATCH', `${cms()}/w1`, {
        body: { metadata: { annotations: { more: 'x' } } },
        contentType: 'application/merge-patch+json',
      });
      await server.request('DELETE', `${cms()}/w1`);
      await w.waitFor(3);
    } finally {
      w.close();
    }
    expect(w.events.map((e) => e['type'])).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    for (const e of w.events) {
      const obj = e['object'] as Json;
      expect([obj['kind'], obj['apiVersion'], Object.keys(obj)]).toEqual([
        'PartialObjectMetadata',
        'meta.k8s.io/v1',
        ['kind', 'apiVersion', 'metadata'],
      ]);
      expect((obj['metadata'] as Json)['name']).toBe('w1');
    }
    expect(((w.events[1]?.['object'] as Json)['metadata'] as Json)['annotations']).toEqual({
      note: 'w1',
      more: 'x',
    });
  });

  it('watches in protobuf with PartialObjectMetadata frames', async () => {
    const w = await protobufWatch(
      server,
      `${cms()}?watch=true&resourceVersion=0&labelSelector=app%3Dpom`,
      METADATA_CLIENT('PartialObjectMetadata'),
    );
    try {
      expect(w.res.headers['content-type']).toBe(`${PROTOBUF};stream=watch`);
      const frame = await w.next();
      // WatchEvent{type=1, object=2{raw=1: the k8s envelope}}
      expect(str(frame, 1)).toBe('ADDED');
      const { apiVersion, kind, raw: body } = unwrap(at(frame, 2, 1) as Uint8Array);
      expect([apiVersion, kind, str(body, 1, 1)]).toEqual(['meta.k8s.io/v1', 'PartialObjectMetadata', 'a']);
    } finally {
      w.close();
    }
  });

  it('ends a watch asked for PartialObjectMetadataList at its first event, as the reference (200, nothing sent)', async () => {
    const res = await request(`${server.url}${cms()}?watch=true&resourceVersion=0&timeoutSeconds=120`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, accept: JSON_TYPE + POML },
      dispatcher: server.dispatcher,
    });
    expect([res.statusCode, await res.body.text()]).toEqual([200, '']);
  });

  it("answers writes with the written object's metadata; a Status passes through", async () => {
    const created = await server.request('POST', cms(), {
      body: configMap('made', { del: 'yes' }),
      headers: { accept: JSON_TYPE + POM },
    });
    expect([created.status, (created.json as Json)['kind']]).toEqual([201, 'PartialObjectMetadata']);
    expect(((created.json as Json)['metadata'] as Json)['name']).toBe('made');
    const deleted = await server.request('DELETE', `${cms()}/made`, {
      headers: { accept: JSON_TYPE + POML },
    });
    expect([deleted.status, (deleted.json as Json)['kind'], (deleted.json as Json)['status']]).toEqual([
      200,
      'Status',
      'Success',
    ]);
    // deletecollection answers the deleted list: PartialObjectMetadata of it is the 406, after the deletion.
    await server.request('POST', cms(), { body: configMap('gone', { del: 'yes' }) });
    const dc = await server.request('DELETE', `${cms()}?labelSelector=del%3Dyes`, {
      headers: { accept: JSON_TYPE + POM },
    });
    expect([dc.status, (dc.json as Json)['message']]).toEqual([
      406,
      'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)',
    ]);
    expect((await get(`${cms()}/gone`, JSON_TYPE)).status).toBe(404);
  });

  it('answers a review with its (empty) metadata, and negotiates before reading it', async () => {
    const review = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb: 'get', resource: 'pods' } },
    };
    const path = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
    const r = await server.request('POST', path, { body: review, headers: { accept: JSON_TYPE + POM } });
    expect([r.status, r.json]).toEqual([
      201,
      { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { creationTimestamp: null } },
    ]);
    const list = await server.request('POST', path, { body: review, headers: { accept: JSON_TYPE + POML } });
    expect((list.json as Json)['message']).toBe(
      'you requested PartialObjectMetadataList, but the requested object is not a list (*authorization.SelfSubjectAccessReview)',
    );
    const plain = await server.request('POST', path, { body: review, headers: { accept: 'text/plain' } });
    expect([plain.status, plain.text]).toEqual([406, raw(notAcceptable('406: Not Acceptable', {}))]);
  });
});

describe('/version and the plain-text endpoints with a protobuf-only Accept', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start();
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses /version to a protobuf-only Accept with go-restful's 406, as a protobuf Status", async () => {
    for (const path of ['/version', '/version/']) {
      const res = await sendBytes(server, 'GET', path, { accept: PROTOBUF });
      expect([res.status, res.type]).toEqual([406, PROTOBUF]);
      const { apiVersion, kind, raw: body } = unwrap(res.body);
      // Status{status=2, message=3, reason=4, details=5 (present, empty), code=6}
      expect([apiVersion, kind, str(body, 2), str(body, 3), str(body, 4)]).toEqual([
        'v1',
        'Status',
        'Failure',
        '406: Not Acceptable',
        'NotAcceptable',
      ]);
    }
    const text = await server.request('GET', '/version', { headers: { accept: 'text/plain' } });
    expect([text.status, text.text]).toEqual([406, raw(notAcceptable('406: Not Acceptable', {}))]);
  });

  it.each([
    '*/*',
    JSON_TYPE,
    `${PROTOBUF}, ${JSON_TYPE}`,
    `${PROTOBUF};q=0.9, ${JSON_TYPE};q=0.5`,
    `${JSON_TYPE};as=PartialObjectMetadata;g=meta.k8s.io;v=v1`,
    `${JSON_TYPE};q=0`,
  ])('serves /version to %s', async (accept) => {
    const r: ApiResponse = await server.request('GET', '/version', { headers: { accept } });
    expect([r.status, r.headers['content-type'], Object.keys(r.json as Json)[0]]).toEqual([
      200,
      JSON_TYPE,
      'major',
    ]);
  });

  it('is 405 for /version with another method (a GET-only go-restful route)', async () => {
    for (const method of ['HEAD', 'POST']) {
      const r = await server.request(method, '/version', method === 'POST' ? { body: {} } : {});
      expect([method, r.status]).toEqual([method, 405]);
    }
  });

  it('is 405 for HEAD on the go-restful routes: resources and /api, /api/v1, /apis/<group>/<version>', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    for (const path of [
      `${cms}/kube-root-ca.crt`,
      `${cms}/nope`,
      cms,
      `${cms}?watch=1`,
      '/api',
      '/api/v1',
      '/apis/apps/v1',
    ]) {
      const r = await server.request('HEAD', path);
      expect([path, r.status]).toEqual([path, 405]);
    }
    // The plain handlers serve HEAD as GET; a path that names nothing stays 404.
    for (const [path, code] of [
      ['/apis', 200],
      ['/apis/apps', 200],
      ['/api/v1/nopes', 404],
    ] as const) {
      expect([path, (await server.request('HEAD', path)).status]).toEqual([path, code]);
    }
  });

  it.each(['/healthz', '/livez', '/readyz', '/healthz/ping'])(
    'serves %s as plain text whatever the Accept',
    async (path) => {
      const r = await server.request('GET', path, { headers: { accept: PROTOBUF } });
      expect([r.status, r.headers['content-type'], r.text]).toEqual([200, 'text/plain; charset=utf-8', 'ok']);
    },
  );
});
