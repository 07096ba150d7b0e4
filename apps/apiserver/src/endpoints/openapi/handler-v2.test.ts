import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { coreV1EventView, eventsV1View } from '@keel/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapiHandler } from './handler.js';

type Op = {
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  [k: string]: unknown;
};
type Doc = {
  swagger: string;
  paths: Record<string, Record<string, Op>>;
  definitions?: Record<string, unknown>;
};

const PROTOBUF_V2 = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1';

let base = '';
let server: Server;
beforeAll(async () => {
  const app = express();
  app.use(openapiHandler([coreV1EventView, eventsV1View]));
  app.use((_req, res) => void res.status(418).type('text/plain').send('fell through'));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('/openapi/v2', () => {
  it.each([
    [PROTOBUF_V2],
    ['application/com.github.proto-openapi.spec.v2.v1.0+protobuf'],
    [`${PROTOBUF_V2}, application/json`],
    ['application/json;q=0.5, application/com.github.proto-openapi.spec.v2@v1.0+protobuf'],
  ])('serves the protobuf document for Accept %s, labelled in the form Go can parse', async (accept) => {
    const res = await fetch(`${base}/openapi/v2`, { headers: { accept } });
    expect(res.status).toBe(200);
    // client-go parses the Content-Type with Go's mime package, which refuses the `@` spelling.
    expect(res.headers.get('content-type')).toBe(
      'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
    );
    expect(res.headers.get('etag')).toMatch(/^"[0-9A-F]{128}"$/);
    const body = Buffer.from(await res.arrayBuffer());
    // Document.swagger (field 1) comes first: tag 0x0a, length 3, "2.0".
    expect(body.subarray(0, 5)).toEqual(Buffer.from([0x0a, 0x03, ...Buffer.from('2.0')]));
  });

  it.each([['application/vnd.kubernetes.protobuf'], ['text/html']])(
    "answers an Accept it cannot serve (%s) with kube-openapi's bare 406",
    async (accept) => {
      const res = await fetch(`${base}/openapi/v2`, { headers: { accept } });
      expect(res.status).toBe(406);
      expect(res.headers.get('content-type')).toBeNull();
      expect(await res.text()).toBe('');
    },
  );

  // goautoneg keeps a q=0 clause (sorted last), so kube-openapi serves it.
  it.each([
    ['application/json'],
    ['*/*'],
    [`application/json, ${PROTOBUF_V2}`],
    ['application/json;q=0'],
    [undefined],
  ])('serves swagger 2.0 JSON for Accept %s', async (accept) => {
    const res = await fetch(`${base}/openapi/v2`, { headers: accept ? { accept } : {} });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('etag')).toMatch(/^"[0-9A-F]{128}"$/);
    const doc = (await res.json()) as Doc;
    expect(doc.swagger).toBe('2.0');
    for (const [path, gvk] of [
      ['/api/v1/namespaces/{namespace}/events/{name}', { group: '', kind: 'Event', version: 'v1' }],
      [
        '/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}',
        { group: 'events.k8s.io', kind: 'Event', version: 'v1' },
      ],
    ] as const) {
      const patch = doc.paths[path]?.['patch'];
      expect(patch?.['x-kubernetes-group-version-kind']).toEqual(gvk);
      expect(patch?.parameters?.slice(1)).toEqual(
        ['dryRun', 'fieldManager', 'fieldValidation', 'force'].map((name) => ({
          uniqueItems: true,
          type: name === 'force' ? 'boolean' : 'string',
          description: expect.any(String) as unknown,
          name,
          in: 'query',
        })),
      );
      expect(patch?.['consumes']).toHaveLength(4);
      expect(patch?.parameters?.[0]).toEqual({
        name: 'body',
        in: 'body',
        required: true,
        schema: { $ref: `#/definitions/${meta}.Patch` },
      });
    }
    const defs = doc.definitions ?? {};
    for (const r of [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1] ?? '')) {
      expect(Object.keys(defs)).toContain(r.replace('#/definitions/', ''));
    }
    expect(defs[`${meta}.DeleteOptions`]).toMatchObject({
      'x-kubernetes-group-version-kind': [
        { group: '', kind: 'DeleteOptions', version: 'v1' },
        { group: 'events.k8s.io', kind: 'DeleteOptions', version: 'v1' },
      ],
    });
  });
});
