/**
 * The reference control plane of the interop suite: etcd, kube-apiserver and kube-scheduler
 * 1.20.2 from `$REFERENCE_BIN` (default /opt/reference; etcd there or on PATH). Nothing here
 * downloads or builds them: a missing binary fails the suite with the names of what is missing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { DaemonProcess, freePort, TestPKI, type TestCert } from '@keel/testing';
import { ApiClient, eventually } from './client.js';

export const REFERENCE_BIN = process.env['REFERENCE_BIN'] ?? '/opt/reference';

function onPath(name: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const file = join(dir, name);
    if (dir !== '' && existsSync(file)) return file;
  }
  return undefined;
}

/** Where each reference binary is (etcd may come from the system, as the build script installs it). */
export function referenceBinaries(): { apiserver: string; scheduler: string; etcd: string | undefined } {
  const inBin = join(REFERENCE_BIN, 'etcd');
  return {
    apiserver: join(REFERENCE_BIN, 'kube-apiserver'),
    scheduler: join(REFERENCE_BIN, 'kube-scheduler'),
    etcd: existsSync(inBin) ? inBin : onPath('etcd'),
  };
}

/** Why the suite cannot run, or undefined when every reference binary is there. */
export function missingReference(): string | undefined {
  const b = referenceBinaries();
  const missing = [
    ...(existsSync(b.apiserver) ? [] : [b.apiserver]),
    ...(existsSync(b.scheduler) ? [] : [b.scheduler]),
    ...(b.etcd ? [] : ['etcd (neither in REFERENCE_BIN nor on PATH)']),
  ];
  if (missing.length === 0) return undefined;
  return (
    `INTEROP SUITE CANNOT RUN: reference binaries missing: ${missing.join(', ')}. ` +
    'Set REFERENCE_BIN to a directory holding kube-apiserver and kube-scheduler v1.20.2 ' +
    '(and install etcd), or build them (see docs/interop.md).'
  );
}

/** Throws the missing-binaries message: the suite fails, it never passes without having run. */
export function requireReference(): void {
  const why = missingReference();
  if (why) throw new Error(why);
}

/** Stops a daemon and says what it printed when it had already died. */
async function stopQuietly(p: DaemonProcess | undefined): Promise<void> {
  await p?.stop('SIGTERM', 20_000);
}

export class Etcd {
  private constructor(
    readonly url: string,
    private readonly proc: DaemonProcess,
    private readonly dir: string,
  ) {}

  /** A single-member etcd on free loopback ports with its data in a temporary directory. */
  static async start(): Promise<Etcd> {
    const etcd = referenceBinaries().etcd;
    if (!etcd) throw new Error(missingReference());
    const dir = mkdtempSync(join(tmpdir(), 'keel-interop-etcd-'));
    const client = `http://127.0.0.1:${await freePort()}`;
    const peer = `http://127.0.0.1:${await freePort()}`;
    const proc = DaemonProcess.exec(etcd, [
      '--name=interop',
      `--data-dir=${join(dir, 'data')}`,
      `--listen-client-urls=${client}`,
      `--advertise-client-urls=${client}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=interop=${peer}`,
      `--listen-metrics-urls=http://127.0.0.1:${await freePort()}`,
    ]);
    try {
      await proc.waitFor(/ready to serve client requests/, 60_000);
    } catch (err) {
      await stopQuietly(proc);
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    return new Etcd(client, proc, dir);
  }

  async stop(): Promise<void> {
    await stopQuietly(this.proc);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** One PKI for a control plane: a cluster CA, service account keys, and client certificates. */
export class ClusterPKI {
  readonly pki = new TestPKI();
  readonly ca: TestCert = this.pki.ca('interop-ca');
  readonly serving: TestCert = this.pki.leaf(this.ca, {
    cn: 'apiserver',
    usage: 'server',
    hosts: ['127.0.0.1', 'localhost', '10.96.0.1'],
  });
  readonly admin: TestCert = this.pki.client(this.ca, 'interop-admin', ['system:masters']);
  readonly saKey = join(this.pki.dir, 'sa.key');
  readonly saPub = join(this.pki.dir, 'sa.pub');

  constructor() {
    execFileSync('openssl', ['genrsa', '-out', this.saKey, '2048'], { stdio: 'ignore' });
    execFileSync('openssl', ['rsa', '-in', this.saKey, '-pubout', '-out', this.saPub], { stdio: 'ignore' });
  }

  client(cn: string, orgs: readonly string[] = []): TestCert {
    return this.pki.client(this.ca, cn, orgs);
  }

  cleanup(): void {
    this.pki.cleanup();
  }
}

/** What a running API server (reference or Keel) offers the tests. */
export interface RunningApiServer {
  readonly url: string;
  readonly admin: ApiClient;
  readonly proc: DaemonProcess;
  stop(): Promise<void>;
}

/**
 * The reference kube-apiserver with etcd, as kubeadm runs it (Node,RBAC, client certificates,
 * service account keys, NodeRestriction), on a loopback secure port; the insecure port is off.
 * `tokenFile` adds static tokens (the tests' metrics reader).
 */
export async function startReferenceApiServer(
  pki: ClusterPKI,
  opts: { tokenFile?: string } = {},
): Promise<RunningApiServer> {
  const etcd = await Etcd.start();
  const port = await freePort();
  const url = `https://127.0.0.1:${port}`;
  let proc: DaemonProcess | undefined;
  try {
    proc = DaemonProcess.exec(referenceBinaries().apiserver, [
      '--advertise-address=127.0.0.1',
      '--bind-address=127.0.0.1',
      `--secure-port=${port}`,
      '--insecure-port=0',
      '--allow-privileged=true',
      '--authorization-mode=Node,RBAC',
      `--client-ca-file=${pki.ca.certFile}`,
      '--enable-admission-plugins=NodeRestriction',
      `--etcd-servers=${etcd.url}`,
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${pki.saPub}`,
      `--service-account-signing-key-file=${pki.saKey}`,
      '--service-cluster-ip-range=10.96.0.0/12',
      `--tls-cert-file=${pki.serving.certFile}`,
      `--tls-private-key-file=${pki.serving.keyFile}`,
      '--profiling=false',
      ...(opts.tokenFile ? [`--token-auth-file=${opts.tokenFile}`] : []),
    ]);
    const admin = new ApiClient(url, pki.ca, pki.admin);
    await eventually(
      async () => (await admin.get('/readyz')).status === 200,
      180_000,
      'kube-apiserver /readyz',
    );
    const started = proc;
    return {
      url,
      admin,
      proc: started,
      stop: async () => {
        await admin.close();
        await stopQuietly(started);
        await etcd.stop();
      },
    };
  } catch (err) {
    const printed = proc?.stderr.slice(-3000) ?? '';
    await stopQuietly(proc);
    await etcd.stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${printed}`);
  }
}
