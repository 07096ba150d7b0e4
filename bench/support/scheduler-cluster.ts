/**
 * The scheduler benchmark's cluster: one API server (memory store) with the bench namespace and
 * its nodes, and a client pool that creates pods, posts Bindings and watches pods get bound.
 */
import { Agent, request } from 'undici';
import { ADMIN_TOKEN, TestApiServer } from '@keel/testing';

export const NS = 'bench';
const AUTH = { authorization: `Bearer ${ADMIN_TOKEN}` };
/** BENCH_TRACE=1 records when each pod was seen bound. */
const TRACE = process.env['BENCH_TRACE'] === '1';
export const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 64);
/** BENCH_APISERVER_ENTRY runs another build's API server (its dist/main.js), for A/B runs. */
export const APISERVER_ENTRY = process.env['BENCH_APISERVER_ENTRY'];
const now = () => performance.now();

/** Nodes are spread over this many zones (`topology.kubernetes.io/zone`), for spreading workloads. */
export const ZONES = 10;

/** What a workload adds to each bench pod: labels and extra spec fields (affinity, spreading). */
export interface PodShape {
  readonly labels?: (i: number) => Readonly<Record<string, string>>;
  readonly spec?: (i: number) => Readonly<Record<string, unknown>>;
  /** The container's cpu request; 100m unless said. */
  readonly cpu?: string;
}

function nodeObject(name: string, i: number): unknown {
  const resources = { cpu: '32', memory: '128Gi', pods: '110', 'ephemeral-storage': '100Gi' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'topology.kubernetes.io/zone': `zone-${i % ZONES}`,
      },
    },
    spec: {},
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is ready' }],
    },
  };
}

function podBody(i: number, shape: PodShape): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `pod-${i}`, namespace: NS, labels: { app: 'bench', ...shape.labels?.(i) } },
    spec: {
      ...shape.spec?.(i),
      containers: [
        {
          name: 'app',
          image: 'registry.example/app:1',
          resources: { requests: { cpu: shape.cpu ?? '100m', memory: '128Mi' } },
        },
      ],
    },
  });
}

/** Runs `fn(0..n-1)` with at most `concurrency` calls in flight. */
export async function pool(n: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) await fn(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
}

/** One API server with the bench namespace and `nodes` nodes, and a client pool for it. */
export class Cluster {
  errors = 0;
  readonly nodeNames: string[];

  private constructor(
    readonly api: TestApiServer,
    readonly agent: Agent,
    nodes: number,
  ) {
    this.nodeNames = Array.from({ length: nodes }, (_, i) => `node-${i}`);
  }

  static async start(nodes: number): Promise<Cluster> {
    const api = await TestApiServer.start(APISERVER_ENTRY ? { entry: APISERVER_ENTRY } : {});
    // A long connect timeout: 64 TLS handshakes at once on a loaded 2-core machine can take over 10 s.
    const agent = new Agent({ connect: { ca: api.ca, timeout: 60_000 }, connections: CONCURRENCY + 8 });
    const c = new Cluster(api, agent, nodes);
    try {
      await api.ready();
      await c.post(
        '/api/v1/namespaces',
        JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }),
      );
      await pool(nodes, CONCURRENCY, (i) =>
        c.post('/api/v1/nodes', JSON.stringify(nodeObject(c.nodeNames[i] ?? '', i))),
      );
      if (c.errors > 0) throw new Error(`${c.errors} node creates failed`);
    } catch (err) {
      await c.stop();
      throw err;
    }
    return c;
  }

  /** POSTs `body`; a non-2xx answer counts as an error and is logged once. */
  post(path: string, body: string): Promise<void> {
    return this.send('POST', path, body);
  }

  /** A strategic merge patch, as the scheduler sends its status patches. */
  patch(path: string, body: string): Promise<void> {
    return this.send('PATCH', path, body, 'application/strategic-merge-patch+json');
  }

  delete(path: string): Promise<void> {
    return this.send('DELETE', path);
  }

  private async send(
    method: 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: string,
    contentType = 'application/json',
  ): Promise<void> {
    const r = await request(this.api.url + path, {
      method,
      headers: body === undefined ? AUTH : { ...AUTH, 'content-type': contentType },
      body,
      dispatcher: this.agent,
    });
    const text = await r.body.text();
    if (r.statusCode >= 300) {
      if (this.errors++ === 0) console.error(`  ${method} ${path}: ${r.statusCode} ${text.slice(0, 300)}`);
    }
  }

  /** The API server's /metrics text. */
  async metrics(): Promise<string> {
    const r = await request(this.api.url + '/metrics', { headers: AUTH, dispatcher: this.agent });
    return await r.body.text();
  }

  async get<T>(path: string): Promise<T> {
    const r = await request(this.api.url + path, { headers: AUTH, dispatcher: this.agent });
    return (await r.body.json()) as T;
  }

  createPod(i: number, shape: PodShape = {}): Promise<void> {
    return this.post(`/api/v1/namespaces/${NS}/pods`, podBody(i, shape));
  }

  bindPod(i: number): Promise<void> {
    const node = this.nodeNames[i % this.nodeNames.length] ?? '';
    return this.post(
      `/api/v1/namespaces/${NS}/pods/pod-${i}/binding`,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: `pod-${i}`, namespace: NS },
        target: { apiVersion: 'v1', kind: 'Node', name: node },
      }),
    );
  }

  /**
   * Resolves with the time a watch saw the last of `total` pods bound (or, after `timeoutMs`,
   * with how many it saw). A field selector keeps the stream to the bind transitions. The server
   * ends a watcher that falls behind; like an informer, this one resumes from the last version it
   * saw, or relists the bound pods when that version has expired.
   */
  async watchBound(
    total: number,
    timeoutMs: number,
  ): Promise<{ done: Promise<{ at: number; bound: number; restarts: number; boundAt: number[] }> }> {
    const ac = new AbortController();
    const bound = new Set<string>();
    const boundAt: number[] = [];
    const selector = encodeURIComponent('spec.nodeName!=');
    const open = async (rv: string) => {
      const r = await request(
        `${this.api.url}/api/v1/namespaces/${NS}/pods?watch=true&fieldSelector=${selector}&resourceVersion=${rv}`,
        { headers: AUTH, dispatcher: this.agent, signal: ac.signal },
      );
      // A refused watch is a Status body, not a stream: the run ends with what it saw.
      if (r.statusCode !== 200) throw new Error(`watch: ${r.statusCode} ${await r.body.text()}`);
      return r;
    };
    const relist = async () => {
      const l = await this.get<{
        metadata: { resourceVersion: string };
        items: { metadata: { name: string } }[];
      }>(`/api/v1/namespaces/${NS}/pods?fieldSelector=${selector}`);
      for (const p of l.items) bound.add(p.metadata.name);
      return l.metadata.resourceVersion;
    };
    let rv = await relist();
    let stream = await open(rv);
    let restarts = 0;
    const timer = setTimeout(() => ac.abort(), timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      ac.abort();
      return { at: now(), bound: bound.size, restarts, boundAt };
    };
    const done = (async () => {
      for (;;) {
        let buf = '';
        let expired = false;
        try {
          for await (const chunk of stream.body as AsyncIterable<Buffer>) {
            buf += chunk.toString();
            let nl: number;
            while ((nl = buf.indexOf('\n')) >= 0) {
              const ev = JSON.parse(buf.slice(0, nl)) as {
                type: string;
                object: {
                  code?: number;
                  metadata?: { name?: string; resourceVersion?: string };
                  spec?: { nodeName?: string };
                };
              };
              buf = buf.slice(nl + 1);
              if (ev.type === 'ERROR') expired = ev.object.code === 410;
              else if (ev.object.metadata?.resourceVersion) rv = ev.object.metadata.resourceVersion;
              if (
                ev.type !== 'DELETED' &&
                ev.type !== 'ERROR' &&
                ev.object.spec?.nodeName &&
                ev.object.metadata?.name
              ) {
                const size = bound.size;
                bound.add(ev.object.metadata.name);
                if (TRACE && bound.size > size) boundAt.push(now());
              }
            }
            if (bound.size >= total) return finish();
          }
        } catch {
          // Aborted (done or timed out) or the connection broke: the checks below tell which.
        }
        if (ac.signal.aborted || bound.size >= total) return finish();
        restarts++;
        try {
          if (expired) rv = await relist();
          if (bound.size >= total) return finish();
          stream = await open(rv);
        } catch {
          return finish();
        }
      }
    })();
    return { done };
  }

  /** Pods of the namespace that are still unbound, by a list (a check on the watch's count). */
  async unbound(): Promise<number> {
    const l = await this.get<{ items: unknown[] }>(
      `/api/v1/namespaces/${NS}/pods?fieldSelector=${encodeURIComponent('spec.nodeName=')}`,
    );
    return l.items.length;
  }

  async stop(): Promise<void> {
    await this.agent.close();
    await this.api.stop();
  }
}
