/**
 * Escalation prevention end to end: users grant only what they hold, unless they may `escalate`
 * the role resource or `bind` the role named; the refusals are the real 403s. Both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { stores } from './support/fixtures.js';
import {
  created,
  eventually,
  forbidden,
  G,
  RBAC,
  RBAC_ARGS,
  role,
  roleBinding,
  unique,
  user,
} from './support/rbac.js';

describe.each(stores)('RBAC escalation prevention (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;
  const as = (token: string | undefined) => (method: string, path: string, body?: unknown) =>
    server.request(method, path, {
      ...(token === undefined ? {} : { token }),
      ...(body === undefined ? {} : { body }),
    });
  const admin = as(undefined);
  const bob = as('bob-token');

  beforeAll(async () => {
    server = await TestApiServer.start({ args: RBAC_ARGS, ...(redisUrl ? { redisUrl } : {}) });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe('escalation prevention', () => {
    const ns = 'default';
    const rolesPath = `${RBAC}/namespaces/${ns}/roles`;
    const bindingsPath = `${RBAC}/namespaces/${ns}/rolebindings`;
    const manager = unique('rbac-manager');

    beforeAll(async () => {
      // bob may write roles and bindings, and holds get on pods; nothing else.
      await created(
        admin(
          'POST',
          rolesPath,
          role(manager, [
            { verbs: ['create', 'update', 'get'], apiGroups: [G], resources: ['roles', 'rolebindings'] },
            { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
          ]),
        ),
      );
      await created(admin('POST', bindingsPath, roleBinding(manager, ['Role', manager], [user('bob')])));
      await eventually(
        () => bob('GET', `${rolesPath}/${manager}`),
        (r) => r.status === 200,
      );
    });

    it('lets a user create a role with rules they hold', async () => {
      await created(
        bob(
          'POST',
          rolesPath,
          role(unique('held'), [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]),
        ),
      );
    });

    it('refuses a role granting more, with the real message', async () => {
      const name = unique('more');
      const r = await bob(
        'POST',
        rolesPath,
        role(name, [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'secrets'] }]),
      );
      expect(r.text).toBe(
        forbidden(
          `roles.rbac.authorization.k8s.io "${name}" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n` +
            '{APIGroups:[""], Resources:["pods"], Verbs:["list"]}\n' +
            '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}',
          { name, group: G, kind: 'roles' },
        ),
      );
    });

    it('refuses binding a role granting more, and allows it with the bind verb', async () => {
      const name = unique('admin-bind');
      const r = await bob(
        'POST',
        bindingsPath,
        roleBinding(name, ['ClusterRole', 'cluster-admin'], [user('bob')]),
      );
      expect(r.status).toBe(403);
      expect((r.json as { message: string }).message).toBe(
        `rolebindings.rbac.authorization.k8s.io "${name}" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n` +
          '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}',
      );
      const binder = unique('binder');
      await created(
        admin(
          'POST',
          rolesPath,
          role(binder, [
            {
              verbs: ['bind'],
              apiGroups: [G],
              resources: ['clusterroles'],
              resourceNames: ['cluster-admin'],
            },
          ]),
        ),
      );
      await created(admin('POST', bindingsPath, roleBinding(binder, ['Role', binder], [user('bob')])));
      const ok = await eventually(
        () => bob('POST', bindingsPath, roleBinding(name, ['ClusterRole', 'cluster-admin'], [user('bob')])),
        (x) => x.status !== 403,
      );
      expect(ok.status).toBe(201);
      expect((await admin('DELETE', `${bindingsPath}/${name}`)).status).toBe(200);
    });

    it('allows a role granting more with the escalate verb', async () => {
      const escalator = unique('escalator');
      await created(
        admin(
          'POST',
          rolesPath,
          role(escalator, [{ verbs: ['escalate'], apiGroups: [G], resources: ['roles'] }]),
        ),
      );
      await created(admin('POST', bindingsPath, roleBinding(escalator, ['Role', escalator], [user('bob')])));
      const ok = await eventually(
        () =>
          bob(
            'POST',
            rolesPath,
            role(unique('secrets'), [{ verbs: ['*'], apiGroups: [''], resources: ['secrets'] }]),
          ),
        (x) => x.status !== 403,
      );
      expect(ok.status).toBe(201);
    });

    it('a binding to a role that does not exist is 404 for a user without bind', async () => {
      const r = await bob(
        'POST',
        bindingsPath,
        roleBinding(unique('x'), ['Role', 'no-such-role'], [user('bob')]),
      );
      expect(r.status).toBe(404);
      expect((r.json as { message: string }).message).toBe(
        'roles.rbac.authorization.k8s.io "no-such-role" not found',
      );
    });
  });
});
