/**
 * Watch figures for watch-cache.bench.ts: the same watches through a server whose ConfigMaps
 * are cached and one whose are not (both on one Redis), alternating rounds in one run.
 * - start: WATCHERS watches at `resourceVersion=0` of a namespace of STATE objects, opened at
 *   once; the time until the last has its whole initial state (the cache answers from memory,
 *   the store pages Redis once per watch).
 * - fan-out: WATCHERS open watches, then one create; per watcher the time from the create's
 *   request to its ADDED event; p50 and p99 over every watcher and create of the rounds.
 */
import { Agent, request } from 'undici';
import { ADMIN_TOKEN, type TestApiServer } from '@keel/testing';

const WATCHERS = 200;
const STATE = 50;
const ROUNDS = 3;
const CREATES_PER_ROUND = 5;
const NS = 'bench-watch';
const PATH = `/api/v1/namespaces/${NS}/configmaps`;

const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

async function post(server: TestApiServer, agent: Agent, path: string, body: unknown): Promise<void> {
  const r = await request(server.url + path, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    dispatcher: agent,
  });
  await r.body.dump();
  if (r.statusCode !== 201) throw new Error(`POST ${path}: ${r.statusCode}`);
}

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: {} });

interface Watch {
  /** Resolves with the time (ms, hrtime) the `count`th event arrived. */
  waitFor(count: number): Promise<number>;
  /** Resolves with the arrival time of the ADDED event for `name`. */
  added(name: string): Promise<number>;
  close(): void;
}

async function openWatch(server: TestApiServer, agent: Agent, query: string): Promise<Watch> {
  const controller = new AbortController();
  const r = await request(`${server.url}${PATH}?watch=true&timeoutSeconds=600&${query}`, {
    headers: auth,
    dispatcher: agent,
    signal: controller.signal,
  });
  if (r.statusCode !== 200) throw new Error(`watch: ${r.statusCode}`);
  let count = 0;
  let buffer = '';
  const counts: { n: number; resolve: (t: number) => void }[] = [];
  const names = new Map<string, (t: number) => void>();
  r.body.setEncoding('utf8');
  r.body.on('data', (chunk: string) => {
    const now = performance.now();
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const ev = JSON.parse(line) as { type: string; object: { metadata?: { name?: string } } };
      count++;
      for (const c of counts.filter((c) => c.n <= count)) {
        counts.splice(counts.indexOf(c), 1);
        c.resolve(now);
      }
      const name = ev.object.metadata?.name;
      if (ev.type === 'ADDED' && name) names.get(name)?.(now);
    }
  });
  r.body.on('error', () => undefined);
  return {
    waitFor: (n) =>
      new Promise((resolve) => (count >= n ? resolve(performance.now()) : counts.push({ n, resolve }))),
    added: (name) => new Promise((resolve) => names.set(name, resolve)),
    close: () => controller.abort(),
  };
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;

async function startTime(server: TestApiServer, agent: Agent): Promise<number> {
  const start = performance.now();
  const watches = await Promise.all(
    Array.from({ length: WATCHERS }, () => openWatch(server, agent, 'resourceVersion=0')),
  );
  const done = await Promise.all(watches.map((w) => w.waitFor(STATE)));
  for (const w of watches) w.close();
  return Math.max(...done) - start;
}

let serial = 0;
async function fanOut(server: TestApiServer, agent: Agent, writer: Agent, into: number[]): Promise<void> {
  const list = await request(server.url + PATH, { headers: auth, dispatcher: writer });
  const rv = ((await list.body.json()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const watches = await Promise.all(
    Array.from({ length: WATCHERS }, () => openWatch(server, agent, `resourceVersion=${rv}`)),
  );
  for (let i = 0; i < CREATES_PER_ROUND; i++) {
    const name = `fan-${serial++}`;
    const seen = watches.map((w) => w.added(name));
    const start = performance.now();
    await post(server, writer, PATH, configMap(name));
    for (const t of await Promise.all(seen)) into.push(t - start);
  }
  for (const w of watches) w.close();
}

export async function watchFigures(cached: TestApiServer, uncached: TestApiServer): Promise<void> {
  const agentOf = (s: TestApiServer) => new Agent({ connect: { ca: s.ca }, connections: WATCHERS + 8 });
  const agents = [agentOf(cached), agentOf(uncached)] as const;
  const writers = [
    new Agent({ connect: { ca: cached.ca } }),
    new Agent({ connect: { ca: uncached.ca } }),
  ] as const;
  const writer = writers[0];
  try {
    await post(cached, writer, '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: NS },
    });
    for (let i = 0; i < STATE; i++) await post(cached, writer, PATH, configMap(`state-${i}`));
    await startTime(cached, agents[0]); // warm-up
    await startTime(uncached, agents[1]);
    const start: [number[], number[]] = [[], []];
    const fan: [number[], number[]] = [[], []];
    for (let round = 0; round < ROUNDS; round++) {
      start[0].push(await startTime(cached, agents[0]));
      start[1].push(await startTime(uncached, agents[1]));
      await fanOut(cached, agents[0], writers[0], fan[0]);
      await fanOut(uncached, agents[1], writers[1], fan[1]);
    }
    const med = (xs: number[]) => pct(xs, 0.5);
    console.log(
      `${WATCHERS} watches at resourceVersion=0 of ${STATE} objects, until the last has its initial state: ` +
        `watch cache ${med(start[0]).toFixed(0)} ms, Redis ${med(start[1]).toFixed(0)} ms, ` +
        `watch cache ${(med(start[1]) / med(start[0])).toFixed(2)}x faster (median of ${ROUNDS} alternating rounds)`,
    );
    console.log(
      `one create seen by ${WATCHERS} open watches: watch cache p50 ${pct(fan[0], 0.5).toFixed(1)} ms p99 ` +
        `${pct(fan[0], 0.99).toFixed(1)} ms, Redis p50 ${pct(fan[1], 0.5).toFixed(1)} ms p99 ` +
        `${pct(fan[1], 0.99).toFixed(1)} ms (${fan[0].length} deliveries each, ${ROUNDS} alternating rounds)`,
    );
  } finally {
    await Promise.all([...agents, ...writers].map((a) => a.close()));
  }
}
