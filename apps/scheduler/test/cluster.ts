/**
 * End-to-end fixtures: a built keel-apiserver, built keel-scheduler processes pointed at it
 * through a connection-config file, and the few API calls the tests make as the admin.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonProcess, TestApiServer, schedulerEntry, writeKubeconfig } from '@keel/testing';
import { expect } from 'vitest';

/** Short leader election timings: a dead leader is replaced within about 3 s. */
export const FAST_ELECTION = [
  '--leader-elect-lease-duration=2s',
  '--leader-elect-renew-deadline=1500ms',
  '--leader-elect-retry-period=500ms',
];

export interface Pod {
  metadata: { name: string; namespace: string; uid: string; resourceVersion: string };
  spec: { nodeName?: string; schedulerName?: string };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

export interface Event {
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

export class Cluster {
  private constructor(
    readonly api: TestApiServer,
    readonly kubeconfig: string,
  ) {}

  static async start(): Promise<Cluster> {
    const api = await TestApiServer.start();
    await api.ready();
    const dir = mkdtempSync(join(tmpdir(), 'keel-sched-e2e-'));
    const kubeconfig = join(dir, 'scheduler.conf');
    writeKubeconfig(kubeconfig, api.url, api.ca);
    return new Cluster(api, kubeconfig);
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
  ): Promise<Pod> {
    return this.call<Pod>('POST', `/api/v1/namespaces/${namespace}/pods`, {
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

  async pods(namespace: string): Promise<Pod[]> {
    return (await this.call<{ items: Pod[] }>('GET', `/api/v1/namespaces/${namespace}/pods`)).items;
  }

  async pod(namespace: string, name: string): Promise<Pod> {
    return this.call<Pod>('GET', `/api/v1/namespaces/${namespace}/pods/${name}`);
  }

  async events(namespace: string): Promise<Event[]> {
    return (
      await this.call<{ items: Event[] }>('GET', `/apis/events.k8s.io/v1/namespaces/${namespace}/events`)
    ).items;
  }

  /** core/v1 view, where the LeaderElection events of the legacy recorder are written. */
  async coreEvents(
    namespace: string,
  ): Promise<{ reason: string; message: string; involvedObject: { kind: string; name: string } }[]> {
    return (await this.call<{ items: never[] }>('GET', `/api/v1/namespaces/${namespace}/events`)).items;
  }

  async lease(
    namespace: string,
    name: string,
  ): Promise<{ spec: { holderIdentity?: string; leaseTransitions?: number } } | undefined> {
    const r = await this.api.request(
      'GET',
      `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/${name}`,
    );
    if (r.status === 404) return undefined;
    if (r.status !== 200) throw new Error(`GET lease: ${r.status} ${r.text}`);
    return r.json as { spec: { holderIdentity?: string } };
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
export function scheduledCounts(events: readonly Event[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of events) {
    if (e.reason !== 'Scheduled') continue;
    counts.set(e.regarding.name, (counts.get(e.regarding.name) ?? 0) + (e.series?.count ?? 1));
  }
  return counts;
}

/** Every pod in `namespace` is bound, and bound once according to the Scheduled events. */
export async function expectAllBoundOnce(
  cluster: Cluster,
  namespace: string,
  names: readonly string[],
): Promise<void> {
  const pods = await eventually(
    async () => {
      const all = await cluster.pods(namespace);
      return names.every((n) => all.some((p) => p.metadata.name === n && p.spec.nodeName)) && all;
    },
    30_000,
    `pods of ${namespace} to be bound`,
  );
  const counts = await eventually(
    async () => {
      const c = scheduledCounts(await cluster.events(namespace));
      return names.every((n) => c.has(n)) && c;
    },
    10_000,
    'Scheduled events',
  );
  for (const n of names) {
    expect(counts.get(n), `Scheduled events of ${n}`).toBe(1);
    expect(pods.find((p) => p.metadata.name === n)?.spec.nodeName).toBeTruthy();
  }
}
