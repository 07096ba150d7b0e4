/** Two API servers on one Redis under RBAC: a binding written through one authorizes on the other. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import {
  created,
  eventually,
  PODS,
  RBAC,
  RBAC_ARGS,
  role,
  roleBinding,
  unique,
  user,
} from './support/rbac.js';

describe('two API servers on one Redis under RBAC', () => {
  let a: TestApiServer;
  let b: TestApiServer;
  beforeAll(async () => {
    const args = [
      ...RBAC_ARGS,
      `--store-servers=${inject('redisUrl')}`,
      `--store-prefix=/rbac-${randomBytes(6).toString('hex')}`,
    ];
    [a, b] = await Promise.all([TestApiServer.start({ args }), TestApiServer.start({ args })]);
    await Promise.all([a.ready(), b.ready()]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('a binding created on one server authorizes on the other', async () => {
    expect((await b.request('GET', PODS, { token: 'bob-token' })).status).toBe(403);
    const name = unique('shared');
    await created(
      a.request('POST', `${RBAC}/namespaces/default/roles`, {
        body: role(name, [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }]),
      }),
    );
    await created(
      a.request('POST', `${RBAC}/namespaces/default/rolebindings`, {
        body: roleBinding(name, ['Role', name], [user('bob')]),
      }),
    );
    const r = await eventually(
      () => b.request('GET', PODS, { token: 'bob-token' }),
      (x) => x.status === 200,
    );
    expect(r.status).toBe(200);
  });
});
