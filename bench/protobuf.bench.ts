/**
 * JSON against protobuf (`application/vnd.kubernetes.protobuf`) on one server in the same run:
 * listing 10,000 ConfigMaps (server CPU per list, bytes, wall time) and creating ConfigMaps
 * (server CPU per create), in alternating rounds. The server's CPU time (from /proc) is the
 * figure to compare; wall time on a shared machine is indicative only.
 */
import { Agent } from 'node:https';
import { loadProtobuf } from '@keel/protobuf';
import { TestApiServer } from '@keel/testing';
import { parallel, send } from './support/https-send.js';
import { cpuSeconds } from './support/process-stats.js';

const OBJECTS = 10_000;
const ROUNDS = 4;
const CREATES = 600;
const CONCURRENCY = 10;
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const NS = 'default';

interface Figures {
  cpuMs: number;
  wallMs: number;
  bytes: number;
}

async function list(server: TestApiServer, agent: Agent, accept: string): Promise<Figures> {
  const pid = server.process.child.pid;
  const cpu = cpuSeconds(pid);
  const start = process.hrtime.bigint();
  const r = await send(server, agent, 'GET', `/api/v1/namespaces/${NS}/configmaps`, { accept });
  if (r.status !== 200) throw new Error(`list: ${r.status}`);
  return {
    cpuMs: (cpuSeconds(pid) - cpu) * 1000,
    wallMs: Number(process.hrtime.bigint() - start) / 1e6,
    bytes: r.bytes,
  };
}

async function creates(server: TestApiServer, agent: Agent, round: number, proto: boolean): Promise<number> {
  const pb = await loadProtobuf();
  const pid = server.process.child.pid;
  const cpu = cpuSeconds(pid);
  await parallel(CREATES, CONCURRENCY, async (i) => {
    const obj = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `c-${proto ? 'pb' : 'js'}-${round}-${i}`, labels: { bench: 'create' } },
      data: { key: 'value', other: 'x'.repeat(200) },
    };
    const body = proto ? pb.encode(obj) : Buffer.from(JSON.stringify(obj));
    const type = proto ? PROTOBUF : 'application/json';
    const r = await send(
      server,
      agent,
      'POST',
      `/api/v1/namespaces/bench-create/configmaps`,
      { 'content-type': type, accept: type },
      body,
    );
    if (r.status !== 201) throw new Error(`create: ${r.status}`);
  });
  return ((cpuSeconds(pid) - cpu) * 1e6) / CREATES;
}

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export async function run(): Promise<void> {
  const server = await TestApiServer.start();
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY, ca: server.ca });
  try {
    await server.ready();
    await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'bench-create' } } });
    await parallel(OBJECTS, CONCURRENCY, async (i) => {
      const body = Buffer.from(
        JSON.stringify({
          metadata: { name: `cm-${i}`, labels: { app: 'bench', n: String(i % 10) } },
          data: { k: 'v'.repeat(100) },
        }),
      );
      const r = await send(
        server,
        agent,
        'POST',
        `/api/v1/namespaces/${NS}/configmaps`,
        { 'content-type': 'application/json' },
        body,
      );
      if (r.status !== 201) throw new Error(`seed: ${r.status}`);
    });
    // Warm-up: the encoded-item cache, the codec's first load, the JIT.
    await list(server, agent, 'application/json');
    await list(server, agent, PROTOBUF);
    const json: Figures[] = [];
    const proto: Figures[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      json.push(await list(server, agent, 'application/json'));
      proto.push(await list(server, agent, PROTOBUF));
    }
    const row = (name: string, f: Figures[]) =>
      `${name}: server CPU ${med(f.map((x) => x.cpuMs)).toFixed(0)} ms, wall ${med(f.map((x) => x.wallMs)).toFixed(0)} ms, ` +
      `${(med(f.map((x) => x.bytes)) / 1e6).toFixed(2)} MB`;
    console.log(`list of ${OBJECTS} ConfigMaps (median of ${ROUNDS} alternating rounds)`);
    console.log(`  ${row('JSON    ', json)}`);
    console.log(`  ${row('protobuf', proto)}`);
    await creates(server, agent, -1, false);
    await creates(server, agent, -1, true);
    const jc: number[] = [];
    const pc: number[] = [];
    // Each round swaps which encoding goes first: the store grows as the rounds go on.
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2 === 0) jc.push(await creates(server, agent, i, false));
      pc.push(await creates(server, agent, i, true));
      if (i % 2 === 1) jc.push(await creates(server, agent, i, false));
    }
    console.log(`create (${CREATES} per round, ${CONCURRENCY} in flight): server CPU per create`);
    console.log(
      `  JSON     ${med(jc).toFixed(0)} µs\n  protobuf ${med(pc).toFixed(0)} µs (ratio ${(med(pc) / med(jc)).toFixed(2)})`,
    );
  } finally {
    agent.destroy();
    await server.stop();
  }
}
