/**
 * The kubeadm-style production command line of issue 10, as an operator would type it (file
 * names under a generated PKI): the API server on Redis with Node,RBAC, client certificates,
 * the front proxy, service account keys and NodeRestriction, and the scheduler beside it with
 * one client-certificate connection-config for its three connections. A pod is scheduled under
 * the default roles alone, and `kubectl auth can-i --list` shows a `view` user its rules.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  apiServerEntry,
  DaemonProcess,
  freePort,
  schedulerEntry,
  TestPKI,
  writeKubeconfig,
  type TestCert,
} from '@keel/testing';
import { eventually } from './cluster.js';

const KUBECTL = process.env['KEEL_KUBECTL'] ?? 'kubectl';

function kubectl(
  kubeconfig: string,
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(KUBECTL, [`--kubeconfig=${kubeconfig}`, ...args], { timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the production command line (Node,RBAC on Redis) with the scheduler beside it', () => {
  const pki = new TestPKI();
  const dir = mkdtempSync(join(tmpdir(), 'keel-prod-'));
  let api: DaemonProcess;
  let scheduler: DaemonProcess;
  let url: string;
  let ca: TestCert;
  let admin: TestCert;
  let agent: Agent;
  const kubeconfigs: Record<string, string> = {};

  async function call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    const res = await request(url + path, {
      method: method as 'GET',
      dispatcher: agent,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    const json = res.headers['content-type']?.includes('json') ? (JSON.parse(text) as unknown) : undefined;
    return { status: res.statusCode, json };
  }

  beforeAll(async () => {
    ca = pki.ca('platform-ca');
    const frontProxyCA = pki.ca('front-proxy-ca');
    const serving = pki.leaf(ca, {
      cn: 'platform-apiserver',
      usage: 'server',
      hosts: ['127.0.0.1', 'localhost', '10.0.0.1'],
    });
    const nodeagentClient = pki.client(ca, 'platform-apiserver-nodeagent-client', ['system:masters']);
    const frontProxyClient = pki.client(frontProxyCA, 'front-proxy-client');
    admin = pki.client(ca, 'platform-admin', ['system:masters']);
    const saKey = join(pki.dir, 'sa.key');
    const saPub = join(pki.dir, 'sa.pub');
    execFileSync('openssl', ['genrsa', '-out', saKey, '2048'], { stdio: 'ignore' });
    execFileSync('openssl', ['rsa', '-in', saKey, '-pubout', '-out', saPub], { stdio: 'ignore' });

    const port = await freePort();
    url = `https://127.0.0.1:${port}`;
    api = DaemonProcess.start(apiServerEntry, [
      '--advertise-address=10.0.0.1',
      '--allow-privileged=true',
      '--authorization-mode=Node,RBAC',
      `--client-ca-file=${ca.certFile}`,
      '--enable-admission-plugins=NodeRestriction',
      '--enable-bootstrap-token-auth=true',
      `--store-servers=${inject('redisUrl')}`,
      `--store-prefix=/prod-${randomBytes(6).toString('hex')}`,
      `--nodeagent-client-certificate=${nodeagentClient.certFile}`,
      `--nodeagent-client-key=${nodeagentClient.keyFile}`,
      '--nodeagent-preferred-address-types=InternalIP,ExternalIP,Hostname',
      `--proxy-client-cert-file=${frontProxyClient.certFile}`,
      `--proxy-client-key-file=${frontProxyClient.keyFile}`,
      '--requestheader-allowed-names=front-proxy-client',
      `--requestheader-client-ca-file=${frontProxyCA.certFile}`,
      '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      '--requestheader-group-headers=X-Remote-Group',
      '--requestheader-username-headers=X-Remote-User',
      `--secure-port=${port}`,
      '--service-account-issuer=https://platform.default.svc.cluster.local',
      `--service-account-key-file=${saPub}`,
      `--service-account-signing-key-file=${saKey}`,
      '--service-cluster-ip-range=10.96.0.0/12',
      `--tls-cert-file=${serving.certFile}`,
      `--tls-private-key-file=${serving.keyFile}`,
      // Only so the test does not listen on every interface of the machine.
      '--bind-address=127.0.0.1',
    ]);
    // With Redis the API server starts one worker per core by default: slower on a busy machine.
    await api.waitFor(/"Serving securely"/, 90_000);
    agent = new Agent({ connect: { ca: ca.certPem, cert: admin.certPem, key: admin.keyPem } });
    await eventually(async () => (await call('GET', '/readyz')).status === 200, 30_000, '/readyz');

    const schedulerCert = pki.client(ca, 'system:kube-scheduler');
    kubeconfigs['scheduler'] = writeKubeconfig(join(dir, 'scheduler.conf'), url, ca.certPem, schedulerCert);
    kubeconfigs['viewer'] = writeKubeconfig(
      join(dir, 'viewer.conf'),
      url,
      ca.certPem,
      pki.client(ca, 'viewer'),
    );
    kubeconfigs['admin'] = writeKubeconfig(join(dir, 'admin.conf'), url, ca.certPem, admin);
    scheduler = DaemonProcess.start(schedulerEntry, [
      `--authentication-connection-config=${kubeconfigs['scheduler']}`,
      `--authorization-connection-config=${kubeconfigs['scheduler']}`,
      `--connection-config=${kubeconfigs['scheduler']}`,
      '--leader-elect=true',
      '--bind-address=127.0.0.1',
      `--secure-port=${await freePort()}`,
      `--cert-dir=${join(dir, 'scheduler-certs')}`,
    ]);
  }, 150_000);

  afterAll(async () => {
    await scheduler?.stop();
    await api?.stop();
    await agent?.close();
    pki.cleanup();
  });

  it('schedules a pod with the default roles only', async () => {
    const resources = { cpu: '4', memory: '8Gi', pods: '110' };
    const node = await call('POST', '/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'worker-1', labels: { 'kubernetes.io/hostname': 'worker-1' } },
      status: { capacity: resources, allocatable: resources },
    });
    expect(node.status).toBe(201);
    // TaintNodesByCondition tainted it not-ready; the API server's node taint controller lifts
    // the taint (the node reports no NotReady condition) and the scheduler then places the pod.
    const pod = await call('POST', '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web' },
      spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] },
    });
    expect(pod.status).toBe(201);
    const bound = await eventually(
      async () => {
        const r = await call('GET', '/api/v1/namespaces/default/pods/web');
        const spec = (r.json as { spec?: { nodeName?: string } }).spec;
        return spec?.nodeName;
      },
      30_000,
      'the pod to be bound',
    );
    expect(bound).toBe('worker-1');
    // The scheduler acted under its own identity, allowed by system:kube-scheduler alone.
    expect(scheduler.stderr).not.toMatch(/forbidden/i);
  });

  it('kubectl auth can-i --list shows a view user the rules of view', async () => {
    const binding = await call('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'viewer-view' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'viewer' }],
    });
    expect(binding.status).toBe(201);
    const viewer = kubeconfigs['viewer'] ?? '';
    const list = await eventually(
      async () => {
        const r = await kubectl(viewer, ['auth', 'can-i', '--list', '-n', 'default']);
        return r.code === 0 && /\bpods\b.*\[get list watch\]/.test(r.stdout) && r.stdout;
      },
      20_000,
      'the view rules in can-i --list',
    );
    expect(list).toMatch(/configmaps\s+\[\]\s+\[\]\s+\[get list watch\]/);
    expect(list).not.toMatch(/secrets\s/);
    expect((await kubectl(viewer, ['auth', 'can-i', 'list', 'pods', '-n', 'default'])).stdout.trim()).toBe(
      'yes',
    );
    expect((await kubectl(viewer, ['auth', 'can-i', 'create', 'pods', '-n', 'default'])).stdout.trim()).toBe(
      'no',
    );
    const denied = await kubectl(viewer, ['create', 'configmap', 'x', '-n', 'default']);
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain(
      'configmaps is forbidden: User "viewer" cannot create resource "configmaps" in API group "" in the namespace "default"',
    );
  });
});
