import { loadProtobuf, PROTOBUF } from '@keel/protobuf';
import { TestApiServer } from '@keel/testing';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  FUZZ_NAMESPACE,
  fuzzPath,
  fuzzRequest,
  hugeBodies,
  RESOURCES,
  TARGET,
  type FuzzRequest,
} from './fuzz-requests.js';

// 10,000+ malformed requests (fast-check generators, a fixed seed so a failure reproduces; set
// KEEL_FUZZ_SEED to explore others; KEEL_FUZZ_DEBUG=1 prints progress and slow requests) against
// one API server. Every answer must
// be a client error or a success, never a 5xx; every error a Status with a reason; no request
// may hang; the server must be alive and ready afterwards and still serve a normal create.

const SEED = Number(process.env['KEEL_FUZZ_SEED'] ?? 1313);
const RESOURCE_CALLS = 9_000;
const ODD_PATHS = 1_200;
const CONCURRENCY = 12;
/** Longer than any honest answer, shorter than the test: a request past it counts as a hang. */
const HANG_MS = 30_000;

interface Failure {
  readonly req: string;
  readonly problem: string;
}

let server: TestApiServer;
let agent: Agent;

beforeAll(async () => {
  // The embedded store: Redis costs each of the 10,000 requests a round trip and no malformed
  // input reaches the store (validation refuses it first); redis-kill and multi-server cover Redis.
  server = await TestApiServer.start({ namespaceLifecycle: true });
  await server.ready(30_000);
  agent = new Agent({
    connect: { ca: server.ca },
    connections: CONCURRENCY,
    pipelining: 1,
    headersTimeout: HANG_MS,
    bodyTimeout: HANG_MS,
  });
  await seedTargets();
});

afterAll(async () => {
  await agent?.close();
  await server?.stop();
});

async function seedTargets(): Promise<void> {
  const ns = RESOURCES.find((r) => r.kind === 'Namespace')!;
  for (const name of [FUZZ_NAMESPACE, TARGET]) {
    const r = await server.request('POST', ns.collection(''), { body: ns.valid(name) });
    expect(r.status, r.text).toBe(201);
  }
  for (const res of RESOURCES) {
    if (res.kind === 'Namespace') continue;
    const r = await server.request('POST', res.collection(FUZZ_NAMESPACE), { body: res.valid(TARGET) });
    // Both Event APIs store the same objects: the second create finds the first's.
    expect([201, 409], r.text).toContain(r.status);
  }
}

/** Any `watch` value but false or 0 asks for a watch, as Go's bool conversion reads it. */
function isWatch(path: string): boolean {
  if (path.includes('/watch/')) return true;
  let first: string | undefined;
  try {
    first = new URL(path, 'https://x').searchParams.getAll('watch')[0];
  } catch {
    return false;
  }
  return first !== undefined && !['false', '0'].includes(first.toLowerCase());
}

/** Sends one request and returns what is wrong with its answer, if anything. */
async function check(req: FuzzRequest): Promise<string | undefined> {
  const watch = isWatch(req.path);
  let res;
  try {
    res = await request(server.url + req.path, {
      method: req.method as 'GET',
      headers: { authorization: 'Bearer admin-token', ...req.headers },
      body: req.body,
      dispatcher: agent,
    });
  } catch (err) {
    const e = err as Error & { code?: string };
    // The client refusing to send (a header or path it will not put on the wire) is no answer.
    if (e.code === 'UND_ERR_INVALID_ARG') return undefined;
    return `no answer: ${e.code ?? ''} ${e.message}`;
  }
  const status = res.statusCode;
  if (watch && status === 200) {
    // A watch that was accepted streams until its timeout: the headers are the answer.
    res.body.on('error', () => undefined);
    res.body.destroy();
    return undefined;
  }
  let bytes: Buffer;
  try {
    bytes = Buffer.from(await res.body.arrayBuffer());
  } catch (err) {
    return `${status}, then the body broke off: ${(err as Error).message}`;
  }
  // A client that accepts protobuf gets its error Status in protobuf, as from upstream.
  const protobuf = String(res.headers['content-type'] ?? '').startsWith(PROTOBUF);
  let text = bytes.toString('utf8');
  if (protobuf && status >= 400) {
    try {
      text = JSON.stringify((await loadProtobuf()).decode(bytes));
    } catch (err) {
      return `${status} with an undecodable protobuf body: ${(err as Error).message}`;
    }
  }
  if (status >= 500) return `${status}: ${text.slice(0, 300)}`;
  if (status < 400 || req.method === 'HEAD') return undefined;
  // Outside /api and /apis the real server answers Go's http.NotFound, plain text, as Keel does.
  // (The path as sent: the client resolves `.` and `..` segments.)
  const sent = new URL(server.url + req.path).pathname;
  if (status === 404 && text === '404 page not found\n' && !/^\/apis?(\/|$)/.test(sent)) return undefined;
  let body: { kind?: unknown; status?: unknown; reason?: unknown; code?: unknown; message?: unknown };
  try {
    // A client that accepts YAML gets its error Status in YAML, as from upstream.
    const yaml = String(res.headers['content-type'] ?? '') === 'application/yaml';
    body = (yaml ? parseYaml(text) : JSON.parse(text)) as typeof body;
  } catch {
    return `${status} without a Status: ${text.slice(0, 300)}`;
  }
  if (body.kind !== 'Status' || body.status !== 'Failure' || body.code !== status)
    return `${status}, not a Failure Status of that code: ${text.slice(0, 300)}`;
  if (typeof body.reason !== 'string' || body.reason === '')
    return `${status} Status without a reason: ${text.slice(0, 300)}`;
  if (typeof body.message !== 'string' || /\n\s+at /.test(body.message))
    return `${status} Status with a stack or no message: ${text.slice(0, 300)}`;
  return undefined;
}

/** Runs the requests CONCURRENCY at a time, collecting failures. */
async function run(reqs: readonly FuzzRequest[]): Promise<Failure[]> {
  const failures: Failure[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < reqs.length) {
      const req = reqs[next++]!;
      const t0 = Date.now();
      const problem = await check(req);
      if (process.env['KEEL_FUZZ_DEBUG'] && Date.now() - t0 > 1000)
        console.log(`slow ${Date.now() - t0} ms: ${req.method} ${req.path.slice(0, 200)} [${req.what}]`);
      if (process.env['KEEL_FUZZ_DEBUG'] && next % 500 === 0) console.log(`${next} sent`);
      if (problem !== undefined)
        failures.push({ req: `${req.method} ${req.path.slice(0, 200)} [${req.what}]`, problem });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return failures;
}

function report(failures: readonly Failure[]): string {
  return failures
    .slice(0, 25)
    .map((f) => `${f.req}\n    -> ${f.problem}`)
    .join('\n');
}

describe(`fuzz: malformed requests (seed ${SEED})`, () => {
  it(
    '10,000+ malformed requests: 0 answered 5xx, 0 without a Status reason, 0 hung',
    { timeout: 400_000 },
    async () => {
      const reqs = [
        ...fc.sample(fuzzRequest, { numRuns: RESOURCE_CALLS, seed: SEED }),
        ...fc.sample(fuzzPath, { numRuns: ODD_PATHS, seed: SEED + 1 }),
        ...hugeBodies(),
      ];
      expect(reqs.length).toBeGreaterThanOrEqual(10_000);
      const failures = await run(reqs);
      expect(failures.length, report(failures)).toBe(0);
    },
  );

  it('the server is alive and healthy after it: 0 crashes', async () => {
    expect(server.process.child.exitCode).toBeNull();
    expect(server.process.child.signalCode).toBeNull();
    expect((await server.request('GET', '/readyz')).status).toBe(200);
    // A fresh namespace: the run may have deleted the one it wrote into.
    const ns = RESOURCES.find((r) => r.kind === 'Namespace')!;
    const cm = RESOURCES[0]!;
    expect((await server.request('POST', ns.collection(''), { body: ns.valid('after-fuzz') })).status).toBe(
      201,
    );
    const r = await server.request('POST', cm.collection('after-fuzz'), { body: cm.valid('after') });
    expect(r.status, r.text).toBe(201);
    expect((await server.request('GET', `${cm.collection('after-fuzz')}/after`)).status).toBe(200);
  });
});
