/**
 * The reference kube-scheduler 1.20.2, unmodified, with kubeadm's command line, against Keel's API
 * server started as kubeadm runs one (Node,RBAC, client certificates): it wins the leader election
 * (a Lease), reads nodes and pods, binds 1,000 pods across 100 nodes and posts its events, all
 * under Keel's bootstrap RBAC for system:kube-scheduler. Once with
 * `--kube-api-content-type=application/json`, once with the default (protobuf).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DaemonProcess, freePort, writeKubeconfig } from '@keel/testing';
import {
  bindings,
  createReadyNode,
  eventually,
  explained,
  expectNoDenials,
  inBatches,
  podBody,
  whileRunning,
  type ApiClient,
  type Json,
} from './support/client.js';
import { startKeelApiServer } from './support/keel.js';
import {
  ClusterPKI,
  referenceBinaries,
  requireReference,
  type RunningApiServer,
} from './support/reference.js';

const NODES = 100;
const PODS = 1000;
const NS = 'default';

/** Starts everything, schedules, checks, and tears everything down again. */
async function scheduleThousandPods(contentType: 'application/json' | undefined): Promise<void> {
  requireReference();
  const pki = new ClusterPKI();
  const dir = mkdtempSync(join(tmpdir(), 'keel-interop-b-'));
  let api: RunningApiServer | undefined;
  let scheduler: DaemonProcess | undefined;
  try {
    api = await startKeelApiServer(pki);
    const admin = api.admin;
    const kubeconfig = writeKubeconfig(
      join(dir, 'scheduler.conf'),
      api.url,
      pki.ca.certPem,
      pki.client('system:kube-scheduler'),
    );
    // kubeadm's static pod command line (the insecure port off, as kubeadm 1.20 does).
    scheduler = DaemonProcess.exec(referenceBinaries().scheduler, [
      `--authentication-kubeconfig=${kubeconfig}`,
      `--authorization-kubeconfig=${kubeconfig}`,
      `--kubeconfig=${kubeconfig}`,
      '--leader-elect=true',
      // Longer than kubeadm's 15s/10s defaults only because the test machine is shared and loaded:
      // a scheduler that misses its renew deadline exits (fatal "leaderelection lost").
      '--leader-elect-lease-duration=60s',
      '--leader-elect-renew-deadline=45s',
      '--bind-address=127.0.0.1',
      '--port=0',
      `--secure-port=${await freePort()}`,
      `--cert-dir=${join(dir, 'certs')}`,
      ...(contentType ? [`--kube-api-content-type=${contentType}`] : []),
      '--v=2',
    ]);
    const started = scheduler;
    await explained(started, 'kube-scheduler', () =>
      whileRunning(started, 'kube-scheduler', () => checkScheduling(admin, started)),
    );
  } finally {
    await scheduler?.stop();
    await api?.stop();
    pki.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Leader election, 1,000 bindings over 100 nodes, the events, and no RBAC denial. */
async function checkScheduling(admin: ApiClient, scheduler: DaemonProcess): Promise<void> {
  const lease = await eventually(
    async () => {
      const r = await admin.get('/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler');
      const holder = ((r.json['spec'] ?? {}) as Json)['holderIdentity'];
      return r.status === 200 && typeof holder === 'string' && holder !== '' && r.json;
    },
    180_000,
    'kube-scheduler to hold kube-system/kube-scheduler',
  );
  expect(((lease['spec'] as Json)['holderIdentity'] as string).length).toBeGreaterThan(0);

  const nodes = Array.from({ length: NODES }, (_, i) => `node-${i}`);
  await inBatches(nodes, 20, (n) => createReadyNode(admin, n));
  const pods = Array.from({ length: PODS }, (_, i) => `pod-${i}`);
  await inBatches(pods, 25, (p) => admin.create(`/api/v1/namespaces/${NS}/pods`, podBody(p)));
  const bound = await eventually(
    async () => {
      const m = await bindings(admin, NS);
      const done = [...m.values()].filter((n) => n !== '').length;
      return done === PODS && m;
    },
    900_000,
    `all ${PODS} pods to be bound`,
  );
  const perNode = new Map<string, number>();
  for (const node of bound.values()) perNode.set(node, (perNode.get(node) ?? 0) + 1);
  for (const node of perNode.keys()) expect(nodes).toContain(node);
  // Spreading scores spread equal pods over equal nodes: all of them take some.
  expect(perNode.size).toBe(NODES);

  const scheduled = await eventually(
    async () => {
      const r = await admin.get(`/apis/events.k8s.io/v1/namespaces/${NS}/events?limit=5000`);
      const items = ((r.json['items'] ?? []) as Json[]).filter((e) => e['reason'] === 'Scheduled');
      return items.length === PODS && items;
    },
    300_000,
    'a Scheduled event per pod',
  );
  expect(scheduled[0]).toMatchObject({
    reportingController: 'default-scheduler',
    type: 'Normal',
    action: 'Binding',
  });
  // Keel's bootstrap RBAC let it do everything it tried.
  expectNoDenials(scheduler.stderr);
}

describe('the reference kube-scheduler 1.20.2 against keel-apiserver', () => {
  it('schedules 1,000 pods over 100 nodes in JSON (--kube-api-content-type=application/json)', async () => {
    await scheduleThousandPods('application/json');
  }, 1_500_000);

  it('schedules 1,000 pods over 100 nodes in protobuf (the default content type)', async () => {
    await scheduleThousandPods(undefined);
  }, 1_500_000);
});
