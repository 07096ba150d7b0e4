/**
 * The soak's steady mixed load: each loop runs one request at a time at a fixed rate (never
 * catching up in a burst when it fell behind), and keeps the number of live objects bounded, so
 * the store does not grow over the hour and any memory growth is the server's own.
 */
import { setMaxListeners } from 'node:events';
import { Agent, request } from 'undici';
import { ADMIN_TOKEN } from '@keel/testing';

const AUTH = `Bearer ${ADMIN_TOKEN}`;
export const NS = 'soak';
/** Live objects per kind and worker before the oldest is deleted. */
const KEEP = 75;

export class Counters {
  requests = 0;
  errors = 0;
  watchEvents = 0;
  watchesOpen = 0;
  watchReconnects = 0;
  readonly byKind = new Map<string, number>();
  /** The first errors in full, then only counted. */
  readonly errorLog: string[] = [];

  count(kind: string): void {
    this.requests++;
    this.byKind.set(kind, (this.byKind.get(kind) ?? 0) + 1);
  }

  error(what: string): void {
    this.errors++;
    if (this.errorLog.length < 20) this.errorLog.push(what);
  }
}

/** Waits `ms`, or less if `signal` aborts; removes its listener either way (loops wait often). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export class SoakClient {
  readonly agent: Agent;

  constructor(
    readonly url: string,
    ca: string,
    readonly counters: Counters,
  ) {
    this.agent = new Agent({ connect: { ca }, connections: 64, pipelining: 0 });
  }

  /**
   * One request; a status outside `ok` (or a transport error) is counted as an error and logged.
   * Returns the parsed body, or undefined.
   */
  async call(
    kind: string,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    opts: { body?: unknown; patch?: boolean; ok?: readonly number[] } = {},
  ): Promise<{ status: number; json: unknown } | undefined> {
    this.counters.count(kind);
    const ok = opts.ok ?? [200, 201, 202];
    try {
      const r = await request(this.url + path, {
        method,
        headers: {
          authorization: AUTH,
          ...(opts.body !== undefined
            ? { 'content-type': opts.patch ? 'application/merge-patch+json' : 'application/json' }
            : {}),
        },
        ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
        dispatcher: this.agent,
      });
      const text = await r.body.text();
      if (!ok.includes(r.statusCode)) {
        this.counters.error(`${method} ${path}: ${r.statusCode} ${text.slice(0, 300)}`);
        return undefined;
      }
      let json: unknown;
      if (String(r.headers['content-type'] ?? '').includes('json')) json = JSON.parse(text) as unknown;
      return { status: r.statusCode, json };
    } catch (err) {
      this.counters.error(`${method} ${path}: ${(err as Error).message}`);
      return undefined;
    }
  }

  async text(path: string): Promise<string> {
    const r = await request(this.url + path, { headers: { authorization: AUTH }, dispatcher: this.agent });
    const text = await r.body.text();
    if (r.statusCode !== 200) throw new Error(`GET ${path}: ${r.statusCode} ${text.slice(0, 200)}`);
    return text;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** Runs `step(n)` `perS` times a second until `signal` aborts. */
async function paced(perS: number, signal: AbortSignal, step: (n: number) => Promise<void>): Promise<void> {
  const period = 1000 / perS;
  let next = Date.now();
  for (let n = 0; !signal.aborted; n++) {
    await step(n);
    next += period;
    const wait = next - Date.now();
    // Behind by more than a second (a slow server, a GC pause): drop the backlog, never burst.
    if (wait < -1000) next = Date.now();
    else if (wait > 0) await sleep(wait, signal);
  }
}

const meta = (name: string, ns = NS) => ({ name, namespace: ns, labels: { soak: 'true' } });

function pod(name: string, ns: string, bound: boolean): unknown {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta(name, ns),
    spec: {
      // A scheduler name no scheduler serves leaves the pod pending, as unbound pods are.
      ...(bound ? {} : { schedulerName: 'soak-unscheduled' }),
      containers: [
        {
          name: 'app',
          image: 'registry.example/app:1',
          resources: { requests: { cpu: '10m', memory: '16Mi' } },
        },
      ],
    },
  };
}

function event(name: string, n: number): unknown {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: meta(name),
    involvedObject: { kind: 'Pod', namespace: NS, name: `pod-${n % 50}` },
    reason: 'Soak',
    message: `soak event ${n}`,
    type: 'Normal',
    count: 1,
  };
}

/** Create, then update or patch a live one, and delete the oldest past KEEP: one step per tick. */
async function churn(
  c: SoakClient,
  kind: string,
  base: string,
  make: (name: string, n: number) => unknown,
  update: ((name: string, n: number) => unknown) | undefined,
  patch: (n: number) => unknown,
  n: number,
  live: string[],
  worker: number,
): Promise<void> {
  switch (n % 4) {
    case 0:
    case 2: {
      const name = `${kind}-${worker}-${n}`;
      if (await c.call(`create ${kind}`, 'POST', base, { body: make(name, n) })) live.push(name);
      break;
    }
    case 1: {
      const name = live[live.length - 1];
      if (!name) break;
      if (update) await c.call(`update ${kind}`, 'PUT', `${base}/${name}`, { body: update(name, n) });
      else await c.call(`get ${kind}`, 'GET', `${base}/${name}`);
      break;
    }
    default: {
      const name = live[Math.floor(live.length / 2)];
      if (name) await c.call(`patch ${kind}`, 'PATCH', `${base}/${name}`, { body: patch(n), patch: true });
    }
  }
  while (live.length > KEEP) {
    const old = live.shift()!;
    await c.call(`delete ${kind}`, 'DELETE', `${base}/${old}`);
  }
}

/** Pages through a list with limit=50 and the continue token. */
async function pagedList(c: SoakClient, base: string, signal: AbortSignal): Promise<void> {
  let cont = '';
  for (let page = 0; page < 10 && !signal.aborted; page++) {
    const r = await c.call(
      'list page',
      'GET',
      `${base}?limit=50${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
    );
    const next = (r?.json as { metadata?: { continue?: string } } | undefined)?.metadata?.continue;
    if (!next) return;
    cont = next;
  }
}

interface WatchEvent {
  type: string;
  object: { code?: number; metadata?: { resourceVersion?: string } };
}

/**
 * A watch held like an informer's: listed once, then watched from the list's version; each
 * connection lives 20-90 s, ended by the server (timeoutSeconds) or by the client (abort) in
 * turn, then resumed from the last version seen, relisting on 410 Gone.
 */
async function watchLoop(c: SoakClient, base: string, id: number, signal: AbortSignal): Promise<void> {
  let rv = '';
  const relist = async () => {
    const r = await c.call('watch relist', 'GET', `${base}?limit=500`);
    rv =
      (r?.json as { metadata?: { resourceVersion?: string } } | undefined)?.metadata?.resourceVersion ?? '';
  };
  await relist();
  for (let round = 0; !signal.aborted; round++) {
    const life = 20 + ((id * 37 + round * 53) % 70);
    const byServer = (id + round) % 2 === 0;
    const ac = new AbortController();
    const stop = () => ac.abort();
    signal.addEventListener('abort', stop, { once: true });
    const timer = byServer ? undefined : setTimeout(stop, life * 1000);
    let expired = false;
    c.counters.count('watch');
    try {
      const r = await request(
        `${c.url}${base}?watch=true&allowWatchBookmarks=true&resourceVersion=${rv}` +
          (byServer ? `&timeoutSeconds=${life}` : ''),
        { headers: { authorization: AUTH }, dispatcher: c.agent, signal: ac.signal },
      );
      if (r.statusCode !== 200) {
        c.counters.error(`watch ${base}: ${r.statusCode} ${(await r.body.text()).slice(0, 300)}`);
        await sleep(1000, signal);
      } else {
        c.counters.watchesOpen++;
        let buf = '';
        try {
          for await (const chunk of r.body as AsyncIterable<Buffer>) {
            buf += chunk.toString();
            let nl: number;
            while ((nl = buf.indexOf('\n')) >= 0) {
              const ev = JSON.parse(buf.slice(0, nl)) as WatchEvent;
              buf = buf.slice(nl + 1);
              c.counters.watchEvents++;
              if (ev.type === 'ERROR') expired = ev.object.code === 410;
              else if (ev.object.metadata?.resourceVersion) rv = ev.object.metadata.resourceVersion;
            }
          }
        } finally {
          c.counters.watchesOpen--;
        }
      }
    } catch (err) {
      // An abort is this loop ending the connection on purpose; anything else is an error.
      if (!ac.signal.aborted) c.counters.error(`watch ${base}: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
    }
    if (signal.aborted) return;
    c.counters.watchReconnects++;
    if (expired) await relist();
  }
}

/**
 * A namespace with a few objects in it, deleted, and waited for until the namespace controller
 * has emptied and removed it (a namespace still there after 2 minutes is an error).
 */
async function namespaceCycle(c: SoakClient, n: number, signal: AbortSignal): Promise<void> {
  const ns = `soak-cycle-${n}`;
  if (!(await c.call('create namespace', 'POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })))
    return;
  for (let i = 0; i < 4; i++)
    await c.call('create configmap', 'POST', `/api/v1/namespaces/${ns}/configmaps`, {
      body: { metadata: meta(`cm-${i}`, ns), data: { v: 'x'.repeat(200) } },
    });
  await c.call('create pod', 'POST', `/api/v1/namespaces/${ns}/pods`, { body: pod('p-0', ns, true) });
  await c.call('delete namespace', 'DELETE', `/api/v1/namespaces/${ns}`);
  const deadline = Date.now() + 120_000;
  while (!signal.aborted) {
    const r = await c.call('get namespace', 'GET', `/api/v1/namespaces/${ns}`, { ok: [200, 404] });
    if (!r || r.status === 404) return;
    if (Date.now() > deadline) {
      c.counters.error(`namespace ${ns} still there 2 minutes after its delete`);
      return;
    }
    await sleep(1000, signal);
  }
}

/** Everything the load needs before it starts: the namespace, and nodes for the scheduler. */
export async function prepare(c: SoakClient, nodes: number): Promise<void> {
  await c.call('create namespace', 'POST', '/api/v1/namespaces', { body: { metadata: { name: NS } } });
  const resources = { cpu: '64', memory: '256Gi', pods: '500' };
  for (let i = 0; i < nodes; i++) {
    const name = `soak-node-${i}`;
    await c.call('create node', 'POST', '/api/v1/nodes', {
      body: {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name, labels: { 'kubernetes.io/hostname': name } },
        status: {
          capacity: resources,
          allocatable: resources,
          conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'ready' }],
        },
      },
    });
    // TaintNodesByCondition gave the new node a not-ready taint; lift it as a kubelet would.
    await c.call('patch node', 'PATCH', `/api/v1/nodes/${name}`, {
      body: { spec: { taints: null } },
      patch: true,
    });
  }
  if (c.counters.errors > 0) throw new Error(`set-up failed: ${c.counters.errorLog.join('\n')}`);
}

/** Starts every loop; resolves when `signal` aborts and each loop has finished its request. */
export function runLoad(c: SoakClient, rate: number, signal: AbortSignal): Promise<void> {
  // About twenty loops wait on the one signal at once: not a listener leak.
  setMaxListeners(64, signal);
  const share = (f: number) => Math.max(0.2, rate * f);
  const base = `/api/v1/namespaces/${NS}`;
  // Two workers per kind, each with its own objects, so one slow request does not stall a kind.
  const loops: Promise<void>[] = [];
  for (const w of [0, 1]) {
    const half = (f: number) => share(f) / 2;
    const cms: string[] = [];
    const events: string[] = [];
    const pods: string[] = [];
    loops.push(
      paced(half(0.3), signal, (n) =>
        churn(
          c,
          'configmap',
          `${base}/configmaps`,
          (name, i) => ({ metadata: meta(name), data: { v: 'x'.repeat(500), i: String(i) } }),
          (name, i) => ({ metadata: meta(name), data: { v: 'y'.repeat(500), i: String(i) } }),
          (i) => ({ data: { patched: String(i) } }),
          n,
          cms,
          w,
        ),
      ),
      paced(half(0.3), signal, (n) =>
        churn(
          c,
          'event',
          `${base}/events`,
          (name, i) => event(name, i),
          undefined,
          (i) => ({ count: i }),
          n,
          events,
          w,
        ),
      ),
      paced(half(0.12), signal, (n) =>
        churn(
          c,
          'pod',
          `${base}/pods`,
          // Two in three pods go to the scheduler, which binds them; the rest stay pending.
          (name, i) => pod(name, NS, i % 3 !== 0),
          undefined,
          (i) => ({ metadata: { annotations: { 'soak/patched': String(i) } } }),
          n,
          pods,
          w,
        ),
      ),
    );
  }
  loops.push(
    paced(share(0.2) / 3, signal, (n) =>
      pagedList(c, `${base}/${['configmaps', 'events', 'pods'][n % 3]}`, signal),
    ),
    paced(share(0.04), signal, () => c.call('readyz', 'GET', '/readyz').then(() => undefined)),
    paced(1 / 30, signal, (n) => namespaceCycle(c, n, signal)),
  );
  const watched = [
    `${base}/configmaps`,
    `${base}/events`,
    `${base}/pods`,
    '/api/v1/pods',
    '/api/v1/namespaces',
    '/api/v1/configmaps',
  ];
  watched.forEach((path, id) => loops.push(watchLoop(c, path, id, signal)));
  return Promise.all(loops).then(() => undefined);
}
