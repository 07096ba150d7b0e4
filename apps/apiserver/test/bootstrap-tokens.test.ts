/**
 * Bootstrap tokens (--enable-bootstrap-token-auth) through the built daemon: Secrets of type
 * bootstrap.kubernetes.io/token in platform-system become system:bootstrap:<id> users; any
 * token whose Secret is wrong, expired, unusable or gone is the 401 Status.
 */
import { randomBytes } from 'node:crypto';
import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from './support/core.js';
import { stores, UNAUTHORIZED } from './support/fixtures.js';
import { review, secretPath } from './support/tokens.js';

const NS = 'platform-system';
const alnum = (n: number) =>
  [...randomBytes(n)].map((b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36] as string).join('');

describe.each(stores)('bootstrap tokens (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({
      args: ['--enable-bootstrap-token-auth'],
      ...(redisUrl ? { redisUrl } : {}),
    });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** Writes a bootstrap token Secret; resolves the bearer token. */
  const bootstrapToken = async (data: Record<string, string> = {}, id = alnum(6), secret = alnum(16)) => {
    const stringData = {
      'token-id': id,
      'token-secret': secret,
      'usage-bootstrap-authentication': 'true',
      expiration: new Date(Date.now() + 3600_000).toISOString(),
      ...data,
    };
    await expectStatus(
      server.request('POST', secretPath(NS), {
        body: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: `bootstrap-token-${id}` },
          type: 'bootstrap.kubernetes.io/token',
          stringData,
        },
      }),
      201,
    );
    return `${id}.${secret}`;
  };
  const get = (token: string) => server.request('GET', '/api/v1/namespaces', { token });
  const expect401 = async (token: string) => {
    const r = await get(token);
    expect(r.status).toBe(401);
    expect(r.text).toBe(UNAUTHORIZED);
  };

  it('authenticates a valid token as system:bootstrap:<id> with its groups', async () => {
    const token = await bootstrapToken({
      'auth-extra-groups': 'system:bootstrappers:worker, system:bootstrappers:a',
    });
    expect((await get(token)).status).toBe(200);
    const id = token.split('.')[0] ?? '';
    expect((await review(server, token))['user']).toEqual({
      username: `system:bootstrap:${id}`,
      groups: [
        'system:bootstrappers',
        'system:bootstrappers:a',
        'system:bootstrappers:worker',
        'system:authenticated',
      ],
    });
  });

  it.each<[string, Record<string, string>]>([
    ['expired', { expiration: new Date(Date.now() - 1000).toISOString() }],
    ['with an expiration that does not parse', { expiration: 'next tuesday' }],
    ['not usable for authentication', { 'usage-bootstrap-authentication': 'false' }],
    ['with an extra group outside system:bootstrappers:', { 'auth-extra-groups': 'system:masters' }],
  ])('refuses a token whose Secret is %s', async (_what, data) => {
    await expect401(await bootstrapToken(data));
  });

  it('refuses a wrong secret, an unknown id, and a token whose Secret was deleted', async () => {
    const token = await bootstrapToken();
    const [id = '', secret = ''] = token.split('.');
    expect((await get(token)).status).toBe(200);
    await expect401(`${id}.${secret.slice(0, 15)}${secret.endsWith('a') ? 'b' : 'a'}`);
    await expect401(`${alnum(6)}.${secret}`);
    await expectStatus(server.request('DELETE', secretPath(NS, `bootstrap-token-${id}`)), 200);
    await expect401(token);
  });

  it('looks only in platform-system and only at Secrets of the bootstrap type', async () => {
    const id = alnum(6);
    const secret = alnum(16);
    await expectStatus(
      server.request('POST', secretPath(NS), {
        body: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: `bootstrap-token-${id}` },
          stringData: { 'token-id': id, 'token-secret': secret, 'usage-bootstrap-authentication': 'true' },
        },
      }),
      201,
    );
    await expect401(`${id}.${secret}`);
    const other = alnum(6);
    await expectStatus(
      server.request('POST', secretPath('default'), {
        body: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: `bootstrap-token-${other}` },
          type: 'bootstrap.kubernetes.io/token',
          stringData: { 'token-id': other, 'token-secret': secret, 'usage-bootstrap-authentication': 'true' },
        },
      }),
      201,
    );
    await expect401(`${other}.${secret}`);
    const body = await review(server, `${other}.${secret}`);
    expect(body['authenticated']).toBeUndefined();
  });
});
