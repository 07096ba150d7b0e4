import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signJwt } from '../testing/jwt.js';
import { ServiceAccountTokenAuthenticator } from './service-account.js';
import type { LookedUpObject, LookedUpSecret, ServiceAccountTokenGetter } from './token-getter.js';

// The store checks through the authenticator, with a getter over plain maps (the interface the
// API server implements over its storage; the end-to-end suites run that one).

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ISSUER = 'https://keel.local';
const NOW = new Date('2026-06-01T12:00:00Z');
const now = Math.floor(NOW.getTime() / 1000);

class MapGetter implements ServiceAccountTokenGetter {
  readonly objects = new Map<string, LookedUpSecret>();
  failing = false;
  private get(key: string): Promise<LookedUpObject | undefined> {
    if (this.failing) return Promise.reject(new Error('store unavailable'));
    return Promise.resolve(this.objects.get(key));
  }
  getServiceAccount = (ns: string, name: string) => this.get(`sa/${ns}/${name}`);
  getSecret = (ns: string, name: string) => this.get(`secret/${ns}/${name}`);
  getPod = (ns: string, name: string) => this.get(`pod/${ns}/${name}`);
  getNode = (name: string) => this.get(`node/${name}`);
}

const token = (k: object) =>
  signJwt(
    {
      iss: ISSUER,
      sub: 'system:serviceaccount:ns:bot',
      aud: [ISSUER],
      iat: now,
      nbf: now,
      exp: now + 600,
      'kubernetes.io': k,
    },
    rsa.privateKey,
    'RS256',
  );

function setup() {
  const getter = new MapGetter();
  getter.objects.set('sa/ns/bot', { metadata: { uid: 'sa1' } });
  const auth = new ServiceAccountTokenAuthenticator({
    kind: 'bound',
    issuers: [ISSUER],
    keys: [rsa.publicKey],
    apiAudiences: [ISSUER],
    now: () => NOW,
    getter,
  });
  return { getter, auth };
}
const sa = { namespace: 'ns', serviceaccount: { name: 'bot', uid: 'sa1' } };

describe('bound service account tokens against the store', () => {
  it('accepts a token whose account is there with its uid', async () => {
    const { auth } = setup();
    expect(await auth.authenticateToken(token(sa))).toMatchObject({
      user: { name: 'system:serviceaccount:ns:bot' },
    });
  });

  it.each<[string, (g: MapGetter) => void, object, string]>([
    ['a missing account', (g) => g.objects.delete('sa/ns/bot'), sa, 'serviceaccount "bot" not found'],
    [
      'an account with another uid',
      (g) => g.objects.set('sa/ns/bot', { metadata: { uid: 'sa2' } }),
      sa,
      'service account UID (sa2) does not match claim (sa1)',
    ],
    [
      'an account deleted more than a minute ago',
      (g) =>
        g.objects.set('sa/ns/bot', { metadata: { uid: 'sa1', deletionTimestamp: '2026-06-01T11:58:00Z' } }),
      sa,
      'service account ns/bot has been deleted',
    ],
    [
      'a missing pod',
      () => undefined,
      { ...sa, pod: { name: 'p', uid: 'p1' } },
      'service account token has been invalidated',
    ],
    [
      'a pod with another uid',
      (g) => g.objects.set('pod/ns/p', { metadata: { uid: 'p2' } }),
      { ...sa, pod: { name: 'p', uid: 'p1' } },
      'pod UID (p2) does not match service account pod ref claim (p1)',
    ],
    [
      'a secret with another uid',
      (g) => g.objects.set('secret/ns/s', { metadata: { uid: 's2' } }),
      { ...sa, secret: { name: 's', uid: 's1' } },
      'secret UID (s2) does not match service account secret ref claim (s1)',
    ],
    [
      'a missing node',
      () => undefined,
      { ...sa, node: { name: 'n', uid: 'n1' } },
      'service account token has been invalidated',
    ],
    [
      'a store that cannot answer',
      (g) => {
        g.failing = true;
      },
      sa,
      'store unavailable',
    ],
  ])('refuses a token with %s', async (_what, change, claims, error) => {
    const { getter, auth } = setup();
    change(getter);
    expect(await auth.authenticateToken(token(claims))).toEqual({ error });
  });

  it('does not look up the node of a pod-bound token, and accepts an object deleted within the leeway', async () => {
    const { getter, auth } = setup();
    getter.objects.set('pod/ns/p', { metadata: { uid: 'p1', deletionTimestamp: '2026-06-01T11:59:30Z' } });
    const result = await auth.authenticateToken(
      token({ ...sa, pod: { name: 'p', uid: 'p1' }, node: { name: 'gone', uid: 'n1' } }),
    );
    expect(result).toMatchObject({
      user: {
        extra: {
          'authentication.kubernetes.io/node-name': ['gone'],
          'authentication.kubernetes.io/pod-uid': ['p1'],
        },
      },
    });
  });
});
