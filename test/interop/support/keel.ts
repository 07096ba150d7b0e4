/**
 * Keel's side of the interop suite: the built keel-apiserver with the kubeadm-style command line
 * (Node,RBAC, client certificates, service account keys, NodeRestriction) on its embedded store,
 * and the built keel-scheduler.
 */
import { apiServerEntry, DaemonProcess, freePort, schedulerEntry } from '@keel/testing';
import { ApiClient, eventually } from './client.js';
import type { ClusterPKI, RunningApiServer } from './reference.js';

export async function startKeelApiServer(pki: ClusterPKI): Promise<RunningApiServer> {
  const port = await freePort();
  const url = `https://127.0.0.1:${port}`;
  const proc = DaemonProcess.start(apiServerEntry, [
    '--advertise-address=127.0.0.1',
    '--bind-address=127.0.0.1',
    `--secure-port=${port}`,
    '--allow-privileged=true',
    '--authorization-mode=Node,RBAC',
    `--client-ca-file=${pki.ca.certFile}`,
    '--enable-admission-plugins=NodeRestriction',
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${pki.saPub}`,
    `--service-account-signing-key-file=${pki.saKey}`,
    '--service-cluster-ip-range=10.96.0.0/12',
    `--tls-cert-file=${pki.serving.certFile}`,
    `--tls-private-key-file=${pki.serving.keyFile}`,
  ]);
  const admin = new ApiClient(url, pki.ca, pki.admin);
  try {
    await proc.waitFor(/"Serving securely"/, 120_000);
    await eventually(
      async () => (await admin.get('/readyz')).status === 200,
      120_000,
      'keel-apiserver /readyz',
    );
  } catch (err) {
    await admin.close();
    await proc.stop();
    throw err;
  }
  return {
    url,
    admin,
    proc,
    stop: async () => {
      await admin.close();
      await proc.stop();
    },
  };
}

/** keel-scheduler with its three connections through one kubeconfig, as kubeadm sets it up. */
export function startKeelScheduler(kubeconfig: string, args: readonly string[]): DaemonProcess {
  return DaemonProcess.start(schedulerEntry, [
    `--authentication-connection-config=${kubeconfig}`,
    `--authorization-connection-config=${kubeconfig}`,
    `--connection-config=${kubeconfig}`,
    '--leader-elect=true',
    '--bind-address=127.0.0.1',
    ...args,
  ]);
}
