/**
 * Keel's scheduler against the reference kube-apiserver 1.20.2 (with etcd): it authenticates as
 * system:kube-scheduler with a client certificate, wins the leader election (a Lease), binds the
 * pods to the nodes the test creates and posts events, all under the reference server's own RBAC.
 * Its secure port authenticates and authorizes through the reference server (TokenReview,
 * SubjectAccessReview).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, writeKubeconfig, type DaemonProcess } from '@keel/testing';
import {
  bindings,
  createReadyNode,
  eventually,
  explained,
  expectNoDenials,
  inBatches,
  podBody,
  type Json,
} from './support/client.js';
import { startKeelScheduler } from './support/keel.js';
import {
  ClusterPKI,
  requireReference,
  startReferenceApiServer,
  type RunningApiServer,
} from './support/reference.js';

const METRICS_TOKEN = 'interop-metrics-reader-token';
const NS = 'default';

describe('keel-scheduler against the reference kube-apiserver 1.20.2', () => {
  let pki: ClusterPKI;
  let dir: string;
  let api: RunningApiServer;
  let scheduler: DaemonProcess | undefined;
  let securePort: number;

  beforeAll(async () => {
    requireReference();
    pki = new ClusterPKI();
    dir = mkdtempSync(join(tmpdir(), 'keel-interop-a-'));
    const tokenFile = join(dir, 'tokens.csv');
    writeFileSync(tokenFile, `${METRICS_TOKEN},metrics-reader,uid-metrics-reader\n`);
    api = await startReferenceApiServer(pki, { tokenFile });
    // keel-scheduler watches namespaces (for namespaceSelector in pod affinity terms), as
    // kube-scheduler does since 1.21, and CSIDrivers and CSIStorageCapacities (volume binding's
    // capacity check, 1.21+ and 1.24+); the 1.20 system:kube-scheduler role predates all three, so
    // the cluster grants them, as an operator of a 1.20 cluster would (docs/interop.md). The
    // collections 1.20 does not serve at all (policy/v1 PodDisruptionBudgets, CSIStorageCapacities)
    // keel-scheduler reads from their older versions or goes on without.
    await api.admin.create('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'interop:scheduler-namespaces' },
      rules: [
        { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] },
        {
          apiGroups: ['storage.k8s.io'],
          resources: ['csidrivers', 'csistoragecapacities'],
          verbs: ['get', 'list', 'watch'],
        },
      ],
    });
    await api.admin.create('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'interop:scheduler-namespaces' },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'interop:scheduler-namespaces',
      },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'system:kube-scheduler' }],
    });
    const kubeconfig = writeKubeconfig(
      join(dir, 'scheduler.conf'),
      api.url,
      pki.ca.certPem,
      pki.client('system:kube-scheduler'),
    );
    securePort = await freePort();
    scheduler = startKeelScheduler(kubeconfig, [
      // Where the reference server's system:kube-scheduler role lets a scheduler hold its lock.
      '--leader-elect-resource-namespace=kube-system',
      '--leader-elect-resource-name=kube-scheduler',
      `--secure-port=${securePort}`,
      `--cert-dir=${join(dir, 'certs')}`,
    ]);
  }, 300_000);

  afterAll(async () => {
    await scheduler?.stop();
    await api?.stop();
    pki?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it(
    'becomes leader through a Lease in kube-system',
    () =>
      explained(scheduler, 'keel-scheduler', async () => {
        const lease = await eventually(
          async () => {
            const r = await api.admin.get(
              '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler',
            );
            const holder = ((r.json['spec'] ?? {}) as Json)['holderIdentity'];
            return r.status === 200 && typeof holder === 'string' && holder !== '' && r.json;
          },
          180_000,
          'the scheduler to hold kube-system/kube-scheduler',
        );
        expect(((lease['spec'] as Json)['holderIdentity'] as string).length).toBeGreaterThan(0);
      }),
    200_000,
  );

  it(
    'binds pods to the test nodes and posts Scheduled events',
    () =>
      explained(scheduler, 'keel-scheduler', async () => {
        const nodes = Array.from({ length: 5 }, (_, i) => `node-${i}`);
        await inBatches(nodes, 5, (n) => createReadyNode(api.admin, n));
        // No controller manager runs beside the reference server: the ServiceAccount admission
        // plugin needs the namespace's default ServiceAccount, which the token controller would create.
        await api.admin.create(`/api/v1/namespaces/${NS}/serviceaccounts`, {
          apiVersion: 'v1',
          kind: 'ServiceAccount',
          metadata: { name: 'default' },
        });
        const pods = Array.from({ length: 20 }, (_, i) => `pod-${i}`);
        await inBatches(pods, 10, (p) => api.admin.create(`/api/v1/namespaces/${NS}/pods`, podBody(p)));
        const bound = await eventually(
          async () => {
            const m = await bindings(api.admin, NS);
            return [...m.values()].filter((n) => n !== '').length === pods.length && m;
          },
          240_000,
          'every pod to be bound',
        );
        for (const node of bound.values()) expect(nodes).toContain(node);
        const events = await eventually(
          async () => {
            const r = await api.admin.get(`/apis/events.k8s.io/v1/namespaces/${NS}/events`);
            const items = ((r.json['items'] ?? []) as Json[]).filter((e) => e['reason'] === 'Scheduled');
            return items.length === pods.length && items;
          },
          120_000,
          'a Scheduled event per pod',
        );
        expect(events[0]).toMatchObject({
          reportingController: 'default-scheduler',
          type: 'Normal',
          action: 'Binding',
        });
        // Everything it did, the reference RBAC allowed.
        // keel-scheduler reads the authentication ConfigMap from platform-system, which a reference
        // cluster does not let it read (docs/interop.md); the lookup failure is tolerated.
        expectNoDenials(scheduler?.stderr ?? '', (l) =>
          l.includes('configmaps \\"extension-apiserver-authentication\\" is forbidden'),
        );
      }),
    400_000,
  );

  it(
    'authenticates and authorizes /metrics through the reference server',
    () =>
      explained(scheduler, 'keel-scheduler', async () => {
        const agent = new Agent({ connect: { rejectUnauthorized: false } });
        const get = async (token?: string) => {
          const res = await request(`https://127.0.0.1:${securePort}/metrics`, {
            dispatcher: agent,
            headers: token ? { authorization: `Bearer ${token}` } : {},
          });
          await res.body.text();
          return res.statusCode;
        };
        try {
          await eventually(async () => (await get().catch(() => 0)) !== 0, 120_000, 'the secure port');
          expect([401, 403]).toContain(await get());
          // Authenticated (TokenReview) but not allowed (SubjectAccessReview) yet.
          expect(await get(METRICS_TOKEN)).toBe(403);
          await api.admin.create('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'ClusterRole',
            metadata: { name: 'interop-metrics-reader' },
            rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
          });
          await api.admin.create('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'ClusterRoleBinding',
            metadata: { name: 'interop-metrics-reader' },
            roleRef: {
              apiGroup: 'rbac.authorization.k8s.io',
              kind: 'ClusterRole',
              name: 'interop-metrics-reader',
            },
            subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'metrics-reader' }],
          });
          // The scheduler caches the denial for a while (--authorization-webhook-cache-unauthorized-ttl).
          await eventually(
            async () => (await get(METRICS_TOKEN)) === 200,
            120_000,
            '/metrics to allow the reader',
          );
        } finally {
          await agent.close();
        }
      }),
    300_000,
  );
});
