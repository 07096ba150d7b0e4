import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signJwt } from '../testing/jwt.js';
import { LEGACY_ISSUER, ServiceAccountTokenAuthenticator, splitUsername } from './service-account.js';
import type { AuthenticationResult } from './types.js';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ec384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });

const ISSUER = 'https://keel.local';
const NOW = new Date('2026-06-01T12:00:00Z');
const now = Math.floor(NOW.getTime() / 1000);
const keys = [rsa.publicKey, ec256.publicKey, ec384.publicKey];

function sign(payload: object, key: KeyObject = rsa.privateKey, algorithm = 'RS256'): string {
  return signJwt(payload, key, algorithm);
}

const k8s = (extra: object = {}) => ({
  'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'builder', uid: 'sa-uid' }, ...extra },
});
const bound = (extra: object = {}) => ({
  iss: ISSUER,
  sub: 'system:serviceaccount:default:builder',
  aud: [ISSUER],
  iat: now - 10,
  nbf: now - 10,
  exp: now + 3600,
  ...k8s(),
  ...extra,
});
const builder = (extra: Record<string, string[]> = {}) => ({
  user: {
    name: 'system:serviceaccount:default:builder',
    uid: 'sa-uid',
    groups: ['system:serviceaccounts', 'system:serviceaccounts:default'],
    extra,
  },
});

const boundAuth = new ServiceAccountTokenAuthenticator({
  kind: 'bound',
  issuers: [ISSUER, 'https://old.keel.local'],
  keys,
  apiAudiences: [ISSUER, 'api'],
  now: () => NOW,
});

const CRYPTO = { error: 'go-jose/go-jose: error in cryptographic primitive' };

describe('ServiceAccountTokenAuthenticator (bound tokens)', () => {
  it.each<[string, () => string, AuthenticationResult]>([
    ['RS256', () => sign(bound()), builder()],
    ['ES256', () => sign(bound(), ec256.privateKey, 'ES256'), builder()],
    ['ES384', () => sign(bound(), ec384.privateKey, 'ES384'), builder()],
    ['PS256', () => sign(bound(), rsa.privateKey, 'PS256'), builder()],
    ['RS512', () => sign(bound(), rsa.privateKey, 'RS512'), builder()],
    ['PS384', () => sign(bound(), rsa.privateKey, 'PS384'), builder()],
    [
      'a kid header does not matter',
      () => signJwt(bound(), rsa.privateKey, 'RS256', { kid: 'whatever' }),
      builder(),
    ],
    [
      'ES256 claimed for an RSA signature',
      () => signJwt(bound(), rsa.privateKey, 'RS256', { alg: 'ES256' }),
      CRYPTO,
    ],
    ['the second issuer', () => sign(bound({ iss: 'https://old.keel.local' })), builder()],
    ['aud as a string', () => sign(bound({ aud: 'api' })), builder()],
    ['one of several audiences', () => sign(bound({ aud: ['other', 'api'] })), builder()],
    ['no aud: the API audiences', () => sign(bound({ aud: undefined })), builder()],
    [
      'pod, node and jti extras',
      () =>
        sign(
          bound({
            jti: 'j-1',
            ...k8s({ pod: { name: 'p', uid: 'p-uid' }, node: { name: 'n', uid: 'n-uid' } }),
          }),
        ),
      builder({
        'authentication.kubernetes.io/pod-name': ['p'],
        'authentication.kubernetes.io/pod-uid': ['p-uid'],
        'authentication.kubernetes.io/credential-id': ['JTI=j-1'],
        'authentication.kubernetes.io/node-name': ['n'],
        'authentication.kubernetes.io/node-uid': ['n-uid'],
      }),
    ],
    ['a pod without uid gives no pod extras', () => sign(bound(k8s({ pod: { name: 'p' } }))), builder()],
    [
      'a node without uid gives only its name',
      () => sign(bound(k8s({ node: { name: 'n' } }))),
      builder({ 'authentication.kubernetes.io/node-name': ['n'] }),
    ],
    [
      'expired beyond the 60s leeway',
      () => sign(bound({ exp: now - 61 })),
      { error: 'service account token has expired' },
    ],
    ['expired within the leeway', () => sign(bound({ exp: now - 59 })), builder()],
    [
      'not valid yet',
      () => sign(bound({ nbf: now + 61 })),
      { error: 'service account token is not valid yet' },
    ],
    [
      'issued in the future',
      () => sign(bound({ iat: now + 61 })),
      { error: 'service account token is issued in the future' },
    ],
    ['no exp at all', () => sign(bound({ exp: undefined })), builder()],
    [
      'an audience the API does not have',
      () => sign(bound({ aud: ['vault', 'other'] })),
      {
        error:
          'token audiences ["vault" "other"] is invalid for the target audiences ["https://keel.local" "api"]',
      },
    ],
    [
      'the audience is checked before expiry',
      () => sign(bound({ aud: ['vault'], exp: now - 3600 })),
      {
        error: 'token audiences ["vault"] is invalid for the target audiences ["https://keel.local" "api"]',
      },
    ],
    ['a key we do not have', () => sign(bound(), stranger.privateKey), CRYPTO],
    [
      'a tampered payload',
      () => {
        const [h, , s] = sign(bound()).split('.');
        const forged = Buffer.from(
          JSON.stringify(bound({ sub: 'system:serviceaccount:kube-system:admin' })),
        ).toString('base64url');
        return `${h}.${forged}.${s}`;
      },
      CRYPTO,
    ],
    ['another issuer: not our token', () => sign(bound({ iss: 'https://elsewhere' })), undefined],
    ['the legacy issuer: not this authenticator', () => sign(bound({ iss: LEGACY_ISSUER })), undefined],
    ['no issuer: not our token', () => sign(bound({ iss: undefined })), undefined],
    ['alg none: not parseable', () => signJwt(bound(), '', 'none'), undefined],
    ['HS256: not parseable', () => signJwt(bound(), 'secret', 'HS256'), undefined],
    ['not a JWT', () => 'opaque-token', undefined],
    ['a JSON token', () => `{"iss":"${ISSUER}"}`, undefined],
    [
      'no kubernetes.io claim',
      () => sign(bound({ 'kubernetes.io': undefined })),
      { error: 'service account token has been invalidated' },
    ],
    [
      'no namespace',
      () => sign(bound({ 'kubernetes.io': { serviceaccount: { name: 'b' } } })),
      { error: 'service account token has been invalidated' },
    ],
    [
      'a number as sub',
      () => sign(bound({ sub: 5 })),
      { error: 'json: cannot unmarshal number into Go struct field Claims.sub of type string' },
    ],
    [
      'a number as namespace',
      () => sign(bound({ 'kubernetes.io': { namespace: 1 } })),
      {
        error:
          'json: cannot unmarshal number into Go struct field kubernetes.kubernetes.io.namespace of type string',
      },
    ],
    [
      'a string as kubernetes.io',
      () => sign(bound({ 'kubernetes.io': 'x' })),
      {
        error:
          'json: cannot unmarshal string into Go struct field privateClaims.kubernetes.io of type serviceaccount.kubernetes',
      },
    ],
    [
      'a number as aud',
      () => sign(bound({ aud: 7 })),
      { error: 'go-jose/go-jose/jwt: expected string or array value to unmarshal to Audience' },
    ],
    [
      'a string as exp',
      () => sign(bound({ exp: 'soon' })),
      { error: 'go-jose/go-jose/jwt: failed to unmarshal NumericDate' },
    ],
  ])('%s', async (_name, token, expected) => {
    expect(await boundAuth.authenticateToken(token())).toEqual(expected);
  });

  it('skips the audience check when there are no API audiences', async () => {
    const a = new ServiceAccountTokenAuthenticator({
      kind: 'bound',
      issuers: [ISSUER],
      keys,
      apiAudiences: [],
      now: () => NOW,
    });
    expect(await a.authenticateToken(sign(bound({ aud: ['anything'] })))).toEqual(builder());
  });

  it('tries every key until one verifies', async () => {
    const a = new ServiceAccountTokenAuthenticator({
      kind: 'bound',
      issuers: [ISSUER],
      keys: [stranger.publicKey, ec256.publicKey],
      apiAudiences: [ISSUER],
      now: () => NOW,
    });
    expect(await a.authenticateToken(sign(bound(), ec256.privateKey, 'ES256'))).toEqual(builder());
    expect(await a.authenticateToken(sign(bound(), rsa.privateKey))).toEqual(CRYPTO);
  });
});

const legacy = (extra: object = {}) => ({
  iss: LEGACY_ISSUER,
  sub: 'system:serviceaccount:default:builder',
  'kubernetes.io/serviceaccount/namespace': 'default',
  'kubernetes.io/serviceaccount/secret.name': 'builder-token-abcde',
  'kubernetes.io/serviceaccount/service-account.name': 'builder',
  'kubernetes.io/serviceaccount/service-account.uid': 'sa-uid',
  ...extra,
});

const legacyAuth = new ServiceAccountTokenAuthenticator({
  kind: 'legacy',
  issuers: [LEGACY_ISSUER],
  keys,
  apiAudiences: [ISSUER],
  now: () => NOW,
});

describe('ServiceAccountTokenAuthenticator (legacy tokens)', () => {
  it.each<[string, () => string, AuthenticationResult]>([
    ['a secret-based token', () => sign(legacy()), builder()],
    ['legacy tokens do not expire here', () => sign(legacy({ exp: now - 86400 })), builder()],
    ['a jti gives no credential id', () => sign(legacy({ jti: 'x' })), builder()],
    [
      'an audience the API does not have',
      () => sign(legacy({ aud: ['vault'] })),
      { error: 'token audiences ["vault"] is invalid for the target audiences ["https://keel.local"]' },
    ],
    ['no sub', () => sign(legacy({ sub: undefined })), { error: 'sub claim is missing' }],
    [
      'no namespace',
      () => sign(legacy({ 'kubernetes.io/serviceaccount/namespace': '' })),
      { error: 'namespace claim is missing' },
    ],
    [
      'no secret name',
      () => sign(legacy({ 'kubernetes.io/serviceaccount/secret.name': undefined })),
      { error: 'secretName claim is missing' },
    ],
    [
      'no account name',
      () => sign(legacy({ 'kubernetes.io/serviceaccount/service-account.name': '' })),
      { error: 'serviceAccountName claim is missing' },
    ],
    [
      'no account uid',
      () => sign(legacy({ 'kubernetes.io/serviceaccount/service-account.uid': '' })),
      { error: 'serviceAccountUID claim is missing' },
    ],
    [
      'sub naming another account',
      () => sign(legacy({ sub: 'system:serviceaccount:default:other' })),
      { error: 'sub claim is invalid' },
    ],
    [
      'sub naming another namespace',
      () => sign(legacy({ sub: 'system:serviceaccount:kube-system:builder' })),
      { error: 'sub claim is invalid' },
    ],
    ['sub not a service account', () => sign(legacy({ sub: 'bob' })), { error: 'sub claim is invalid' }],
    ['a bound issuer: not this authenticator', () => sign(bound()), undefined],
    ['a key we do not have', () => sign(legacy(), stranger.privateKey), CRYPTO],
  ])('%s', async (_name, token, expected) => {
    expect(await legacyAuth.authenticateToken(token())).toEqual(expected);
  });
});

describe('splitUsername', () => {
  it.each([
    ['system:serviceaccount:default:builder', { namespace: 'default', name: 'builder' }],
    ['system:serviceaccount:ns:a.b-c', { namespace: 'ns', name: 'a.b-c' }],
    ['system:serviceaccount:ns', undefined],
    ['system:serviceaccount:ns:a:b', undefined],
    ['system:serviceaccount:NS:a', undefined],
    ['system:serviceaccount:ns:A', undefined],
    ['system:serviceaccount::a', undefined],
    [`system:serviceaccount:${'n'.repeat(64)}:a`, undefined],
    ['serviceaccount:ns:a', undefined],
  ])('%s', (name, expected) => {
    expect(splitUsername(name)).toEqual(expected);
  });
});
