/**
 * TokenRequest and the authentication of the tokens it issues, through the built daemon with a
 * real RSA signing key: every bad token is the 401 Status, and tokens die with their account or
 * the pod they are bound to.
 */
import { generateKeyPairSync } from 'node:crypto';
import { signJwt, TestApiServer, TestPKI } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, nodeBody, nodePath, podBody, podPath, unique, type Json } from './support/core.js';
import { stores, UNAUTHORIZED } from './support/fixtures.js';
import {
  createServiceAccount,
  issueToken,
  jwtPart,
  requestToken,
  review,
  saPath,
  writeKeys,
} from './support/tokens.js';

const ISSUER = 'https://keel.test';
const OLD_ISSUER = 'https://old.keel.test';
const pki = new TestPKI();
const keys = writeKeys(pki, 'sa', 'rsa');
afterAll(() => pki.cleanup());

describe.each(stores)('service account tokens (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;
  const ns = 'default';
  beforeAll(async () => {
    server = await TestApiServer.start({
      args: [
        `--service-account-issuer=${ISSUER}`,
        `--service-account-issuer=${OLD_ISSUER}`,
        `--service-account-key-file=${keys.pubFile}`,
        `--service-account-signing-key-file=${keys.keyFile}`,
        '--service-account-max-token-expiration=2h',
      ],
      ...(redisUrl ? { redisUrl } : {}),
    });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const get = (token: string) => server.request('GET', '/api/v1/namespaces/default/configmaps', { token });
  const expect401 = async (token: string) => {
    const r = await get(token);
    expect(r.status).toBe(401);
    expect(r.text).toBe(UNAUTHORIZED);
  };

  it('refuses a token request asked only for a Table (TokenRequest prints none)', async () => {
    const r = await server.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts/default/token`, {
      headers: { accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' },
      body: { spec: { audiences: [] } },
    });
    expect([r.status, (r.json as { reason?: string }).reason]).toEqual([406, 'NotAcceptable']);
  });

  it('issues a token that authenticates as the service account', async () => {
    const name = unique('bot');
    const uid = await createServiceAccount(server, ns, name);
    const tr = await expectStatus(requestToken(server, ns, name), 201);
    expect(tr).toMatchObject({
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name, namespace: ns },
      // --api-audiences defaults to the issuers.
      spec: { audiences: [ISSUER, OLD_ISSUER], expirationSeconds: 3600, boundObjectRef: null },
    });
    const token = (tr['status'] as Json)['token'] as string;
    const header = jwtPart(token, 0);
    expect(Object.keys(header)).toEqual(['alg', 'kid']);
    expect(header['alg']).toBe('RS256');
    const claims = jwtPart(token, 1);
    expect(Object.keys(claims)).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
    expect(claims).toMatchObject({
      aud: [ISSUER, OLD_ISSUER],
      iss: ISSUER,
      sub: `system:serviceaccount:${ns}:${name}`,
      'kubernetes.io': { namespace: ns, serviceaccount: { name, uid } },
    });
    expect((claims['exp'] as number) - (claims['iat'] as number)).toBe(3600);
    const expiry = Date.parse((tr['status'] as Json)['expirationTimestamp'] as string);
    expect(expiry).toBe((claims['exp'] as number) * 1000);

    expect((await get(token)).status).toBe(200);
    expect(await review(server, token)).toMatchObject({
      authenticated: true,
      user: {
        username: `system:serviceaccount:${ns}:${name}`,
        uid,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
        extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${claims['jti'] as string}`] },
      },
    });
  });

  it('binds a token to a pod and its node; the token dies with the pod', async () => {
    const name = unique('bot');
    await createServiceAccount(server, ns, name);
    const nodeName = unique('node');
    const node = await expectStatus(server.request('POST', nodePath(), { body: nodeBody(nodeName) }), 201);
    const podName = unique('pod');
    const pod = await expectStatus(
      server.request('POST', podPath(ns), { body: podBody(podName, { serviceAccountName: name, nodeName }) }),
      201,
    );
    const podUID = (pod['metadata'] as Json)['uid'] as string;
    const token = await issueToken(server, ns, name, {
      boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: podName, uid: podUID },
    });
    expect(jwtPart(token, 1)['kubernetes.io']).toMatchObject({
      pod: { name: podName, uid: podUID },
      node: { name: nodeName, uid: (node['metadata'] as Json)['uid'] as string },
    });
    expect((await review(server, token))['user']).toMatchObject({
      extra: {
        'authentication.kubernetes.io/pod-name': [podName],
        'authentication.kubernetes.io/pod-uid': [podUID],
        'authentication.kubernetes.io/node-name': [nodeName],
      },
    });
    expect((await get(token)).status).toBe(200);
    await expectStatus(
      server.request('DELETE', podPath(ns, podName, undefined, 'gracePeriodSeconds=0')),
      200,
    );
    await expect401(token);
  });

  it('gives a pod-bound token asking for 3607 seconds a year, with warnafter', async () => {
    const name = unique('bot');
    await createServiceAccount(server, ns, name);
    const podName = unique('pod');
    await expectStatus(
      server.request('POST', podPath(ns), { body: podBody(podName, { serviceAccountName: name }) }),
      201,
    );
    const tr = await expectStatus(
      requestToken(server, ns, name, {
        expirationSeconds: 3607,
        boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: podName },
      }),
      201,
    );
    const claims = jwtPart((tr['status'] as Json)['token'] as string, 1);
    const iat = claims['iat'] as number;
    expect((claims['exp'] as number) - iat).toBe(365 * 24 * 3600);
    expect((claims['kubernetes.io'] as Json)['warnafter']).toBe(iat + 3607);
    // The status tells the caller what it asked for.
    expect(Date.parse((tr['status'] as Json)['expirationTimestamp'] as string)).toBe((iat + 3607) * 1000);
  });

  it('caps the lifetime at --service-account-max-token-expiration with a warning', async () => {
    const name = unique('bot');
    await createServiceAccount(server, ns, name);
    const r = await requestToken(server, ns, name, { expirationSeconds: 3 * 3600 });
    expect(r.status).toBe(201);
    expect(r.headers['warning']).toBe(
      '299 - "requested expiration of 10800 seconds shortened to 7200 seconds"',
    );
    expect(((r.json as Json)['spec'] as Json)['expirationSeconds']).toBe(7200);
    const claims = jwtPart(((r.json as Json)['status'] as Json)['token'] as string, 1);
    expect((claims['exp'] as number) - (claims['iat'] as number)).toBe(7200);
  });

  it('refuses bad TokenRequests with the real statuses', async () => {
    const name = unique('bot');
    await createServiceAccount(server, ns, name);
    const short = await requestToken(server, ns, name, { expirationSeconds: 60 });
    expect(short.status).toBe(422);
    expect((short.json as Json)['message']).toBe(
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    );
    const missing = await requestToken(server, ns, 'nobody');
    expect(missing.status).toBe(404);
    expect((missing.json as Json)['message']).toBe('serviceaccounts "nobody" not found');
    const renamed = await server.request('POST', saPath(ns, name, 'token'), {
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        metadata: { name: 'other' },
        spec: {},
      },
    });
    expect(renamed.status).toBe(422);
    expect((renamed.json as Json)['message']).toBe(
      `TokenRequest.authentication.k8s.io "${name}" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified`,
    );
    const podName = unique('pod');
    // The pod's own account must exist (ServiceAccount admission).
    await expectStatus(
      server.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
        body: { metadata: { name: 'someone-else' } },
      }),
      201,
    );
    const pod = await expectStatus(
      server.request('POST', podPath(ns), { body: podBody(podName, { serviceAccountName: 'someone-else' }) }),
      201,
    );
    const wrongSA = await requestToken(server, ns, name, {
      boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: podName },
    });
    expect(wrongSA.status).toBe(400);
    expect((wrongSA.json as Json)['message']).toBe(
      `cannot bind token for serviceaccount "${name}" to pod running with different serviceaccount name.`,
    );
    const gonePod = await requestToken(server, ns, name, {
      boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'no-such-pod' },
    });
    expect(gonePod.status).toBe(404);
    expect((gonePod.json as Json)['message']).toBe('pods "no-such-pod" not found');
    const cmKind = await requestToken(server, ns, name, {
      boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' },
    });
    expect(cmKind.status).toBe(400);
    expect((cmKind.json as Json)['message']).toBe('cannot bind token to object of type /v1, Kind=ConfigMap');
    const secretName = unique('sec');
    await expectStatus(
      server.request('POST', `/api/v1/namespaces/${ns}/secrets`, {
        body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: secretName } },
      }),
      201,
    );
    const wrongUID = await requestToken(server, ns, name, {
      boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: secretName, uid: 'not-the-uid' },
    });
    expect(wrongUID.status).toBe(409);
    expect((wrongUID.json as Json)['message']).toBe(
      `Operation cannot be fulfilled on Secret "${secretName}": the UID in the bound object reference (not-the-uid) does not match the UID in record. The object might have been deleted and then recreated`,
    );
    expect(pod).toBeDefined();
  });

  it('a secret-bound token dies with its secret', async () => {
    const name = unique('bot');
    await createServiceAccount(server, ns, name);
    const secretName = unique('sec');
    await expectStatus(
      server.request('POST', `/api/v1/namespaces/${ns}/secrets`, {
        body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: secretName } },
      }),
      201,
    );
    const token = await issueToken(server, ns, name, {
      boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: secretName },
    });
    expect((await get(token)).status).toBe(200);
    await expectStatus(server.request('DELETE', `/api/v1/namespaces/${ns}/secrets/${secretName}`), 200);
    await expect401(token);
  });

  it('a node-bound token dies with its node', async () => {
    const name = unique('bot');
    await createServiceAccount(server, ns, name);
    const nodeName = unique('node');
    const node = await expectStatus(server.request('POST', nodePath(), { body: nodeBody(nodeName) }), 201);
    const token = await issueToken(server, ns, name, {
      boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: nodeName },
    });
    expect((jwtPart(token, 1)['kubernetes.io'] as Json)['node']).toEqual({
      name: nodeName,
      uid: (node['metadata'] as Json)['uid'] as string,
    });
    expect((await get(token)).status).toBe(200);
    await expectStatus(server.request('DELETE', nodePath(nodeName)), 200);
    await expect401(token);
  });

  it('a token dies with its service account, and does not come back with a new one of the same name', async () => {
    const name = unique('bot');
    await createServiceAccount(server, ns, name);
    const token = await issueToken(server, ns, name);
    expect((await get(token)).status).toBe(200);
    await expectStatus(server.request('DELETE', saPath(ns, name)), 200);
    await expect401(token);
    await createServiceAccount(server, ns, name);
    await expect401(token);
    expect(await review(server, token)).toMatchObject({
      error: expect.stringContaining('service account UID (') as unknown,
    });
  });

  describe('tokens the server did not issue as they are', () => {
    let name: string;
    let uid: string;
    let good: Json;
    beforeAll(async () => {
      name = unique('bot');
      uid = await createServiceAccount(server, ns, name);
      const now = Math.floor(Date.now() / 1000);
      good = {
        aud: [ISSUER],
        exp: now + 600,
        iat: now,
        iss: ISSUER,
        'kubernetes.io': { namespace: ns, serviceaccount: { name, uid } },
        nbf: now,
        sub: `system:serviceaccount:${ns}:${name}`,
      };
    });
    const sign = (claims: Json) => signJwt(claims, keys.privateKey, 'RS256');

    it('accepts a well-formed token from every configured issuer', async () => {
      expect((await get(sign(good))).status).toBe(200);
      expect((await get(sign({ ...good, iss: OLD_ISSUER }))).status).toBe(200);
    });

    it.each<[string, (good: Json) => string]>([
      [
        'expired',
        (g) =>
          sign({
            ...g,
            exp: Math.floor(Date.now() / 1000) - 3600,
            iat: Math.floor(Date.now() / 1000) - 7200,
          }),
      ],
      ['for another audience', (g) => sign({ ...g, aud: ['https://elsewhere.example'] })],
      ['from another issuer', (g) => sign({ ...g, iss: 'https://evil.example' })],
      [
        'signed by an unknown key',
        (g) => signJwt(g, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, 'RS256'),
      ],
      [
        'with a tampered payload',
        (g) => {
          const [h, , s] = sign(g).split('.');
          const payload = Buffer.from(
            JSON.stringify({ ...g, sub: `system:serviceaccount:${ns}:admin` }),
          ).toString('base64url');
          return `${h}.${payload}.${s}`;
        },
      ],
      ['with alg none', (g) => signJwt(g, '', 'none')],
      [
        'for an account uid that is not the current one',
        (g) => sign({ ...g, 'kubernetes.io': { namespace: ns, serviceaccount: { name, uid: 'stale' } } }),
      ],
    ])('refuses a token %s with the 401 Status', async (_what, make) => {
      await expect401(make(good));
    });
  });
});
