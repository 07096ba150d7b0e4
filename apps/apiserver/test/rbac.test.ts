/**
 * --authorization-mode=RBAC end to end over HTTPS: decisions follow the bindings an admin
 * writes (within moments, through the watch), the 403s carry the real messages, and users may
 * grant only what they hold unless they may `escalate` or `bind`. Both stores, and two servers
 * on one Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { stores } from './support/fixtures.js';
import {
  clusterRole,
  clusterRoleBinding,
  created,
  eventually,
  forbidden,
  G,
  PODS,
  RBAC,
  RBAC_ARGS,
  role,
  roleBinding,
  unique,
  user,
} from './support/rbac.js';

describe.each(stores)('RBAC authorization (%s store)', (_store, redisUrl) => {
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

  it('refuses a user without bindings with the real 403', async () => {
    const r = await bob('GET', PODS);
    expect(r.text).toBe(
      forbidden(
        'pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "default"',
        {
          kind: 'pods',
        },
      ),
    );
    // /version is everyone's (system:public-info-viewer); /metrics only system:monitoring's.
    expect((await bob('GET', '/version')).status).toBe(200);
    const m = await bob('GET', '/metrics');
    expect(m.status).toBe(403);
    expect((m.json as { message: string }).message).toBe('forbidden: User "bob" cannot get path "/metrics"');
  });

  it('a RoleBinding lets the user in within moments; deleting it takes that away', async () => {
    const name = unique('pod-reader');
    await created(
      admin(
        'POST',
        `${RBAC}/namespaces/default/roles`,
        role(name, [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]),
      ),
    );
    await created(
      admin(
        'POST',
        `${RBAC}/namespaces/default/rolebindings`,
        roleBinding(name, ['Role', name], [user('bob')]),
      ),
    );
    expect(
      (
        await eventually(
          () => bob('GET', PODS),
          (r) => r.status === 200,
        )
      ).status,
    ).toBe(200);
    // Only in its namespace, only its verbs.
    expect((await bob('GET', '/api/v1/namespaces/platform-system/pods')).status).toBe(403);
    expect((await bob('DELETE', `${PODS}/x`)).status).toBe(403);
    expect((await admin('DELETE', `${RBAC}/namespaces/default/rolebindings/${name}`)).status).toBe(200);
    expect(
      (
        await eventually(
          () => bob('GET', PODS),
          (r) => r.status === 403,
        )
      ).status,
    ).toBe(403);
  });

  it('a ClusterRoleBinding to a group grants cluster-wide; non-resource URLs through a ClusterRole', async () => {
    const name = unique('cm-reader');
    await created(
      admin(
        'POST',
        `${RBAC}/clusterroles`,
        clusterRole(name, [
          { verbs: ['list'], apiGroups: [''], resources: ['configmaps'] },
          { verbs: ['get'], nonResourceURLs: ['/metrics'] },
        ]),
      ),
    );
    await created(
      admin(
        'POST',
        `${RBAC}/clusterrolebindings`,
        clusterRoleBinding(name, name, [{ kind: 'Group', apiGroup: G, name: 'dev' }]),
      ),
    );
    const carol = as('carol-token');
    for (const path of [
      '/api/v1/namespaces/default/configmaps',
      '/api/v1/namespaces/platform-system/configmaps',
      '/api/v1/configmaps',
    ])
      expect(
        (
          await eventually(
            () => carol('GET', path),
            (r) => r.status === 200,
          )
        ).status,
        path,
      ).toBe(200);
    // Past authorization: answered by the server (404 while it serves no metrics), not 403.
    expect((await carol('GET', '/metrics')).status).not.toBe(403);
    expect((await carol('GET', '/api/v1/namespaces/default/configmaps/x')).status).toBe(403);
    expect((await bob('GET', '/api/v1/configmaps')).status).toBe(403);
  });

  it('a ServiceAccount subject matches the service account user', async () => {
    const name = unique('sa-pods');
    await created(
      admin(
        'POST',
        `${RBAC}/namespaces/default/roles`,
        role(name, [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }]),
      ),
    );
    await created(
      admin(
        'POST',
        `${RBAC}/namespaces/default/rolebindings`,
        roleBinding(name, ['Role', name], [{ kind: 'ServiceAccount', name: 'robot' }]),
      ),
    );
    const robot = as('robot-token');
    expect(
      (
        await eventually(
          () => robot('GET', PODS),
          (r) => r.status === 200,
        )
      ).status,
    ).toBe(200);
  });

  it('names a bound role that is missing in the 403', async () => {
    const name = unique('dangling');
    await created(
      admin('POST', `${RBAC}/clusterrolebindings`, clusterRoleBinding(name, `${name}-nope`, [user('dave')])),
    );
    const r = await eventually(
      () => as('dave-token')('GET', PODS),
      (x) => x.text.includes('RBAC:'),
    );
    expect((r.json as { message: string }).message).toBe(
      `pods is forbidden: User "dave" cannot list resource "pods" in API group "" in the namespace "default": RBAC: clusterrole.rbac.authorization.k8s.io "${name}-nope" not found`,
    );
  });

  it('validates as the real server and keeps roleRef immutable', async () => {
    const bad = await admin(
      'POST',
      `${RBAC}/namespaces/default/roles`,
      role('noverbs', [{ apiGroups: [''], resources: ['pods'] }]),
    );
    expect(bad.status).toBe(422);
    expect((bad.json as { message: string }).message).toBe(
      'Role.rbac.authorization.k8s.io "noverbs" is invalid: rules[0].verbs: Required value: verbs must contain at least one value',
    );
    const url = await admin(
      'POST',
      `${RBAC}/namespaces/default/roles`,
      role('urls', [{ verbs: ['get'], nonResourceURLs: ['/x'] }]),
    );
    expect((url.json as { message: string }).message).toBe(
      'Role.rbac.authorization.k8s.io "urls" is invalid: rules[0].nonResourceURLs: Invalid value: ["/x"]: namespaced rules cannot apply to non-resource URLs',
    );
    const name = unique('fixed');
    await created(
      admin(
        'POST',
        `${RBAC}/namespaces/default/rolebindings`,
        roleBinding(name, ['ClusterRole', 'view'], [user('x')]),
      ),
    );
    const changed = await admin(
      'PUT',
      `${RBAC}/namespaces/default/rolebindings/${name}`,
      roleBinding(name, ['ClusterRole', 'edit'], [user('x')]),
    );
    expect(changed.status).toBe(422);
    expect((changed.json as { message: string }).message).toMatch(
      /^RoleBinding\.rbac\.authorization\.k8s\.io ".*" is invalid: roleRef: Invalid value: .*: cannot change roleRef$/,
    );
    // PUT creates a missing object (AllowCreateOnUpdate), as kubectl auth reconcile needs.
    const put = await admin(
      'PUT',
      `${RBAC}/clusterroles/${name}`,
      clusterRole(name, [{ verbs: ['get'], nonResourceURLs: ['/x'] }]),
    );
    expect(put.status).toBe(201);
  });
});
