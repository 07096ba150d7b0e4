/**
 * Server-side printing of what writes answer (the reference's transformResponseObject): a create,
 * update, patch, delete or deletecollection asked for `as=Table` answers the object (or the
 * deleted list) as a Table, a Status stays a Status, and the reviews, which print no Table, are
 * 406 when nothing else is acceptable (test/interop/negotiation.test.ts compares the reference).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { MERGE, newNamespace, type Json } from './support/core.js';

const TABLE = 'application/json;as=Table;g=meta.k8s.io;v=v1';
const table = { headers: { accept: TABLE } };

describe('Tables of write answers', () => {
  let server: TestApiServer;
  let ns: string;
  const cms = (name = '') => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;
  /** The rows' first two cells (name, number of data keys) and the kind. */
  const rows = (body: unknown) => {
    const t = body as Json;
    return [t['kind'], (t['rows'] as { cells: unknown[] }[]).map((r) => r.cells.slice(0, 2))];
  };

  beforeAll(async () => {
    server = await TestApiServer.start();
    await server.ready();
    ns = await newNamespace(server, 'tables');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers create, update and patch with the written object as a Table', async () => {
    const created = await server.request('POST', cms(), {
      ...table,
      body: { metadata: { name: 't', labels: { app: 't' } }, data: { a: '1' } },
    });
    expect([created.status, ...rows(created.json)]).toEqual([201, 'Table', [['t', 1]]]);
    const updated = await server.request('PUT', cms('t'), {
      ...table,
      body: { metadata: { name: 't', labels: { app: 't' } }, data: { a: '1', b: '2' } },
    });
    expect([updated.status, ...rows(updated.json)]).toEqual([200, 'Table', [['t', 2]]]);
    const patched = await server.request('PATCH', `${cms('t')}?includeObject=Object`, {
      ...table,
      contentType: MERGE,
      body: { data: { c: '3' } },
    });
    expect([patched.status, ...rows(patched.json)]).toEqual([200, 'Table', [['t', 3]]]);
    const row = ((patched.json as Json)['rows'] as Json[])[0];
    expect((row?.['object'] as Json)['kind']).toBe('ConfigMap');
  });

  it('answers a delete that leaves a Status with the Status, and deletecollection with a Table', async () => {
    const gone = await server.request('DELETE', cms('t'), table);
    expect([gone.status, (gone.json as Json)['kind']]).toEqual([200, 'Status']);
    for (const name of ['u', 'v']) {
      await server.request('POST', cms(), { body: { metadata: { name, labels: { app: 'uv' } } } });
    }
    const deleted = await server.request('DELETE', `${cms()}?labelSelector=app%3Duv`, table);
    expect([deleted.status, ...rows(deleted.json)]).toEqual([
      200,
      'Table',
      [
        ['u', 0],
        ['v', 0],
      ],
    ]);
  });

  it('answers a pod delete, which returns the pod, with a Table of it', async () => {
    const pods = `/api/v1/namespaces/${ns}/pods`;
    const pod = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    expect((await server.request('POST', pods, { body: pod })).status).toBe(201);
    const r = await server.request('DELETE', `${pods}/p`, table);
    expect([r.status, (r.json as Json)['kind']]).toEqual([200, 'Table']);
  });

  it('refuses a Table of a binding, which prints none, before anything runs (tokens: service-account-tokens)', async () => {
    const binding = await server.request('POST', `/api/v1/namespaces/${ns}/pods/nope/binding`, {
      ...table,
      body: { metadata: { name: 'nope' }, target: { kind: 'Node', name: 'n1' } },
    });
    expect([binding.status, (binding.json as Json)['reason']]).toEqual([406, 'NotAcceptable']);
    // The legacy bindings resource is the same storage.
    const legacy = await server.request('POST', `/api/v1/namespaces/${ns}/bindings`, {
      ...table,
      body: { metadata: { name: 'nope' }, target: { kind: 'Node', name: 'n1' } },
    });
    expect([legacy.status, (legacy.json as Json)['reason']]).toEqual([406, 'NotAcceptable']);
  });

  it('refuses a Table of a review, which has none, unless another type is acceptable', async () => {
    const path = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
    const body = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb: 'get', resource: 'pods' } },
    };
    const refused = await server.request('POST', path, { ...table, body });
    expect([refused.status, (refused.json as Json)['reason']]).toEqual([406, 'NotAcceptable']);
    const json = await server.request('POST', path, {
      headers: { accept: `${TABLE}, application/json` },
      body,
    });
    expect([json.status, (json.json as Json)['kind']]).toEqual([201, 'SelfSubjectAccessReview']);
  });
});
