/**
 * The default RBAC policy end to end: a server started with --authorization-mode=RBAC creates the
 * reference's default roles and bindings, aggregates admin/edit/view (following new labelled
 * roles), keeps a user's change marked autoupdate "false" across a restart and recreates a
 * deleted default. The objects are checked, not authorization decisions.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { clientConfig } from './support/clients/kubeconfig.js';
import { kubectl, kubectlOk } from './support/clients/kubectl.js';
import { expectStatus, type Json } from './support/core.js';
import { stores } from './support/fixtures.js';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const AUTOUPDATE = 'rbac.authorization.kubernetes.io/autoupdate';

type Rule = { resources?: string[] };
const grants = (role: Json, resource: string) =>
  ((role['rules'] ?? []) as Rule[]).some((r) => r.resources?.includes(resource));

async function eventually<T>(fn: () => Promise<T>, check: (v: T) => boolean): Promise<T> {
  let last = await fn();
  for (let i = 0; i < 100 && !check(last); i++) {
    await new Promise((r) => setTimeout(r, 50));
    last = await fn();
  }
  return last;
}

// The RBAC authorizer lands beside this policy; until it does the server refuses the mode.
describe('default RBAC policy', () => {
  describe.each(stores)('on the %s store', (_kind, redisUrl) => {
    let server: TestApiServer;
    beforeAll(async () => {
      server = await TestApiServer.start({
        args: ['--authorization-mode=RBAC'],
        ...(redisUrl ? { redisUrl } : {}),
      });
      await server.ready();
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('/readyz lists the two RBAC steps after the bootstrap controller', async () => {
      const r = await server.request('GET', '/readyz?verbose');
      expect(r.text).toContain(
        '[+]poststarthook/bootstrap-controller ok\n' +
          '[+]poststarthook/rbac/bootstrap-roles ok\n' +
          '[+]poststarthook/start-clusterrole-aggregation-controller ok\n',
      );
    });

    it('kubectl lists the default roles and bindings', async () => {
      const cfg = clientConfig(server);
      const roles = (await kubectlOk(cfg, ['get', 'clusterroles', '-o', 'name'])).split('\n');
      for (const name of [
        'admin',
        'edit',
        'view',
        'cluster-admin',
        'system:kube-scheduler',
        'system:node',
        'system:basic-user',
        'system:discovery',
        'system:public-info-viewer',
        'system:controller:clusterrole-aggregation-controller',
      ]) {
        expect(roles).toContain(`clusterrole.rbac.authorization.k8s.io/${name}`);
      }
      const bindings = await kubectlOk(cfg, ['get', 'clusterrolebindings', '-o', 'name']);
      expect(bindings).toContain('clusterrolebinding.rbac.authorization.k8s.io/system:kube-scheduler\n');
      const namespaced = await kubectlOk(cfg, ['get', 'roles', '-n', 'platform-system', '-o', 'name']);
      expect(namespaced).toContain(
        'role.rbac.authorization.k8s.io/extension-apiserver-authentication-reader\n',
      );

      const masters = await expectStatus(
        server.request('GET', `${RBAC}/clusterrolebindings/cluster-admin`),
        200,
      );
      expect(masters['subjects']).toEqual([
        { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' },
      ]);
      const view = await expectStatus(server.request('GET', `${RBAC}/clusterroles/view`), 200);
      expect((view['metadata'] as Json)['labels']).toEqual({
        'kubernetes.io/bootstrapping': 'rbac-defaults',
        'rbac.authorization.k8s.io/aggregate-to-edit': 'true',
      });
      expect((view['metadata'] as Json)['annotations']).toEqual({ [AUTOUPDATE]: 'true' });
      // Aggregated by the time the server is ready.
      expect(grants(view, 'pods/log')).toBe(true);
    });

    it("system:kube-scheduler may hold Keel's lock and the reference scheduler's default one", async () => {
      const cfg = clientConfig(server);
      const canI = async (verb: string, lease: string, ns: string) =>
        (
          await kubectl(cfg, [
            'auth',
            'can-i',
            verb,
            `leases.coordination.k8s.io/${lease}`,
            '-n',
            ns,
            '--as=system:kube-scheduler',
          ])
        ).stdout.trim();
      for (const [lease, ns] of [
        ['platform-scheduler', 'platform-system'],
        ['kube-scheduler', 'kube-system'],
      ] as const) {
        expect([lease, await canI('get', lease, ns), await canI('update', lease, ns)]).toEqual([
          lease,
          'yes',
          'yes',
        ]);
      }
      expect(await canI('update', 'someone-else', 'kube-system')).toBe('no');
    });

    it('a role limited by resourceNames lets its subject list and watch that object by field selector', async () => {
      // What the reference scheduler's delegated authentication does in kube-system.
      const as = { headers: { 'Impersonate-User': 'system:kube-scheduler' } };
      const path = '/api/v1/namespaces/kube-system/configmaps';
      const one = `${path}?fieldSelector=${encodeURIComponent('metadata.name=extension-apiserver-authentication')}`;
      const list = await expectStatus(server.request('GET', one, as), 200);
      expect((list['items'] as Json[]).map((i) => (i['metadata'] as Json)['name'])).toEqual([
        'extension-apiserver-authentication',
      ]);
      const watch = await server.request('GET', `${one}&watch=1&timeoutSeconds=1`, as);
      expect(watch.status).toBe(200);
      expect((await server.request('GET', path, as)).status).toBe(403);
      const other = `${path}?fieldSelector=${encodeURIComponent('metadata.name=kube-root-ca.crt')}`;
      expect((await server.request('GET', other, as)).status).toBe(403);
    });

    it('admin takes in the rules of a new role labelled aggregate-to-admin', async () => {
      const name = `widgets-${randomBytes(3).toString('hex')}`;
      await expectStatus(
        server.request('POST', `${RBAC}/clusterroles`, {
          body: {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'ClusterRole',
            metadata: { name, labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } },
            rules: [{ verbs: ['get'], apiGroups: ['example.com'], resources: [name] }],
          },
        }),
        201,
      );
      const admin = await eventually(
        () => expectStatus(server.request('GET', `${RBAC}/clusterroles/admin`), 200),
        (r) => grants(r, name),
      );
      expect(grants(admin, name)).toBe(true);
      expect(grants(await expectStatus(server.request('GET', `${RBAC}/clusterroles/edit`), 200), name)).toBe(
        false,
      );
    });
  });

  describe('across a restart (redis)', () => {
    const redisUrl = inject('redisUrl');
    const prefix = `/keel-rbac-defaults-${randomBytes(4).toString('hex')}`;
    const start = async () => {
      const s = await TestApiServer.start({
        args: ['--authorization-mode=RBAC', `--store-servers=${redisUrl}`, `--store-prefix=${prefix}`],
      });
      await s.ready();
      return s;
    };

    it('keeps a change marked autoupdate "false" and recreates a deleted default', async () => {
      let server = await start();
      try {
        const path = `${RBAC}/clusterroles/system:discovery`;
        const current = await expectStatus(server.request('GET', path), 200);
        const mine = { verbs: ['get'], nonResourceURLs: ['/version'] };
        await expectStatus(
          server.request('PUT', path, {
            body: {
              ...current,
              metadata: { ...(current['metadata'] as Json), annotations: { [AUTOUPDATE]: 'false' } },
              rules: [mine],
            },
          }),
          200,
        );
        await expectStatus(server.request('DELETE', `${RBAC}/clusterroles/system:heapster`), 200);
        await server.stop();

        server = await start();
        const kept = await expectStatus(server.request('GET', path), 200);
        expect(kept['rules']).toEqual([mine]);
        expect((kept['metadata'] as Json)['annotations']).toEqual({ [AUTOUPDATE]: 'false' });
        const recreated = await expectStatus(
          server.request('GET', `${RBAC}/clusterroles/system:heapster`),
          200,
        );
        expect(grants(recreated, 'nodes')).toBe(true);
      } finally {
        await server.stop();
      }
    });
  });
});
