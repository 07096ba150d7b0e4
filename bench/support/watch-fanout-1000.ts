/**
 * Watch fan-out for issue 14: WATCHERS watches of Events (each its own HTTPS connection, as
 * client-go informers; every PROTOBUF_EVERY-th asks for protobuf, the rest JSON), spread over
 * CLIENTS forked processes (watch-client.ts) so the load generator's TLS and reading are not one
 * event loop's; then creates, one at a time GAP_MS apart, each marked in its note; per watcher
 * and create the delay from the create's request to that watcher receiving the Event.
 *
 * Several servers (a baseline build and this one) can be measured in one run: every server's
 * watches stay open throughout, and the creates go to the servers in alternating turns, so load
 * elsewhere on the machine falls on all of them alike.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { ADMIN_TOKEN, type TestApiServer } from '@keel/testing';
import { EVENT, EVENTS_PATH } from './bench-event.js';
import { cpuSeconds } from './process-stats.js';
import type { ChildMessage, ParentMessage } from './watch-client.js';

export const WATCHERS = Number(process.env['BENCH_WATCHERS'] ?? 1000);
const CLIENTS = Number(process.env['BENCH_WATCH_CLIENTS'] ?? 4);
const CREATES = Number(process.env['BENCH_WATCH_CREATES'] ?? 100);
const TURN = 20;
const GAP_MS = Number(process.env['BENCH_WATCH_GAP_MS'] ?? 20);
const PROTOBUF_EVERY = 4;

export interface FanOutResult {
  readonly label: string;
  readonly watchers: number;
  readonly p50: number;
  readonly p99: number;
  readonly deliveries: number;
  /** Deliveries expected (watchers x creates) that never came. */
  readonly missing: number;
  /** The server's CPU time per create, all its deliveries included, in ms. */
  readonly cpuMsPerCreate: number;
}

class Client {
  private readonly waiting: ((m: ChildMessage) => void)[] = [];
  constructor(private readonly child: ChildProcess) {
    child.on('message', (m: ChildMessage) => this.waiting.shift()?.(m));
  }

  static start(): Client {
    const child = fork(join(import.meta.dirname, 'watch-client.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Client(child);
  }

  ask(m: ParentMessage): Promise<ChildMessage> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.child.send(m);
    });
  }

  close(): void {
    this.child.send({ cmd: 'close' } satisfies ParentMessage);
    setTimeout(() => this.child.kill(), 3_000).unref();
  }
}

interface Target {
  readonly label: string;
  readonly server: TestApiServer;
  readonly clients: Client[];
  readonly writer: Agent;
  opened: number;
  readonly sent: Map<number, bigint>;
  readonly delays: number[];
  cpuS: number;
}

async function currentRv(t: Target): Promise<string> {
  const r = await request(`${t.server.url}${EVENTS_PATH}?limit=1`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    dispatcher: t.writer,
  });
  return ((await r.body.json()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
}

async function openWatches(label: string, server: TestApiServer): Promise<Target> {
  const writer = new Agent({ connect: { ca: server.ca } });
  const t: Target = {
    label,
    server,
    clients: [],
    writer,
    opened: 0,
    sent: new Map(),
    delays: [],
    cpuS: 0,
  };
  const rv = await currentRv(t);
  const per = Math.ceil(WATCHERS / CLIENTS);
  for (let i = 0; i < CLIENTS; i++) t.clients.push(Client.start());
  const replies = await Promise.all(
    t.clients.map((c, i) =>
      c.ask({
        cmd: 'open',
        url: server.url,
        ca: server.ca,
        token: ADMIN_TOKEN,
        path: EVENTS_PATH,
        resourceVersion: rv,
        watches: Math.max(0, Math.min(per, WATCHERS - i * per)),
        protobufEvery: PROTOBUF_EVERY,
      }),
    ),
  );
  for (const r of replies) {
    if (r.kind === 'error') throw new Error(`${label}: a watch client failed: ${r.message}`);
    if (r.kind === 'ready') t.opened += r.opened;
  }
  if (t.opened < WATCHERS) throw new Error(`${label}: only ${t.opened} of ${WATCHERS} watches opened`);
  return t;
}

let serial = 0;

async function createTurn(t: Target): Promise<void> {
  const pid = t.server.process.child.pid;
  const cpu = cpuSeconds(pid);
  for (let i = 0; i < TURN; i++) {
    const mark = serial++;
    t.sent.set(mark, process.hrtime.bigint());
    const r = await request(t.server.url + EVENTS_PATH, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: EVENT.replace('a benchmark event', `fanout-${mark}.`),
      dispatcher: t.writer,
    });
    await r.body.dump();
    if (r.statusCode !== 201) throw new Error(`${t.label}: create: HTTP ${r.statusCode}`);
    await new Promise((res) => setTimeout(res, GAP_MS));
  }
  // Let the turn's last deliveries land before the CPU is read and the other server's turn starts.
  await new Promise((res) => setTimeout(res, 300));
  t.cpuS += cpuSeconds(pid) - cpu;
}

async function collect(t: Target): Promise<void> {
  for (const c of t.clients) {
    const m = await c.ask({ cmd: 'collect' });
    if (m.kind !== 'arrivals') continue;
    for (const [mark, at] of m.arrivals) {
      const sent = t.sent.get(mark);
      if (sent !== undefined) t.delays.push(Number(BigInt(at) - sent) / 1e6);
    }
  }
}

const pct = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/**
 * Opens WATCHERS watches on each server, sends CREATES creates to each in alternating turns and
 * returns each server's create-to-watcher delays.
 */
export async function watchFanOut(
  servers: readonly { readonly label: string; readonly server: TestApiServer }[],
): Promise<FanOutResult[]> {
  const targets: Target[] = [];
  try {
    for (const s of servers) targets.push(await openWatches(s.label, s.server));
    // A warm-up turn each, not counted: the first events compile the delivery path.
    for (const t of targets) await createTurn(t);
    for (const t of targets) {
      await collect(t);
      t.delays.length = 0;
      t.sent.clear();
      t.cpuS = 0;
    }
    for (let done = 0; done < CREATES; done += TURN) for (const t of targets) await createTurn(t);
    await new Promise((res) => setTimeout(res, 1_000));
    for (const t of targets) await collect(t);
  } finally {
    for (const t of targets) {
      for (const c of t.clients) c.close();
      await t.writer.close();
    }
  }
  return targets.map((t) => {
    const sorted = [...t.delays].sort((a, b) => a - b);
    return {
      label: t.label,
      watchers: t.opened,
      p50: pct(sorted, 0.5),
      p99: pct(sorted, 0.99),
      deliveries: sorted.length,
      missing: t.opened * t.sent.size - sorted.length,
      cpuMsPerCreate: (t.cpuS / Math.max(1, t.sent.size)) * 1e3,
    };
  });
}

export const fanOutMethod = `${WATCHERS} watches of Events over ${CLIENTS} client processes (1 in ${PROTOBUF_EVERY} protobuf), creates ${GAP_MS} ms apart in turns of ${TURN}, ${CREATES} per server`;
