/**
 * `pnpm bench apiserver`: the API server on loopback over HTTPS with a bearer token, against two
 * baselines measured in the same run (a bare Node HTTPS server and an Express HTTPS server
 * answering with a fixed body): event creates at concurrency 1/16/64 on the memory store and on
 * Redis, a list of 10,000 events, a page (limit 500) at 10,000 and at 100,000 events, and the
 * delay from a create to its arrival at 100 watchers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Agent, request } from 'undici';
import { ADMIN_TOKEN, freePort, startRedisServer, TestApiServer } from '@keel/testing';

const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 5);
const EVENT = JSON.stringify({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { generateName: 'bench-', namespace: 'default' },
  eventTime: '2026-11-21T00:00:00.000000Z',
  action: 'Bench',
  reason: 'Bench',
  note: 'a benchmark event',
  type: 'Normal',
  reportingController: 'keel.dev/bench',
  reportingInstance: 'bench-1',
  regarding: { kind: 'Pod', namespace: 'default', name: 'p1' },
});
const EVENTS_PATH = '/apis/events.k8s.io/v1/namespaces/default/events';

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(url: string, ca: string, connections: number): Promise<Load> {
  const r = await autocannon({
    url,
    method: 'POST',
    connections,
    duration: DURATION_S,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: EVENT,
    tlsOptions: { ca },
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.non2xx + r.errors + r.timeouts,
  };
}

async function startBaseline(
  kind: 'bare' | 'express' | 'express-redis',
  certDir: string,
  redisUrl = '',
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'baseline-server.ts'),
      kind,
      String(port),
      join(certDir, 'apiserver.crt'),
      join(certDir, 'apiserver.key'),
      redisUrl,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
  return { url: `https://127.0.0.1:${port}`, child };
}

const fmt = (n: number, d = 0) => n.toFixed(d);

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = process.hrtime.bigint();
  const v = await fn();
  return [v, Number(process.hrtime.bigint() - t) / 1e6];
}

async function fill(server: TestApiServer, target: number, agent: Agent): Promise<void> {
  let created = 0;
  const worker = async () => {
    while (created < target) {
      created++;
      const r = await request(server.url + EVENTS_PATH, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: EVENT,
        dispatcher: agent,
      });
      await r.body.dump();
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}

async function getJson(
  server: TestApiServer,
  path: string,
  agent: Agent,
): Promise<{ metadata?: { continue?: string }; items?: unknown[] }> {
  const r = await request(server.url + path, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    dispatcher: agent,
  });
  return (await r.body.json()) as { metadata?: { continue?: string }; items?: unknown[] };
}

async function listFigures(server: TestApiServer, label: string): Promise<void> {
  const agent = new Agent({ connect: { ca: server.ca }, connections: 64 });
  await fill(server, 10_000, agent);
  const full: number[] = [];
  // Request to last byte received: parsing the 9 MB body is the client's cost, not the server's.
  const fetchAll = async () => {
    const r = await request(server.url + EVENTS_PATH, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      dispatcher: agent,
    });
    return (await r.body.arrayBuffer()).byteLength;
  };
  for (let i = 0; i < 5; i++) full.push((await timed(fetchAll))[1]);
  const page = async () => {
    const first = await getJson(server, `${EVENTS_PATH}?limit=500`, agent);
    const token = encodeURIComponent(first.metadata?.continue ?? '');
    const samples: number[] = [];
    for (let i = 0; i < 10; i++)
      samples.push(
        (await timed(() => getJson(server, `${EVENTS_PATH}?limit=500&continue=${token}`, agent)))[1],
      );
    return samples.sort((a, b) => a - b)[5] ?? NaN;
  };
  const page10k = await page();
  await fill(server, 90_000, agent);
  const page100k = await page();
  full.sort((a, b) => a - b);
  console.log(
    `${label}: list of 10,000 events, request to last byte, median of 5: ${fmt(full[2] ?? NaN)} ms (target < 150 ms)`,
  );
  console.log(
    `${label}: page of 500 (second page) at 10,000 events ${fmt(page10k, 1)} ms, at 100,000 events ${fmt(page100k, 1)} ms, ratio ${fmt(page100k / page10k, 2)} (target ~1)`,
  );
  await agent.close();
}

async function watchFigures(server: TestApiServer, label: string): Promise<void> {
  const agent = new Agent({ connect: { ca: server.ca }, connections: 200 });
  const delays: number[] = [];
  const sentAt = new Map<string, bigint>();
  const ac = new AbortController();
  // One signal ends all 100 watch requests.
  setMaxListeners(200, ac.signal);
  const watchers = await Promise.all(
    Array.from({ length: 100 }, async () => {
      const r = await request(
        server.url + `${EVENTS_PATH}?watch=true&resourceVersion=${await currentRv(server, agent)}`,
        { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, dispatcher: agent, signal: ac.signal },
      );
      return r;
    }),
  );
  const reading = watchers.map(async (r) => {
    let buf = '';
    try {
      for await (const chunk of r.body as AsyncIterable<Buffer>) {
        buf += chunk.toString();
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          const ev = JSON.parse(line) as { object?: { note?: string } };
          const sent = ev.object?.note ? sentAt.get(ev.object.note) : undefined;
          if (sent) delays.push(Number(process.hrtime.bigint() - sent) / 1e6);
        }
      }
    } catch {
      /* aborted */
    }
  });
  for (let i = 0; i < 200; i++) {
    const note = `watch-${i}`;
    sentAt.set(note, process.hrtime.bigint());
    const r = await request(server.url + EVENTS_PATH, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: EVENT.replace('a benchmark event', note),
      dispatcher: agent,
    });
    await r.body.dump();
    await new Promise((res) => setTimeout(res, 5));
  }
  await new Promise((res) => setTimeout(res, 500));
  ac.abort();
  await Promise.allSettled(reading);
  delays.sort((a, b) => a - b);
  const p = (q: number) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))] ?? NaN;
  console.log(
    `${label}: create-to-watcher delay at 100 watchers over ${delays.length} deliveries: p50 ${fmt(p(0.5), 1)} ms, p99 ${fmt(p(0.99), 1)} ms (target p99 < 50 ms)`,
  );
  await agent.close();
}

async function currentRv(server: TestApiServer, agent: Agent): Promise<string> {
  const r = await request(server.url + `${EVENTS_PATH}?limit=1`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    dispatcher: agent,
  });
  return ((await r.body.json()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
}

export async function run(): Promise<void> {
  const redis = await startRedisServer();
  const memory = await TestApiServer.start();
  await memory.ready();
  const certDir = join(memory.certDir, 'certs');
  const bare = await startBaseline('bare', certDir);
  const express = await startBaseline('express', certDir);
  const expressRedis = await startBaseline('express-redis', certDir, redis.url);
  const rows: [string, Load][] = [];
  try {
    for (const c of [1, 16, 64]) {
      rows.push([`bare node https c=${c}`, await load(bare.url + EVENTS_PATH, memory.ca, c)]);
      rows.push([`express https c=${c}`, await load(express.url + EVENTS_PATH, memory.ca, c)]);
      rows.push([`keel memory create c=${c}`, await load(memory.url + EVENTS_PATH, memory.ca, c)]);
    }
    await memory.stop();
    const onRedis = await TestApiServer.start({ redisUrl: redis.url });
    await onRedis.ready();
    for (const c of [1, 16, 64]) {
      rows.push([`express+redis c=${c}`, await load(expressRedis.url + EVENTS_PATH, memory.ca, c)]);
      rows.push([`keel redis create c=${c}`, await load(onRedis.url + EVENTS_PATH, onRedis.ca, c)]);
    }
    const base = (name: string, c: number) => rows.find(([n]) => n === `${name} c=${c}`)?.[1].rps ?? NaN;
    console.log(`creates, ${DURATION_S}s per run, HTTPS + bearer token:`);
    for (const [name, r] of rows) {
      const c = Number(/c=(\d+)/.exec(name)?.[1]);
      console.log(
        `  ${name.padEnd(26)} ${fmt(r.rps).padStart(6)} req/s  p50 ${fmt(r.p50).padStart(3)} ms  p99 ${fmt(r.p99).padStart(3)} ms  ` +
          `= ${fmt(r.rps / base('bare node https', c), 2)}x bare, ${fmt(r.rps / base('express https', c), 2)}x express` +
          (name.startsWith('keel redis')
            ? `, ${fmt(r.rps / base('express+redis', c), 2)}x express+redis`
            : '') +
          (r.errors ? `  (${r.errors} errors)` : ''),
      );
    }
    console.log('  targets: keel redis c=64 >= 0.6x express, p99 < 30 ms');
    console.log(
      '  express+redis: Express parsing the body and creating it with one Lua write, nothing else (a floor for any Redis-backed create)',
    );
    await onRedis.stop();
    // Each figure on a fresh server, so one measurement's leftovers (a watch fan-out backlog,
    // garbage) do not land in the next.
    for (const [label, redisUrl] of [
      ['memory', undefined],
      ['redis', redis.url],
    ] as const) {
      for (const figure of [listFigures, watchFigures]) {
        const s = await TestApiServer.start(redisUrl ? { redisUrl } : {});
        await s.ready();
        await figure(s, label);
        await s.stop();
      }
    }
  } finally {
    bare.child.kill();
    express.child.kill();
    expressRedis.child.kill();
    await redis.stop();
  }
}
