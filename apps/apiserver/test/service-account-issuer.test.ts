/**
 * Service account issuer discovery (/.well-known/openid-configuration, /openid/v1/jwks) and the
 * other ways of signing and checking service account tokens: an ECDSA signing key, verification
 * keys from several files, legacy Secret-based tokens with and without --service-account-lookup.
 */
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { apiServerEntry, runNode, signJwt, TestApiServer, TestPKI } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, unique, type Json } from './support/core.js';
import { UNAUTHORIZED } from './support/fixtures.js';
import {
  createServiceAccount,
  issueToken,
  jwtPart,
  review,
  secretPath,
  writeKeys,
} from './support/tokens.js';

const ISSUER = 'https://issuer.keel.test';
const pki = new TestPKI();
const ec = writeKeys(pki, 'ec', 'ec');
const rsa = writeKeys(pki, 'rsa', 'rsa');
afterAll(() => pki.cleanup());

const kid = (key: KeyObject) =>
  createHash('sha256')
    .update(createPublicKey(key).export({ type: 'spki', format: 'der' }))
    .digest('base64url');

describe('service account issuer discovery, ECDSA signing', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({
      args: [
        `--service-account-issuer=${ISSUER}`,
        `--service-account-key-file=${ec.pubFile}`,
        `--service-account-key-file=${rsa.pubFile}`,
        `--service-account-signing-key-file=${ec.keyFile}`,
      ],
    });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves the OpenID configuration to anonymous callers, with the real headers', async () => {
    const r = await server.request('GET', '/.well-known/openid-configuration', { token: null });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['cache-control']).toBe('public, max-age=3600');
    const port = new URL(server.url).port;
    expect(r.text).toBe(
      JSON.stringify({
        issuer: ISSUER,
        jwks_uri: `https://127.0.0.1:${port}/openid/v1/jwks`,
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256', 'RS256'],
      }),
    );
  });

  it('serves every verification key as a JWK with the key id tokens carry', async () => {
    const r = await server.request('GET', '/openid/v1/jwks', { token: null });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/jwk-set+json');
    expect(r.headers['cache-control']).toBe('public, max-age=3600');
    const keys = (r.json as Json)['keys'] as Json[];
    const ecJwk = createPublicKey(ec.privateKey).export({ format: 'jwk' });
    const rsaJwk = createPublicKey(rsa.privateKey).export({ format: 'jwk' });
    expect(keys).toEqual([
      { use: 'sig', kty: 'EC', kid: kid(ec.privateKey), crv: 'P-256', alg: 'ES256', x: ecJwk.x, y: ecJwk.y },
      { use: 'sig', kty: 'RSA', kid: kid(rsa.privateKey), alg: 'RS256', n: rsaJwk.n, e: rsaJwk.e },
    ]);
    expect(Object.keys(keys[0] ?? {})).toEqual(['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
    // Only GET is served there.
    expect((await server.request('POST', '/openid/v1/jwks', { body: {} })).status).toBe(404);
  });

  it('signs with ES256 under the signing key id; tokens signed by any listed key are accepted', async () => {
    const name = unique('bot');
    const uid = await createServiceAccount(server, 'default', name);
    const token = await issueToken(server, 'default', name);
    expect(jwtPart(token, 0)).toEqual({ alg: 'ES256', kid: kid(ec.privateKey) });
    expect(token.split('.')[2]).toHaveLength(86); // 64 raw bytes (r||s), not DER
    expect((await review(server, token))['authenticated']).toBe(true);
    const now = Math.floor(Date.now() / 1000);
    const byRsa = signJwt(
      {
        aud: [ISSUER],
        exp: now + 600,
        iat: now,
        iss: ISSUER,
        'kubernetes.io': { namespace: 'default', serviceaccount: { name, uid } },
        nbf: now,
        sub: `system:serviceaccount:default:${name}`,
      },
      rsa.privateKey,
      'RS256',
    );
    expect((await review(server, byRsa))['authenticated']).toBe(true);
  });
});

describe('--service-account-jwks-uri and an issuer that is not an https URL', () => {
  let server: TestApiServer;
  afterAll(async () => {
    await server?.stop();
  });

  it('names the given jwks_uri', async () => {
    server = await TestApiServer.start({
      args: [
        `--service-account-issuer=${ISSUER}`,
        `--service-account-key-file=${rsa.pubFile}`,
        '--service-account-jwks-uri=https://keys.keel.test/jwks',
      ],
    });
    const r = await expectStatus(server.request('GET', '/.well-known/openid-configuration'), 200);
    expect(r['jwks_uri']).toBe('https://keys.keel.test/jwks');
    await server.stop();
  });

  it('serves no discovery documents for a non-URL issuer, and says why at start-up', async () => {
    server = await TestApiServer.start({
      args: ['--service-account-issuer=keel-issuer', `--service-account-key-file=${rsa.pubFile}`],
    });
    expect((await server.request('GET', '/.well-known/openid-configuration')).status).toBe(404);
    expect((await server.request('GET', '/openid/v1/jwks')).status).toBe(404);
    expect(server.process.stderr).toContain(
      'Could not construct pre-rendered responses for ServiceAccountIssuerDiscovery endpoints. Endpoints will not be enabled. Error: issuer URL must use https scheme, got: keel-issuer',
    );
  });
});

describe('legacy Secret-based tokens', () => {
  const servers: TestApiServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });
  const start = async (lookup: boolean) => {
    const s = await TestApiServer.start({
      args: [`--service-account-key-file=${rsa.pubFile}`, `--service-account-lookup=${String(lookup)}`],
    });
    servers.push(s);
    await s.ready();
    return s;
  };

  /** An account, a legacy token for it and the Secret holding the token. */
  const legacySetup = async (server: TestApiServer) => {
    const name = unique('old');
    const uid = await createServiceAccount(server, 'default', name);
    const secretName = `${name}-token`;
    const token = signJwt(
      {
        iss: 'kubernetes/serviceaccount',
        sub: `system:serviceaccount:default:${name}`,
        'kubernetes.io/serviceaccount/namespace': 'default',
        'kubernetes.io/serviceaccount/secret.name': secretName,
        'kubernetes.io/serviceaccount/service-account.name': name,
        'kubernetes.io/serviceaccount/service-account.uid': uid,
      },
      rsa.privateKey,
      'RS256',
    );
    await expectStatus(
      server.request('POST', secretPath('default'), {
        body: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: secretName, annotations: { 'kubernetes.io/service-account.name': name } },
          type: 'kubernetes.io/service-account-token',
          stringData: { token },
        },
      }),
      201,
    );
    return { name, secretName, token };
  };
  const get = (server: TestApiServer, token: string) =>
    server.request('GET', '/api/v1/namespaces', { token });

  it('with lookup, a legacy token lives as long as its Secret holds it', async () => {
    const server = await start(true);
    const { secretName, token } = await legacySetup(server);
    expect((await get(server, token)).status).toBe(200);
    await expectStatus(
      server.request('PATCH', secretPath('default', secretName), {
        body: { stringData: { token: 'rotated' } },
        contentType: 'application/merge-patch+json',
      }),
      200,
    );
    const stale = await get(server, token);
    expect(stale.status).toBe(401);
    expect(stale.text).toBe(UNAUTHORIZED);
    expect((await review(server, token))['error']).toBe("Token does not match server's copy");
    await expectStatus(server.request('DELETE', secretPath('default', secretName)), 200);
    expect((await review(server, token))['error']).toBe('Token has been invalidated');
  });

  it('without lookup, only the signature and claims count', async () => {
    const server = await start(false);
    const { name, secretName, token } = await legacySetup(server);
    await expectStatus(server.request('DELETE', secretPath('default', secretName)), 200);
    await expectStatus(server.request('DELETE', `/api/v1/namespaces/default/serviceaccounts/${name}`), 200);
    expect((await get(server, token)).status).toBe(200);
  });
});

describe('start-up refusals', () => {
  it('a signing key file that holds no private key stops the server with one Error: line', async () => {
    const r = await runNode(apiServerEntry, [
      '--bind-address=127.0.0.1',
      '--secure-port=1',
      `--cert-dir=${join(pki.dir, 'certs')}`,
      `--service-account-issuer=${ISSUER}`,
      `--service-account-key-file=${rsa.pubFile}`,
      `--service-account-signing-key-file=${rsa.pubFile}`,
    ]);
    expect(r.code).toBe(1);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('Error: '));
    expect(errors).toEqual([
      'Error: failed to parse service-account-issuer-key-file: data does not contain a valid RSA or ECDSA private key',
    ]);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
