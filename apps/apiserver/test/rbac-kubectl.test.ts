/**
 * The real kubectl on the RBAC resources: its generators (protobuf bodies), `get -o wide` with
 * the server's tables, and apply (create, then patch), against a server in RBAC mode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { clientConfig, writeManifest, type ClientConfig } from './support/clients/kubeconfig.js';
import { kubectl, kubectlOk } from './support/clients/kubectl.js';
import { expectStatus, unique, type Json } from './support/core.js';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';

/** A table's rows as whitespace-separated cells (AGE varies, so callers drop it). */
const rows = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s{2,}/));

describe('kubectl and the RBAC resources', () => {
  let server: TestApiServer;
  let cfg: ClientConfig;
  const ok = (...args: string[]) => kubectlOk(cfg, args);
  beforeAll(async () => {
    server = await TestApiServer.start({ args: ['--authorization-mode=RBAC'] });
    await server.ready();
    cfg = clientConfig(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('kubectl create role / rolebinding and get -o wide', async () => {
    const name = unique('reader');
    expect(
      await ok(
        'create',
        'role',
        name,
        '--verb=get,list',
        '--resource=pods',
        '--resource-name=a',
        '-n',
        'default',
      ),
    ).toBe(`role.rbac.authorization.k8s.io/${name} created\n`);
    const stored = await expectStatus(server.request('GET', `${RBAC}/namespaces/default/roles/${name}`), 200);
    expect(stored['rules']).toEqual([
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] },
    ]);
    expect(
      await ok(
        'create',
        'rolebinding',
        name,
        `--role=${name}`,
        '--user=bob',
        '--group=dev',
        '--serviceaccount=default:robot',
        '-n',
        'default',
      ),
    ).toBe(`rolebinding.rbac.authorization.k8s.io/${name} created\n`);
    const table = rows(await ok('get', 'rolebinding', name, '-n', 'default', '-o', 'wide'));
    expect(table[0]).toEqual(['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']);
    const [n, r, , ...subjects] = table[1] ?? [];
    expect([n, r, ...subjects]).toEqual([name, `Role/${name}`, 'bob', 'dev', 'default/robot']);
    const roles = rows(await ok('get', 'role', name, '-n', 'default'));
    expect(roles[0]).toEqual(['NAME', 'CREATED AT']);
    expect(roles[1]?.[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('kubectl create clusterrole / clusterrolebinding and get clusterrolebindings -o wide', async () => {
    const name = unique('urls');
    expect(await ok('create', 'clusterrole', name, '--verb=get', '--non-resource-url=/logs/*')).toBe(
      `clusterrole.rbac.authorization.k8s.io/${name} created\n`,
    );
    expect(
      await ok('create', 'clusterrolebinding', name, `--clusterrole=${name}`, '--user=alice', '--user=bob'),
    ).toBe(`clusterrolebinding.rbac.authorization.k8s.io/${name} created\n`);
    const table = rows(await ok('get', 'clusterrolebindings', name, '-o', 'wide'));
    expect(table[0]).toEqual(['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']);
    expect(table[1]?.slice(0, 2)).toEqual([name, `ClusterRole/${name}`]);
    expect(table[1]?.[3]).toBe('alice, bob');
    // The bootstrap binding of the masters group is listed too.
    expect(await ok('get', 'clusterrolebindings', '-o', 'name')).toContain(
      'clusterrolebinding.rbac.authorization.k8s.io/cluster-admin\n',
    );
  });

  it('kubectl apply creates, then changes, a ClusterRole; a binding keeps its roleRef', async () => {
    const name = unique('applied');
    const manifest = (verbs: string) => `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: ${name}
rules:
- apiGroups: [""]
  resources: [configmaps]
  verbs: [${verbs}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: ${name}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: ${name}
subjects:
- kind: Group
  apiGroup: rbac.authorization.k8s.io
  name: dev
`;
    const file = writeManifest(cfg, `${name}.yaml`, manifest('get'));
    expect(await ok('apply', '-f', file)).toBe(
      `clusterrole.rbac.authorization.k8s.io/${name} created\nclusterrolebinding.rbac.authorization.k8s.io/${name} created\n`,
    );
    writeManifest(cfg, `${name}.yaml`, manifest('get, list'));
    expect(await ok('apply', '-f', file)).toBe(
      `clusterrole.rbac.authorization.k8s.io/${name} configured\nclusterrolebinding.rbac.authorization.k8s.io/${name} unchanged\n`,
    );
    const role = await expectStatus(server.request('GET', `${RBAC}/clusterroles/${name}`), 200);
    expect((role['rules'] as Json[])[0]?.['verbs']).toEqual(['get', 'list']);
    const binding = await expectStatus(server.request('GET', `${RBAC}/clusterrolebindings/${name}`), 200);
    expect(binding['subjects']).toEqual([
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'dev' },
    ]);

    writeManifest(
      cfg,
      `${name}.yaml`,
      manifest('get, list').replace(`  name: ${name}\nsubjects`, '  name: view\nsubjects'),
    );
    const changed = await kubectl(cfg, ['apply', '-f', file]);
    expect(changed.code).not.toBe(0);
    expect(changed.stderr).toContain('cannot change roleRef');
  });

  it('kubectl auth reconcile creates and then extends a role and its binding', async () => {
    const name = unique('reconciled');
    const manifest = (verbs: string, users: string) => `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: ${name}
  namespace: default
rules:
- apiGroups: [""]
  resources: [pods]
  verbs: [${verbs}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: ${name}
  namespace: default
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: ${name}
subjects:
${users
  .split(',')
  .map((u) => `- kind: User\n  apiGroup: rbac.authorization.k8s.io\n  name: ${u}`)
  .join('\n')}
`;
    const file = writeManifest(cfg, `${name}-reconcile.yaml`, manifest('get', 'bob'));
    expect(await ok('auth', 'reconcile', '-f', file)).toBe(
      `role.rbac.authorization.k8s.io/${name} reconciled\nrolebinding.rbac.authorization.k8s.io/${name} reconciled\n`,
    );
    writeManifest(cfg, `${name}-reconcile.yaml`, manifest('get, list', 'bob,carol'));
    await ok('auth', 'reconcile', '-f', file);
    const role = await expectStatus(server.request('GET', `${RBAC}/namespaces/default/roles/${name}`), 200);
    expect((role['rules'] as Json[]).flatMap((r) => r['verbs'] as string[]).sort()).toEqual(['get', 'list']);
    const binding = await expectStatus(
      server.request('GET', `${RBAC}/namespaces/default/rolebindings/${name}`),
      200,
    );
    expect((binding['subjects'] as Json[]).map((x) => x['name'])).toEqual(['bob', 'carol']);
  });
});
