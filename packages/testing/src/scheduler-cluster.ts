/**
 * Scheduler fixtures shared by the scheduler's e2e tests and the fault suite: a built
 * keel-apiserver, built keel-scheduler processes pointed at it through a connection-config file,
 * and the few API calls the tests make as the admin.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApiServer, schedulerEntry } from './api-server.js';
import { writeKubeconfig } from './kubeconfig.js';
import { DaemonProcess } from './process.js';

/** Short leader election timings: a dead leader is replaced within about 3 s. */
export const FAST_ELECTION = [
  '--leader-elect-lease-duration=2s',
  '--leader-elect-renew-deadline=1500ms',
  '--leader-elect-retry-period=500ms',
];

export interface SchedulerPod {
  metadata: { name: string; namespace: string; uid: string; resourceVersion: string };
  spec: { nodeName?: string; schedulerName?: string };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

export interface SchedulerEvent {
  metadata: { name: string; namespace: string };
  reason: string;
  type: string;
  action: string;
  note: string;
  reportingController: string;
  reportingInstance: string;
  regarding: { kind: string; name: string; namespace?: string; uid?: string };
  series?: { count: number };
}

/** The fields of a coordination.k8s.io/v1 Lease the tests read. */
export interface SchedulerLease {
  spec: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

export class SchedulerCluster {
  private constructor(
    readonly api: TestApiServer,
    readonly kubeconfig: string,
  ) {}

  static async start(): Promise<SchedulerCluster> {
    const api = await TestApiServer.start();
    await api.ready();
    const dir = mkdtempSync(join(tmpdir(), 'keel-sched-e2e-'));
    const kubeconfig = join(dir, 'scheduler.conf');
    writeKubeconfig(kubeconfig, api.url, api.ca);
    return new SchedulerCluster(api, kubeconfig);
  }

  /** A built scheduler on this cluster, without a secure port unless `args` asks for one. */
  scheduler(args: readonly string[] = []): DaemonProcess {
    return DaemonProcess.start(schedulerEntry, [
      `--connection-config=${this.kubeconfig}`,
      '--secure-port=0',
      '--v=2',
      ...args,
    ]);
  }

  async stop(): Promise<void> {
    await this.api.stop();
  }

  private async call<T>(method: string, path: string, body?: unknown, expected = [200, 201]): Promise<T> {
    const r = await this.api.request(method, path, body === undefined ? {} : { body });
    if (!expected.includes(r.status)) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
    return r.json as T;
  }

  async createNamespace(name: string): Promise<void> {
    await this.call('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
    });
  }

  async createNode(
    name: string,
    allocatable: { cpu: string; memory?: string; pods?: string },
  ): Promise<void> {
    const resources = { memory: '8Gi', pods: '110', ...allocatable };
    await this.call('POST', '/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name } },
      spec: {},
      status: { capacity: resources, allocatable: resources },
    });
    await this.markReady(name);
  }

  /**
   * Lifts the `node.kubernetes.io/not-ready:NoSchedule` taint TaintNodesByCondition gave the new
   * node at once: the API server's node taint controller does it too, but a suite that counts
   * scheduling attempts should not depend on when.
   */
  async markReady(name: string): Promise<void> {
    const r = await this.api.request('PATCH', `/api/v1/nodes/${name}`, {
      body: { spec: { taints: null } },
      contentType: 'application/merge-patch+json',
    });
    if (r.status !== 200) throw new Error(`PATCH node ${name}: ${r.status} ${r.text}`);
  }

  async createPod(
    namespace: string,
    name: string,
    opts: { cpu?: string; schedulerName?: string } = {},
  ): Promise<SchedulerPod> {
    return this.call<SchedulerPod>('POST', `/api/v1/namespaces/${namespace}/pods`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: {
        ...(opts.schedulerName ? { schedulerName: opts.schedulerName } : {}),
        containers: [
          {
            name: 'app',
            image: 'registry.example/app:1',
            ...(opts.cpu ? { resources: { requests: { cpu: opts.cpu } } } : {}),
          },
        ],
      },
    });
  }

  async pods(namespace: string): Promise<SchedulerPod[]> {
    return (await this.call<{ items: SchedulerPod[] }>('GET', `/api/v1/namespaces/${namespace}/pods`)).items;
  }

  async pod(namespace: string, name: string): Promise<SchedulerPod> {
    return this.call<SchedulerPod>('GET', `/api/v1/namespaces/${namespace}/pods/${name}`);
  }

  async events(namespace: string): Promise<SchedulerEvent[]> {
    return (
      await this.call<{ items: SchedulerEvent[] }>(
        'GET',
        `/apis/events.k8s.io/v1/namespaces/${namespace}/events`,
      )
    ).items;
  }

  /** core/v1 view, where the LeaderElection events of the legacy recorder are written. */
  async coreEvents(
    namespace: string,
  ): Promise<{ reason: string; message: string; involvedObject: { kind: string; name: string } }[]> {
    return (await this.call<{ items: never[] }>('GET', `/api/v1/namespaces/${namespace}/events`)).items;
  }

  async lease(namespace: string, name: string): Promise<SchedulerLease | undefined> {
    const r = await this.api.request(
      'GET',
      `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/${name}`,
    );
    if (r.status === 404) return undefined;
    if (r.status !== 200) throw new Error(`GET lease: ${r.status} ${r.text}`);
    return r.json as SchedulerLease;
  }
}

/** Polls `probe` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      const why = last instanceof Error ? `: ${last.message}` : '';
      throw new Error(`timed out waiting for ${what}${why}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `Scheduled` events per pod name. */
export function scheduledCounts(events: readonly SchedulerEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of events) {
    if (e.reason !== 'Scheduled') continue;
    counts.set(e.regarding.name, (counts.get(e.regarding.name) ?? 0) + (e.series?.count ?? 1));
  }
  return counts;
}
