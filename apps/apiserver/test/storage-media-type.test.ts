import { randomBytes } from 'node:crypto';
import { loadProtobuf } from '@keel/protobuf';
import { apiServerEntry, runNode, TestApiServer } from '@keel/testing';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openWatch } from './support/http.js';

const PROTOBUF = 'application/vnd.platform.protobuf';
const redisUrl = inject('redisUrl');
const prefix = `/media-${randomBytes(6).toString('hex')}`;
const admin = new Redis(redisUrl);
const PODS = '/api/v1/namespaces/default/pods';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

const stored = async (key: string): Promise<Buffer> =>
  (await admin.hgetBuffer(`{${prefix}}:obj:${key}`, 'v'))!;
const isProtobuf = (b: Buffer): boolean => b.subarray(0, 4).equals(Buffer.from('k8s\0', 'latin1'));

const running: TestApiServer[] = [];
async function start(mediaType: string): Promise<TestApiServer> {
  const server = await TestApiServer.start({
    args: [`--store-servers=${redisUrl}`, `--store-prefix=${prefix}`, `--storage-media-type=${mediaType}`],
  });
  running.push(server);
  await server.ready();
  return server;
}
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  const keys = await admin.keys(`{${prefix}}*`);
  if (keys.length > 0) await admin.del(...keys);
  await admin.quit();
});

const pod = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', image: 'nginx:1.25', resources: { requests: { cpu: '100m' } } }] },
});

describe('--storage-media-type on Redis', () => {
  it('stores protobuf (upstream envelope) and serves every verb, the watch and the watch cache from it', async () => {
    const pbServer = await start(PROTOBUF);
    const created = await pbServer.request('POST', PODS, { body: pod('web-1') });
    expect(created.status).toBe(201);
    const bytes = await stored('/pods/default/web-1');
    expect(isProtobuf(bytes)).toBe(true);
    // The envelope is upstream's runtime.Unknown: the codec that reads protobuf bodies reads it.
    const decoded = (await loadProtobuf()).decode(bytes);
    expect(decoded).toMatchObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1' } });
    expect((decoded['metadata'] as Record<string, unknown>)['resourceVersion']).toBeUndefined();

    const rv = (created.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const watch = await openWatch(pbServer, `${PODS}?watch=true&resourceVersion=${rv}`);
    const got = await pbServer.request('GET', `${PODS}/web-1`);
    expect(got.json).toMatchObject({ spec: { containers: [{ image: 'nginx:1.25' }] } });
    const listed = await pbServer.request('GET', `${PODS}?labelSelector=app%3Dweb`);
    expect((listed.json as { items: unknown[] }).items).toHaveLength(1);
    const updated = await pbServer.request('PUT', `${PODS}/web-1`, {
      body: {
        ...(got.json as object),
        metadata: { ...(got.json as { metadata: object }).metadata, labels: { app: 'web', v: '2' } },
      },
    });
    expect(updated.status).toBe(200);
    const patched = await pbServer.request('PATCH', `${PODS}/web-1`, {
      body: { metadata: { annotations: { note: 'patched' } } },
      contentType: 'application/merge-patch+json',
    });
    expect(patched.status).toBe(200);
    expect(isProtobuf(await stored('/pods/default/web-1'))).toBe(true);
    // An update that changes nothing keeps the version (compared in the stored encoding).
    const again = await pbServer.request('PUT', `${PODS}/web-1`, { body: patched.json });
    expect((again.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion).toBe(
      (patched.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion,
    );
    expect((await pbServer.request('DELETE', `${PODS}/web-1`)).status).toBe(200);
    await watch.waitForEvents(3);
    watch.close();
    expect(watch.events.map((e) => e.type)).toEqual(['MODIFIED', 'MODIFIED', 'DELETED']);
    expect(watch.events[1]!.object).toMatchObject({ metadata: { annotations: { note: 'patched' } } });
    expect((await pbServer.request('GET', `${PODS}/web-1`)).status).toBe(404);
  });

  it('reads what a server with the other media type stored, both ways', async () => {
    const pbServer = running[0] ?? (await start(PROTOBUF));
    const jsonServer = await start('application/json');
    const cm = (name: string) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name },
      data: { k: 'é' },
    });
    expect((await pbServer.request('POST', CONFIGMAPS, { body: cm('from-pb') })).status).toBe(201);
    expect((await jsonServer.request('POST', CONFIGMAPS, { body: cm('from-json') })).status).toBe(201);
    expect(isProtobuf(await stored('/configmaps/default/from-pb'))).toBe(true);
    expect((await stored('/configmaps/default/from-json')).toString('utf8')).toMatch(/^\{/);
    for (const server of [pbServer, jsonServer]) {
      const list = (await server.request('GET', CONFIGMAPS)).json as {
        items: { metadata: { name: string }; data: object }[];
      };
      expect(
        list.items.filter((i) => i.metadata.name.startsWith('from-')).map((i) => [i.metadata.name, i.data]),
      ).toEqual([
        ['from-json', { k: 'é' }],
        ['from-pb', { k: 'é' }],
      ]);
    }
    // A JSON server's no-op update rewrites the protobuf object as JSON (a storage migration).
    const got = await jsonServer.request('GET', `${CONFIGMAPS}/from-pb`);
    expect((await jsonServer.request('PUT', `${CONFIGMAPS}/from-pb`, { body: got.json })).status).toBe(200);
    expect((await stored('/configmaps/default/from-pb')).toString('utf8')).toMatch(/^\{/);
  });

  it('refuses an unknown media type at start-up in one line', async () => {
    const r = await runNode(apiServerEntry, ['--storage-media-type=application/xml']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'invalid argument "application/xml" for "--storage-media-type" flag: must be one of "application/json", "application/yaml", "application/vnd.platform.protobuf"',
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
