/**
 * `application/vnd.kubernetes.protobuf` against the built keel-apiserver over HTTPS: responses
 * (get, list with continue, watch frames, Status errors), request bodies (create, update,
 * binding, delete options) and content negotiation. Bodies are built and read by field
 * number (packages/protobuf/src/testing/wire.ts), not through Keel's own mapping.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProtobuf } from '@keel/protobuf';
import { all, at, envelope, map, Msg, str, unwrap } from '@keel/protobuf/testing';
import { TestApiServer } from '@keel/testing';
import { create, newNamespace, nodeBody, podBody, type Json } from './support/core.js';
import { PROTOBUF, protobufWatch, sendBytes, type BytesOptions } from './support/protobuf-http.js';

describe('protobuf responses and request bodies', () => {
  let server: TestApiServer;
  let ns: string;

  const send = (method: string, path: string, opts: BytesOptions = {}) =>
    sendBytes(server, method, path, opts);
  const watch = (path: string) => protobufWatch(server, path);

  beforeAll(async () => {
    server = await TestApiServer.start();
    await server.ready();
    ns = await newNamespace(server, 'pb');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers a filter error (401) in protobuf even before the codec has loaded', async () => {
    // The first protobuf request of this server: written once the codec has loaded.
    const res = await send('GET', '/api/v1/namespaces', { token: 'nobody', accept: PROTOBUF });
    expect([res.status, res.type]).toEqual([401, PROTOBUF]);
    const { kind, raw } = unwrap(res.body);
    expect([kind, str(raw, 4), at(raw, 6)]).toEqual(['Status', 'Unauthorized', 401]);
  });

  it('gets an object as protobuf: the k8s envelope, typeMeta and the Pod message', async () => {
    await create(server, `/api/v1/namespaces/${ns}/pods`, podBody('web', {}, { labels: { app: 'web' } }));
    const res = await send('GET', `/api/v1/namespaces/${ns}/pods/web`, { accept: PROTOBUF });
    expect(res.status).toBe(200);
    expect(res.type).toBe(PROTOBUF);
    const { apiVersion, kind, raw } = unwrap(res.body);
    expect([apiVersion, kind]).toEqual(['v1', 'Pod']);
    // Pod{metadata=1{name=1, namespace=3, uid=5, creationTimestamp=8{seconds=1}, labels=11}, spec=2{containers=2{name=1,image=2}}}
    expect([str(raw, 1, 1), str(raw, 1, 3), map(raw, 1, 11)]).toEqual(['web', ns, { app: 'web' }]);
    expect(str(raw, 1, 5)).toMatch(/^[0-9a-f-]{36}$/);
    expect(at(raw, 1, 8, 1)).toBeGreaterThan(1_600_000_000);
    expect(str(raw, 2, 2, 1)).toBeTruthy();
    expect(str(raw, 2, 2, 2)).toBeTruthy();
  });

  it('negotiates as the real server: q-values, order, wildcards, Tables, 406', async () => {
    const path = `/api/v1/namespaces/${ns}/pods/web`;
    const type = async (accept: string) => (await send('GET', path, { accept })).type;
    expect(await type(`${PROTOBUF}, application/json`)).toBe(PROTOBUF);
    expect(await type(`application/json, ${PROTOBUF}`)).toBe('application/json');
    expect(await type(`application/json;q=0.5, ${PROTOBUF}`)).toBe(PROTOBUF);
    expect(await type(`*/*`)).toBe('application/json');
    expect(await type(`text/plain, */*;q=0.1`)).toBe('application/json');
    // kubectl get: a Table first, protobuf ignored after it; protobuf first wins over a Table.
    const table = await send('GET', path, {
      accept: `application/json;as=Table;v=v1;g=meta.k8s.io, ${PROTOBUF}`,
    });
    expect((JSON.parse(table.body.toString()) as Json)['kind']).toBe('Table');
    expect(await type(`${PROTOBUF}, application/json;as=Table;v=v1;g=meta.k8s.io`)).toBe(PROTOBUF);
    // Nothing acceptable: 406 before anything is done, in JSON. A type the route does not produce
    // is go-restful's own 406; one it produces with parameters it cannot serve, the handler's.
    const refused = await send('GET', path, { accept: 'text/plain' });
    expect(refused.status).toBe(406);
    expect(JSON.parse(refused.body.toString())).toMatchObject({
      kind: 'Status',
      code: 406,
      reason: 'NotAcceptable',
      message: '406: Not Acceptable',
    });
    const unserved = await send('GET', path, { accept: `${PROTOBUF};as=Table;v=v1;g=meta.k8s.io` });
    expect(JSON.parse(unserved.body.toString())).toMatchObject({
      code: 406,
      message: `only the following media types are accepted: application/json, application/yaml, ${PROTOBUF}`,
    });
    const create406 = await send('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      accept: 'image/png',
      body: JSON.stringify({ metadata: { name: 'never' } }),
      contentType: 'application/json',
    });
    expect(create406.status).toBe(406);
    expect((await send('GET', `/api/v1/namespaces/${ns}/configmaps/never`)).status).toBe(404);
  });

  it('serves discovery in protobuf as upstream: the meta/v1 message, typed as its JSON document', async () => {
    const pb = await loadProtobuf();
    for (const [path, apiVersion, kind] of [
      ['/api', '', 'APIVersions'],
      ['/api/v1', '', 'APIResourceList'],
      ['/apis', 'v1', 'APIGroupList'],
      ['/apis/apps', 'v1', 'APIGroup'],
      ['/apis/apps/v1', 'v1', 'APIResourceList'],
    ] as const) {
      // client-go's Accept when it speaks protobuf: the content type, then anything.
      const res = await send('GET', path, { accept: `${PROTOBUF}, */*` });
      expect([path, res.status, res.type]).toEqual([path, 200, PROTOBUF]);
      const envelope = unwrap(res.body);
      expect([envelope.apiVersion ?? '', envelope.kind]).toEqual([apiVersion, kind]);
      const json = JSON.parse(
        (await send('GET', path, { accept: 'application/json' })).body.toString(),
      ) as Json;
      expect(pb.decode(res.body)).toEqual({ apiVersion: '', ...json });
    }
    const refused = await send('GET', '/apis', { accept: 'text/plain' });
    expect([refused.status, (JSON.parse(refused.body.toString()) as Json)['message']]).toEqual([
      406,
      `only the following media types are accepted: application/json, application/yaml, ${PROTOBUF}`,
    ]);
  });

  it('answers errors with a protobuf Status when the client asked for protobuf', async () => {
    for (const path of [`/api/v1/namespaces/${ns}/pods/missing`, '/api/v1/frobnicators']) {
      const res = await send('GET', path, { accept: `${PROTOBUF}, application/json` });
      expect(res.status).toBe(404);
      expect(res.type).toBe(PROTOBUF);
      const { apiVersion, kind, raw } = unwrap(res.body);
      expect([apiVersion, kind]).toEqual(['v1', 'Status']);
      // Status{status=2, message=3, reason=4, code=6}
      expect([str(raw, 2), str(raw, 4), at(raw, 6)]).toEqual(['Failure', 'NotFound', 404]);
    }
  });

  it('lists in pages: ListMeta{resourceVersion, continue} and items without typeMeta', async () => {
    for (const name of ['a', 'b', 'c']) {
      await create(server, `/api/v1/namespaces/${ns}/configmaps`, {
        metadata: { name: `page-${name}` },
        data: { n: name },
      });
    }
    const names: string[] = [];
    let cont = '';
    for (let page = 0; page < 5; page++) {
      const q = `?limit=2&labelSelector=&fieldSelector=${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`;
      const res = await send('GET', `/api/v1/namespaces/${ns}/configmaps${q}`, { accept: PROTOBUF });
      expect(res.status).toBe(200);
      const { kind, raw } = unwrap(res.body);
      expect(kind).toBe('ConfigMapList');
      // ConfigMapList{metadata=1 ListMeta{resourceVersion=2, continue=3}, items=2}
      expect(str(raw, 1, 2)).toMatch(/^\d+$/);
      for (const item of all(raw, 2)) names.push(str(item as Uint8Array, 1, 1) ?? '');
      cont = str(raw, 1, 3) ?? '';
      if (cont === '') break;
    }
    expect(names.filter((n) => n.startsWith('page-'))).toEqual(['page-a', 'page-b', 'page-c']);
  });

  it('streams a watch as length-prefixed WatchEvent frames whose objects carry the envelope', async () => {
    const list = await send('GET', `/api/v1/namespaces/${ns}/configmaps`, { accept: PROTOBUF });
    const rv = str(unwrap(list.body).raw, 1, 2) ?? '';
    const w = await watch(
      `/api/v1/namespaces/${ns}/configmaps?watch=true&resourceVersion=${rv}&timeoutSeconds=20`,
    );
    expect(w.res.headers['content-type']).toBe(`${PROTOBUF};stream=watch`);
    await create(server, `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'watched' } });
    const frame = await w.next();
    // WatchEvent{type=1, object=2 RawExtension{raw=1}}: no envelope around the event itself.
    expect(str(frame, 1)).toBe('ADDED');
    const inner = unwrap(at(frame, 2, 1) as Uint8Array);
    expect([inner.apiVersion, inner.kind, str(inner.raw, 1, 1)]).toEqual(['v1', 'ConfigMap', 'watched']);
    w.res.destroy();

    // sendInitialEvents: ADDED frames, then a BOOKMARK whose object carries only metadata
    // (resourceVersion=6, annotations=12 with k8s.io/initial-events-end).
    const initial = await watch(
      `/api/v1/namespaces/${ns}/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan` +
        `&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=20`,
    );
    let frame2 = await initial.next();
    while (str(frame2, 1) === 'ADDED') frame2 = await initial.next();
    expect(str(frame2, 1)).toBe('BOOKMARK');
    const mark = unwrap(at(frame2, 2, 1) as Uint8Array);
    expect(mark.kind).toBe('ConfigMap');
    expect(str(mark.raw, 1, 6)).toMatch(/^\d+$/);
    expect(map(mark.raw, 1, 12)).toEqual({ 'k8s.io/initial-events-end': 'true' });
    initial.res.destroy();
  });

  it('creates and updates from protobuf bodies: Node, Lease (MicroTime), then binds a Pod and deletes with protobuf DeleteOptions', async () => {
    // Node{metadata=1{name=1, labels=11}, spec=2{podCIDR=1}}
    const node = envelope(
      'v1',
      'Node',
      new Msg()
        .msg(1, new Msg().string(1, 'pb-node').entry(11, 'zone', 'a'))
        .msg(2, new Msg().string(1, '10.1.0.0/24')),
    );
    const created = await send('POST', '/api/v1/nodes', { body: node, accept: 'application/json' });
    expect(created.status).toBe(201);
    expect(JSON.parse(created.body.toString())).toMatchObject({
      kind: 'Node',
      metadata: { name: 'pb-node', labels: { zone: 'a' } },
      spec: { podCIDR: '10.1.0.0/24' },
    });

    // Lease{metadata=1, spec=2{holderIdentity=1, leaseDurationSeconds=2, renewTime=4 MicroTime{seconds=1,nanos=2}}}
    const lease = (rv: string, holder: string) =>
      envelope(
        'coordination.k8s.io/v1',
        'Lease',
        new Msg()
          .msg(1, rv === '' ? new Msg().string(1, 'pb-lease') : new Msg().string(1, 'pb-lease').string(6, rv))
          .msg(
            2,
            new Msg()
              .string(1, holder)
              .int(2, 15)
              .msg(4, new Msg().int(1, 1_714_979_289).int(2, 123_456_000)),
          ),
      );
    const leases = `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`;
    const made = await send('POST', leases, { body: lease('', 'a'), accept: PROTOBUF });
    expect(made.status).toBe(201);
    expect(made.type).toBe(PROTOBUF);
    const madeRaw = unwrap(made.body).raw;
    expect([str(madeRaw, 2, 1), at(madeRaw, 2, 4, 1), at(madeRaw, 2, 4, 2)]).toEqual([
      'a',
      1_714_979_289,
      123_456_000,
    ]);
    const updated = await send('PUT', `${leases}/pb-lease`, {
      body: lease(str(madeRaw, 1, 6) ?? '', 'b'),
      accept: 'application/json',
    });
    expect(updated.status).toBe(200);
    expect((JSON.parse(updated.body.toString()) as Json)['spec']).toEqual({
      holderIdentity: 'b',
      leaseDurationSeconds: 15,
      renewTime: '2024-05-06T07:08:09.123456Z',
    });
    // A stale resourceVersion: 409 Conflict, as a protobuf Status.
    const stale = await send('PUT', `${leases}/pb-lease`, {
      body: lease(str(madeRaw, 1, 6) ?? '', 'c'),
      accept: PROTOBUF,
    });
    expect(stale.status).toBe(409);
    expect(str(unwrap(stale.body).raw, 4)).toBe('Conflict');

    // The scheduler's Binding: Binding{metadata=1{name=1}, target=2 ObjectReference{kind=1, name=3}}
    await create(server, '/api/v1/nodes', nodeBody('pb-bind-node'));
    await create(server, `/api/v1/namespaces/${ns}/pods`, podBody('bind-me'));
    const binding = envelope(
      'v1',
      'Binding',
      new Msg()
        .msg(1, new Msg().string(1, 'bind-me'))
        .msg(2, new Msg().string(1, 'Node').string(3, 'pb-bind-node')),
    );
    const bound = await send('POST', `/api/v1/namespaces/${ns}/pods/bind-me/binding`, {
      body: binding,
      accept: PROTOBUF,
    });
    expect(bound.status).toBe(201);
    const pod = await send('GET', `/api/v1/namespaces/${ns}/pods/bind-me`, { accept: PROTOBUF });
    expect(str(unwrap(pod.body).raw, 2, 10)).toBe('pb-bind-node');

    // DeleteOptions with the group's own apiVersion, as client-go sends it: gracePeriodSeconds=1.
    await create(server, `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'doomed' } });
    const opts = envelope('v1', 'DeleteOptions', new Msg().int(1, 0).string(4, 'Background'));
    const deleted = await send('DELETE', `/api/v1/namespaces/${ns}/configmaps/doomed`, { body: opts });
    expect(deleted.status).toBe(200);
    expect((await send('GET', `/api/v1/namespaces/${ns}/configmaps/doomed`)).status).toBe(404);
  });

  it('serves every collection as protobuf carrying exactly what its JSON list carries', async () => {
    // The kinds the reference kube-scheduler reads and writes, with the fields it uses.
    const fixtures: [string, Json][] = [
      [
        `/api/v1/namespaces/${ns}/pods`,
        podBody(
          'rich',
          {
            priority: 0,
            nodeSelector: { disk: 'ssd' },
            tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }],
            affinity: {
              podAntiAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [
                  {
                    weight: 10,
                    podAffinityTerm: { topologyKey: 'zone', labelSelector: { matchLabels: { a: 'b' } } },
                  },
                ],
              },
            },
            volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'claim' } }],
            containers: [
              {
                name: 'app',
                image: 'registry.example/app:1.0',
                resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '1' } },
                ports: [{ containerPort: 8080, hostPort: 80, protocol: 'TCP' }],
                readinessProbe: { httpGet: { path: '/ready', port: 'http' }, periodSeconds: 5 },
              },
            ],
          },
          { labels: { app: 'rich' }, annotations: { note: 'x' } },
        ),
      ],
      [
        '/api/v1/nodes',
        nodeBody('rich-node', {
          spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
          status: {
            capacity: { cpu: '4', memory: '8Gi', pods: '110' },
            allocatable: { cpu: '3800m', memory: '7Gi', pods: '110' },
            conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2024-05-06T07:08:09Z' }],
            images: [{ names: ['registry.example/app:1.0'], sizeBytes: 123456789 }],
          },
        }),
      ],
      [
        '/api/v1/persistentvolumes',
        {
          metadata: { name: 'rich-pv' },
          spec: {
            capacity: { storage: '5Gi' },
            accessModes: ['ReadWriteOnce'],
            hostPath: { path: '/data' },
            storageClassName: 'fast',
            nodeAffinity: {
              required: {
                nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }],
              },
            },
          },
        },
      ],
      [
        `/api/v1/namespaces/${ns}/persistentvolumeclaims`,
        {
          metadata: { name: 'claim' },
          spec: {
            accessModes: ['ReadWriteOnce'],
            resources: { requests: { storage: '1Gi' } },
            storageClassName: 'fast',
          },
        },
      ],
      [
        `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`,
        {
          metadata: { name: 'pdb' },
          spec: { minAvailable: '50%', selector: { matchLabels: { app: 'rich' } } },
        },
      ],
      [
        '/apis/storage.k8s.io/v1/storageclasses',
        {
          metadata: { name: 'fast' },
          provisioner: 'example.com/p',
          volumeBindingMode: 'WaitForFirstConsumer',
        },
      ],
      [
        '/apis/storage.k8s.io/v1/csinodes',
        {
          metadata: { name: 'rich-node' },
          spec: { drivers: [{ name: 'd.example.com', nodeID: 'n', allocatable: { count: 8 } }] },
        },
      ],
      [
        `/apis/events.k8s.io/v1/namespaces/${ns}/events`,
        {
          metadata: { name: 'rich.1' },
          eventTime: '2024-05-06T07:08:09.123456Z',
          reportingController: 'default-scheduler',
          reportingInstance: 'default-scheduler-1',
          action: 'Binding',
          reason: 'Scheduled',
          type: 'Normal',
          note: 'assigned',
          regarding: { kind: 'Pod', namespace: ns, name: 'rich' },
        },
      ],
      [
        `/apis/apps/v1/namespaces/${ns}/replicasets`,
        {
          metadata: { name: 'rs' },
          spec: {
            replicas: 0,
            selector: { matchLabels: { app: 'rs' } },
            template: {
              metadata: { labels: { app: 'rs' } },
              spec: { containers: [{ name: 'a', image: 'i' }] },
            },
          },
        },
      ],
    ];
    for (const [path, body] of fixtures) await create(server, path, body);

    const pb = await loadProtobuf();
    const discovery = JSON.parse((await send('GET', '/apis')).body.toString()) as {
      groups: { versions: { groupVersion: string }[] }[];
    };
    const versions = [
      '/api/v1',
      ...discovery.groups.flatMap((g) => g.versions.map((v) => `/apis/${v.groupVersion}`)),
    ];
    let compared = 0;
    for (const gv of versions) {
      const resources = (JSON.parse((await send('GET', gv)).body.toString()) as { resources: Json[] })
        .resources;
      for (const r of resources) {
        const name = String(r['name']);
        if (name.includes('/') || !(r['verbs'] as string[]).includes('list')) continue;
        const json = JSON.parse(
          (await send('GET', `${gv}/${name}`, { accept: 'application/json' })).body.toString(),
        ) as Json;
        const res = await send('GET', `${gv}/${name}`, { accept: PROTOBUF });
        expect(res.type, `${gv}/${name}`).toBe(PROTOBUF);
        const decoded = pb.decode(res.body);
        // No items on the wire decode as Go's nil slice (null); the server's JSON writes `[]`.
        expect({ ...decoded, items: decoded['items'] ?? [] }, `${gv}/${name}`).toEqual(json);
        compared += (json['items'] as unknown[]).length;
      }
    }
    expect(compared).toBeGreaterThan(50);
  });

  it('reads a chunked protobuf DeleteOptions body (no Content-Length), as client-go may send one', async () => {
    await create(server, `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'chunked' } });
    const pb = await loadProtobuf();
    // dryRun=[All] is only in the body: the object staying proves the body was read.
    const res = await send('DELETE', `/api/v1/namespaces/${ns}/configmaps/chunked`, {
      body: pb.encode({ apiVersion: 'v1', kind: 'DeleteOptions', dryRun: ['All'] }),
      chunked: true,
      accept: 'application/json',
    });
    expect(res.status, res.body.toString()).toBe(200);
    expect((await send('GET', `/api/v1/namespaces/${ns}/configmaps/chunked`)).status).toBe(200);
  });

  it('refuses a protobuf body that is not a decodable object (400) and a protobuf patch (415)', async () => {
    const bad = await send('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      body: Buffer.from('k8s\0\x0a\x05ab'),
    });
    expect(bad.status).toBe(400);
    expect((JSON.parse(bad.body.toString()) as Json)['message']).toMatch(
      /^the object provided is unrecognized \(must be of type ConfigMap\): /,
    );
    const patch = await send('PATCH', `/api/v1/namespaces/${ns}/configmaps/page-a`, {
      body: envelope('v1', 'ConfigMap', new Msg()),
    });
    expect(patch.status).toBe(415);
  });
});
