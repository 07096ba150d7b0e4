import { gunzipSync } from 'node:zlib';
import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, openWatch } from './support/http.js';
import { clientConfig } from './support/clients/kubeconfig.js';
import { kubectlOk } from './support/clients/kubectl.js';

/** The whole body as bytes, whatever its encoding, with the response headers. */
async function fetchRaw(server: TestApiServer, path: string, headers: Record<string, string> = {}) {
  const { req, response } = open(server, path, { headers });
  req.end();
  const res = await response;
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) };
}

const NS = '/api/v1/namespaces/default/configmaps';
// ~1 KiB each: 200 make a list between kube's 128 KiB threshold and the 256 KiB at which Keel
// streams; 500 make one that streams.
const filler = 'x'.repeat(1000);

async function fill(server: TestApiServer, prefix: string, n: number) {
  for (let i = 0; i < n; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, n - i) }, (_, j) =>
        server.request('POST', NS.replace('default', prefix), {
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `cm-${i + j}` },
            data: { v: filler },
          },
        }),
      ),
    );
  }
}

describe.each([
  ['the default (APIResponseCompression on)', [], true],
  ['--feature-gates=APIResponseCompression=false', ['--feature-gates=APIResponseCompression=false'], false],
] as const)('response compression: %s', (_name, args, gzipped) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({ args: [...args] });
    await server.ready();
    for (const [ns, n] of [
      ['medium', 200],
      ['large', 500],
    ] as const) {
      expect(
        (await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status,
      ).toBe(201);
      await fill(server, ns, n);
    }
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it.each(['medium', 'large'])(
    'a %s list is gzipped only when the gate is on and the client accepts gzip',
    async (ns) => {
      const path = `/api/v1/namespaces/${ns}/configmaps`;
      const plain = await fetchRaw(server, path);
      expect(plain.headers['content-encoding']).toBeUndefined();
      const list = JSON.parse(plain.body.toString('utf8')) as { items: unknown[] };
      // Each namespace also holds its kube-root-ca.crt.
      expect(list.items).toHaveLength(ns === 'medium' ? 201 : 501);

      const zipped = await fetchRaw(server, path, { 'accept-encoding': 'gzip, deflate' });
      expect(zipped.status).toBe(200);
      if (!gzipped) {
        expect(zipped.headers['content-encoding']).toBeUndefined();
        return;
      }
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers['vary']).toBe('Accept-Encoding');
      expect(zipped.body.length).toBeLessThan(plain.body.length / 4);
      // The same list, byte for byte, apart from the resourceVersion it was read at.
      const unzipped = JSON.parse(gunzipSync(zipped.body).toString('utf8')) as typeof list;
      expect(unzipped.items).toEqual(list.items);
    },
  );

  it('never gzips a small response or a watch', async () => {
    const small = await fetchRaw(server, '/api/v1/namespaces/default/configmaps', {
      'accept-encoding': 'gzip',
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    const watch = await openWatch(server, '/api/v1/namespaces/large/configmaps?watch=true', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(watch.headers['content-encoding']).toBeUndefined();
    await watch.waitForEvents(500);
    watch.close();
  });

  it('kubectl reads a large list either way', async () => {
    const out = await kubectlOk(clientConfig(server), ['get', 'configmaps', '-n', 'large', '-o', 'name']);
    expect(out.trim().split('\n')).toHaveLength(501);
  });
});
