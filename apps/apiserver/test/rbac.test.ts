/**
 * --authorization-mode=RBAC end to end over HTTPS: decisions follow the bindings an admin
 * writes (within moments, through the watch), the 403s carry the real messages, and users may
 * grant only what they hold unless they may `escalate` or `bind`. Both stores, and two servers
 * on one Redis.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ADMIN_TOKEN, TestApiServer, type ApiResponse } from '@keel/testing';
import { statusText, stores } from './support/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'keel-rbac-'));
const tokenFile = join(dir, 'tokens.csv');
writeFileSync(
  tokenFile,
  [
    `${ADMIN_TOKEN},admin,uid-admin,"system:masters"`,
    'bob-token,bob,uid-bob',
    'carol-token,carol,uid-carol,"dev"',
    'robot-token,system:serviceaccount:default:robot,uid-robot,"system:serviceaccounts,system:serviceaccounts:default"',
    'dave-token,dave,uid-dave',
    '',
  ].join('\n'),
);
const RBAC_ARGS = ['--authorization-mode=RBAC', `--token-auth-file=${tokenFile}`];

const G = 'rbac.authorization.k8s.io';
const RBAC = `/apis/${G}/v1`;
const PODS = '/api/v1/namespaces/default/pods';

const forbidden = (message: string, details: Record<string, unknown>) =>
  statusText(403, 'Forbidden', message, details);

const role = (name: string, rules: unknown[], namespace = 'default') => ({
  apiVersion: `${G}/v1`,
  kind: 'Role',
  metadata: { name, namespace },
  rules,
});
const clusterRole = (name: string, rules: unknown[]) => ({
  apiVersion: `${G}/v1`,
  kind: 'ClusterRole',
  metadata: { name },
  rules,
});
const user = (name: string) => ({ kind: 'User', apiGroup: G, name });
const roleBinding = (name: string, ref: [string, string], subjects: unknown[], namespace = 'default') => ({
  apiVersion: `${G}/v1`,
  kind: 'RoleBinding',
  metadata: { name, namespace },
  roleRef: { apiGroup: G, kind: ref[0], name: ref[1] },
  subjects,
});
const clusterRoleBinding = (name: string, ref: string, subjects: unknown[]) => ({
  apiVersion: `${G}/v1`,
  kind: 'ClusterRoleBinding',
  metadata: { name },
  roleRef: { apiGroup: G, kind: 'ClusterRole', name: ref },
  subjects,
});

const unique = (p: string) => `${p}-${randomBytes(3).toString('hex')}`;

/** Polls until `check` holds: bindings reach the authorizer through a watch, not at once. */
async function eventually(
  fn: () => Promise<ApiResponse>,
  check: (r: ApiResponse) => boolean,
): Promise<ApiResponse> {
  let last: ApiResponse | undefined;
  for (let i = 0; i < 100; i++) {
    last = await fn();
    if (check(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  return last as ApiResponse;
}

async function created(p: Promise<ApiResponse>): Promise<void> {
  const r = await p;
  expect([r.status, r.text]).toEqual([201, expect.any(String)]);
}

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
    const v = await bob('GET', '/version');
    expect(v.status).toBe(403);
    expect((v.json as { message: string }).message).toBe('forbidden: User "bob" cannot get path "/version"');
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
          { verbs: ['get'], nonResourceURLs: ['/version'] },
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
      '/version',
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
