import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS } from './support/fixtures.js';

// Bodies and parameters that once answered 500: each must be the client's error, as a Status.
const CMS = '/api/v1/namespaces/default/configmaps';
const PODS = '/api/v1/namespaces/default/pods';
const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

describe('bad input answers a 4xx Status, never a 500', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({ args: [] });
    await server.ready();
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target' }, data: {} };
    expect((await server.request('POST', CMS, { body: cm })).status).toBe(201);
  });
  afterAll(async () => {
    await server?.stop();
  });

  function expectStatus(r: { status: number; json: unknown }, code: number, message: RegExp): void {
    expect(r.status).toBe(code);
    expect(r.json).toMatchObject({ kind: 'Status', status: 'Failure', code });
    expect((r.json as { message: string }).message).toMatch(message);
  }

  it('a YAML body whose anchor contains itself', async () => {
    for (const [method, path, contentType] of [
      ['POST', CMS, 'application/yaml'],
      ['PATCH', `${CMS}/target?fieldManager=t`, 'application/apply-patch+yaml'],
    ] as const) {
      const r = await server.request(method, path, { body: '- &a [*a]\n', contentType });
      expectStatus(r, 400, /yaml: anchor 'a' value contains itself/);
    }
  });

  it.each([
    [
      'create a configmap',
      'POST',
      CMS,
      'application/json',
      `{"metadata":{"name":"deep"},"data":${deep(10_000)}}`,
    ],
    [
      'create an event',
      'POST',
      EVENTS,
      'application/json',
      `{"metadata":{"name":"deep"},"note":${deep(10_000)}}`,
    ],
    [
      'merge-patch a configmap',
      'PATCH',
      `${CMS}/target`,
      'application/merge-patch+json',
      `{"data":${deep(10_000)}}`,
    ],
    [
      'merge-patch a pod',
      'PATCH',
      `${PODS}/none`,
      'application/merge-patch+json',
      `{"spec":${deep(10_000)}}`,
    ],
  ])('a JSON body nested 10,000 deep: %s', async (_name, method, path, contentType, rawBody) => {
    const r = await server.request(method, path, { body: rawBody, contentType });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.json).toMatchObject({ kind: 'Status', status: 'Failure' });
  });

  it('a watch from a resourceVersion above 2^53', async () => {
    const r = await server.request('GET', `${CMS}?watch=true&resourceVersion=9007199254740993`);
    expectStatus(r, 400, /^invalid resource version: "9007199254740993"$/);
  });

  it("a strategic merge patch Go cannot apply is the client's 400 with Go's message", async () => {
    for (const [patch, message] of [
      ['{"$patch":"nope"}', /^unknown patch type: nope in map: map\[\$patch:nope\]$/],
      [
        '{"metadata":{"$setElementOrder/finalizers":1}}',
        /^expected a \[\]interface \{\}, but received a int64$/,
      ],
    ] as const) {
      const r = await server.request('PATCH', `${CMS}/target`, {
        body: patch,
        contentType: 'application/strategic-merge-patch+json',
      });
      expectStatus(r, 400, message);
      expect(r.json).toMatchObject({ reason: 'BadRequest' });
    }
  });

  it("a target starting with // is a path (Go's ParseRequestURI), not a host: 404, not 400", async () => {
    const r = await server.request('GET', '//%F0%9F%98%80/x');
    expect({ status: r.status, text: r.text }).toEqual({ status: 404, text: '404 page not found\n' });
  });

  it('the server is healthy after all of it', async () => {
    expect((await server.request('GET', '/readyz')).status).toBe(200);
  });
});
