/**
 * Secrets and ServiceAccounts as served resources (both stores): stringData merged into data,
 * the per-type key rules, the 1 MiB limit, immutability, tables and the Secret `type` field
 * selector, each refusal with the real server's message.
 */
import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, MERGE, names, unique, type Json } from './support/core.js';
import { stores } from './support/fixtures.js';
import { createServiceAccount, saPath, secretPath } from './support/tokens.js';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const secret = (name: string, over: Json = {}): Json => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name },
  ...over,
});

describe.each(stores)('secrets and service accounts (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;
  let ns: string;
  beforeAll(async () => {
    server = await TestApiServer.start(redisUrl ? { redisUrl } : {});
    await server.ready();
    ns = unique('ns');
    await expectStatus(
      server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } }),
      201,
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  const invalidMessage = async (method: string, path: string, body: Json, contentType?: string) => {
    const r = await server.request(method, path, { body, ...(contentType ? { contentType } : {}) });
    expect(r.status, r.text).toBe(422);
    return (r.json as Json)['message'] as string;
  };

  it('merges stringData into data, defaults the type and never returns stringData', async () => {
    const created = await expectStatus(
      server.request('POST', secretPath(ns), {
        body: secret('merged', { data: { a: b64('x'), keep: b64('k') }, stringData: { a: 'y', b: 'z' } }),
      }),
      201,
    );
    expect(created['data']).toEqual({ a: b64('y'), b: b64('z'), keep: b64('k') });
    expect(created['type']).toBe('Opaque');
    expect(created).not.toHaveProperty('stringData');
    const patched = await expectStatus(
      server.request('PATCH', secretPath(ns, 'merged'), {
        body: { stringData: { c: 'new' } },
        contentType: MERGE,
      }),
      200,
    );
    expect(patched['data']).toEqual({ a: b64('y'), b: b64('z'), c: b64('new'), keep: b64('k') });
    expect(patched).not.toHaveProperty('stringData');
  });

  it.each<[string, Json, string]>([
    [
      'a service-account-token Secret without the account annotation',
      { type: 'kubernetes.io/service-account-token' },
      'Secret "s" is invalid: metadata.annotations[kubernetes.io/service-account.name]: Required value',
    ],
    [
      'a TLS Secret without its keys',
      { type: 'kubernetes.io/tls', data: { 'tls.crt': b64('c') } },
      'Secret "s" is invalid: data[tls.key]: Required value',
    ],
    [
      'a basic-auth Secret with neither username nor password',
      { type: 'kubernetes.io/basic-auth' },
      'Secret "s" is invalid: [data[username]: Required value, data[password]: Required value]',
    ],
    [
      'an ssh-auth Secret with an empty key',
      { type: 'kubernetes.io/ssh-auth', data: { 'ssh-privatekey': '' } },
      'Secret "s" is invalid: data[ssh-privatekey]: Required value',
    ],
    [
      'a dockerconfigjson Secret that is not JSON',
      { type: 'kubernetes.io/dockerconfigjson', stringData: { '.dockerconfigjson': 'nope' } },
      `Secret "s" is invalid: data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character 'o' in literal null (expecting 'u')`,
    ],
    [
      'a dockercfg Secret holding an array',
      { type: 'kubernetes.io/dockercfg', stringData: { '.dockercfg': '[]' } },
      `Secret "s" is invalid: data[.dockercfg]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}`,
    ],
    [
      'a bad data key',
      { stringData: { 'a/b': 'x' } },
      `Secret "s" is invalid: data[a/b]: Invalid value: "a/b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    ],
    [
      'more than 1 MiB of data',
      { data: { a: Buffer.alloc(1024 * 1024).toString('base64'), b: b64('x') } },
      'Secret "s" is invalid: data: Too long: may not be more than 1048576 bytes',
    ],
  ])('refuses %s', async (_what, over, message) => {
    expect(await invalidMessage('POST', secretPath(ns), secret('s', over))).toBe(message);
  });

  it('accepts the well-known types with their keys, and bootstrap tokens', async () => {
    for (const [name, over] of [
      [
        'sat',
        {
          type: 'kubernetes.io/service-account-token',
          metadata: { name: 'sat', annotations: { 'kubernetes.io/service-account.name': 'default' } },
        },
      ],
      ['tls', { type: 'kubernetes.io/tls', stringData: { 'tls.crt': 'c', 'tls.key': 'k' } }],
      ['basic', { type: 'kubernetes.io/basic-auth', stringData: { password: '' } }],
      [
        'dcj',
        { type: 'kubernetes.io/dockerconfigjson', stringData: { '.dockerconfigjson': '{"auths":{}}' } },
      ],
      [
        'bootstrap-token-abcdef',
        { type: 'bootstrap.kubernetes.io/token', stringData: { 'token-id': 'abcdef' } },
      ],
    ] as [string, Json][]) {
      await expectStatus(server.request('POST', secretPath(ns), { body: secret(name, over) }), 201);
    }
  });

  it('keeps the type, and the data of an immutable Secret', async () => {
    await expectStatus(
      server.request('POST', secretPath(ns), {
        body: secret('fixed', { immutable: true, stringData: { a: '1' } }),
      }),
      201,
    );
    expect(await invalidMessage('PATCH', secretPath(ns, 'fixed'), { stringData: { a: '2' } }, MERGE)).toBe(
      'Secret "fixed" is invalid: data: Forbidden: field is immutable when `immutable` is set',
    );
    expect(await invalidMessage('PATCH', secretPath(ns, 'fixed'), { immutable: false }, MERGE)).toBe(
      'Secret "fixed" is invalid: immutable: Forbidden: field is immutable when `immutable` is set',
    );
    // Labels may still change.
    await expectStatus(
      server.request('PATCH', secretPath(ns, 'fixed'), {
        body: { metadata: { labels: { a: 'b' } } },
        contentType: MERGE,
      }),
      200,
    );
    await expectStatus(server.request('POST', secretPath(ns), { body: secret('typed') }), 201);
    expect(await invalidMessage('PATCH', secretPath(ns, 'typed'), { type: 'example.com/other' }, MERGE)).toBe(
      'Secret "typed" is invalid: type: Invalid value: "example.com/other": field is immutable',
    );
  });

  it('selects Secrets by type and refuses other field labels', async () => {
    const tls = await expectStatus(
      server.request(
        'GET',
        `${secretPath(ns)}?fieldSelector=${encodeURIComponent('type=kubernetes.io/tls')}`,
      ),
      200,
    );
    expect(names(tls)).toEqual(['tls']);
    const bad = await server.request('GET', `${secretPath(ns)}?fieldSelector=spec.x%3D1`);
    expect(bad.status).toBe(400);
    expect((bad.json as Json)['message']).toBe('field label not supported: spec.x');
  });

  it('prints Secrets and ServiceAccounts as the real tables', async () => {
    const secrets = await expectStatus(
      server.request('GET', secretPath(ns, 'tls'), { headers: { accept: TABLE } }),
      200,
    );
    expect((secrets['columnDefinitions'] as Json[]).map((c) => c['name'])).toEqual([
      'Name',
      'Type',
      'Data',
      'Age',
    ]);
    expect((secrets['rows'] as Json[])[0]?.['cells']).toEqual([
      'tls',
      'kubernetes.io/tls',
      2,
      expect.any(String),
    ]);
    await expectStatus(
      server.request('POST', saPath(ns), {
        body: {
          apiVersion: 'v1',
          kind: 'ServiceAccount',
          metadata: { name: 'robot' },
          secrets: [{ name: 'a', namespace: 'x', uid: 'u' }, { name: 'b' }],
        },
      }),
      201,
    );
    const sa = await expectStatus(
      server.request('GET', saPath(ns, 'robot'), { headers: { accept: TABLE } }),
      200,
    );
    expect((sa['columnDefinitions'] as Json[]).map((c) => c['name'])).toEqual(['Name', 'Secrets', 'Age']);
    expect((sa['rows'] as Json[])[0]?.['cells']).toEqual(['robot', 2, expect.any(String)]);
  });

  it('serves ServiceAccounts: references keep only the secret name, names are checked', async () => {
    const got = await expectStatus(server.request('GET', saPath(ns, 'robot')), 200);
    expect(got['secrets']).toEqual([{ name: 'a' }, { name: 'b' }]);
    await createServiceAccount(server, ns, 'second');
    // `default` is the server's own, in every namespace.
    expect(names(await expectStatus(server.request('GET', saPath(ns)), 200))).toEqual([
      'default',
      'robot',
      'second',
    ]);
    expect(
      await invalidMessage('POST', saPath(ns), {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'Bad_Name' },
      }),
    ).toMatch(
      /^ServiceAccount "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
    );
    await expectStatus(server.request('DELETE', saPath(ns, 'second')), 200);
    expect((await server.request('GET', saPath(ns, 'second'))).status).toBe(404);
  });

  it('lists both in discovery, serviceaccounts with its short name; no token subresource without a signing key', async () => {
    const v1 = await expectStatus(server.request('GET', '/api/v1'), 200);
    const resources = v1['resources'] as Json[];
    expect(resources.find((r) => r['name'] === 'serviceaccounts')).toMatchObject({
      kind: 'ServiceAccount',
      namespaced: true,
      shortNames: ['sa'],
      storageVersionHash: 'pbx9ZvyFpBE=',
    });
    expect(resources.find((r) => r['name'] === 'secrets')).toMatchObject({
      kind: 'Secret',
      storageVersionHash: 'S6u1pOWzb84=',
    });
    expect(resources.map((r) => r['name'])).not.toContain('serviceaccounts/token');
    const token = await server.request('POST', saPath(ns, 'robot', 'token'), {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
    });
    expect(token.status).toBe(404);
    expect((await server.request('GET', '/.well-known/openid-configuration')).status).toBe(404);
  });
});
