import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  holdRequest,
  startRedisServer,
  TestApiServer,
  WriteLoad,
  type ProcessResult,
  type RedisServer,
  type WriteRecord,
} from '@keel/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// Issue 13: SIGTERM while 32 clients create objects over keep-alive connections. Every write must
// end one of two ways: answered (and then it happened exactly when the answer was 201), or refused
// before it ran (429, a refused or closed connection) — never run and then left without an answer,
// which makes a client retry a write that succeeded. During --shutdown-delay-duration nothing may
// be refused at all.

const COLLECTION = '/api/v1/namespaces/default/configmaps';
const configMap = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { written: 'by the load' },
});
const DELAY_S = 2;
const REQUEST_TIMEOUT_S = 20;
/** The exit budget: the delay, then a drain bounded by --request-timeout, plus room for a loaded machine. */
const EXIT_BUDGET_MS = (DELAY_S + REQUEST_TIMEOUT_S + 0) * 1000;
const LINGERED = /resources still open/;

let redis: RedisServer;
let running: TestApiServer[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.close();
});
afterEach(async () => {
  await Promise.all(running.map((s) => s.stop('SIGKILL')));
  running = [];
});

interface Started {
  readonly server: TestApiServer;
  readonly auditLog: string;
  readonly prefix: string;
}

async function start(store: 'memory' | 'redis', args: readonly string[], prefix?: string): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'keel-sigterm-'));
  const policy = join(dir, 'policy.yaml');
  // Creates of ConfigMaps only: the log then holds exactly the writes the server ran, by Audit-ID.
  writeFileSync(
    policy,
    [
      'apiVersion: audit.k8s.io/v1',
      'kind: Policy',
      'omitStages: [RequestReceived]',
      'rules:',
      '- level: Metadata',
      '  verbs: [create]',
      '  resources: [{ group: "", resources: [configmaps] }]',
      '- level: None',
      '',
    ].join('\n'),
  );
  const auditLog = join(dir, 'audit.log');
  const storePrefix = prefix ?? `/keel-sigterm-${Date.now()}-${Math.random().toString(16).slice(2)}`;
  const server = await TestApiServer.start({
    args: [
      `--audit-policy-file=${policy}`,
      `--audit-log-path=${auditLog}`,
      `--request-timeout=${REQUEST_TIMEOUT_S}s`,
      ...(store === 'redis' ? [`--store-prefix=${storePrefix}`] : []),
      ...args,
    ],
    ...(store === 'redis' ? { redisUrl: redis.url } : {}),
  });
  running.push(server);
  await server.ready(30_000);
  return { server, auditLog, prefix: storePrefix };
}

/** Names whose create the server ran to a 201, from the audit log's ResponseComplete events. */
function auditedCreates(path: string): Set<string> {
  const names = new Set<string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line === '') continue;
    const ev = JSON.parse(line) as { stage: string; auditID: string; responseStatus?: { code?: number } };
    if (ev.stage === 'ResponseComplete' && ev.responseStatus?.code === 201) names.add(ev.auditID);
  }
  return names;
}

/** Names in the store, read by a fresh server on the same Redis and prefix. */
async function storedNames(prefix: string): Promise<Set<string>> {
  const { server } = await start('redis', [], prefix);
  const list = await server.request('GET', COLLECTION);
  expect(list.status).toBe(200);
  const items = (list.json as { items: { metadata: { name: string } }[] }).items;
  return new Set(items.map((i) => i.metadata.name));
}

async function exitWithin(server: TestApiServer, ms: number): Promise<ProcessResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running ${ms} ms after SIGTERM`)), ms);
  });
  try {
    return await Promise.race([server.process.wait(), late]);
  } finally {
    clearTimeout(timer);
  }
}

const answered201 = (r: WriteRecord) => r.outcome.kind === 'status' && r.outcome.status === 201;

/** Asserts that what ran is exactly what was answered 201: no write ran without its client learning it. */
function expectRanIffAnswered(load: WriteLoad, ran: Set<string>, where: string): void {
  const ranUnanswered = load.records.filter((r) => !answered201(r) && ran.has(r.name));
  const answeredNotRun = load.records.filter((r) => answered201(r) && !ran.has(r.name));
  expect({
    where,
    ranUnanswered: ranUnanswered.map((r) => [r.name, r.outcome]),
    answeredNotRun: answeredNotRun.length,
  }).toEqual({
    where,
    ranUnanswered: [],
    answeredNotRun: 0,
  });
}

describe.each(['memory', 'redis'] as const)('SIGTERM under c=32 create load (%s store)', (store) => {
  // Without a delay the drain begins while responses are on their way back over connections that
  // did not hear `Connection: close`: the case where writes ran and their connections were then cut.
  it.each([0, DELAY_S])(
    '--shutdown-delay-duration=%is: serving goes on through the delay; then every write is answered or refused before it ran',
    async (delayS) => {
      const { server, auditLog, prefix } = await start(store, [`--shutdown-delay-duration=${delayS}s`]);
      const load = new WriteLoad({
        url: server.url,
        ca: server.ca,
        collection: COLLECTION,
        body: configMap,
        prefix: 'a',
      });
      await load.untilCreated(100);
      const sigAt = Date.now();
      server.process.child.kill('SIGTERM');
      const exit = await exitWithin(server, EXIT_BUDGET_MS);
      // Every writer stops once its connections are refused: the server is gone.
      await load.finished();
      await load.stop();

      expect(exit.code).toBe(0);
      expect(exit.stderr).toMatch(/"Shut down cleanly"/);
      expect(exit.stderr).not.toMatch(LINGERED);
      const summary = load.summary();
      // Before the delay is over nothing is refused or cut: the server cannot have begun draining
      // before SIGTERM reached it, so anything a client saw end before sigAt + delay is a fault.
      const beforeDelayEnd = load.records.filter((r) => r.doneAt < sigAt + delayS * 1000);
      expect(beforeDelayEnd.filter((r) => !answered201(r)).map((r) => [r.name, r.outcome])).toEqual([]);
      if (delayS > 0)
        expect(
          beforeDelayEnd.filter((r) => r.sentAt > sigAt).length,
          JSON.stringify(summary),
        ).toBeGreaterThan(0);
      console.log(`${store}, delay ${delayS}s: ${JSON.stringify(summary)}`);

      expectRanIffAnswered(load, auditedCreates(auditLog), 'audit log');
      if (store === 'redis') expectRanIffAnswered(load, await storedNames(prefix), 'store');
    },
  );

  it('--shutdown-send-retry-after: new requests get 429 + Retry-After + Connection: close, in-flight ones finish, exit within the budget', async () => {
    const { server, auditLog, prefix } = await start(store, [
      `--shutdown-delay-duration=${DELAY_S}s`,
      '--shutdown-send-retry-after',
    ]);
    const load = new WriteLoad({
      url: server.url,
      ca: server.ca,
      collection: COLLECTION,
      body: configMap,
      prefix: 'b',
    });
    await load.untilCreated(100);
    // In flight from before SIGTERM, through the delay, until well into the drain: the drain must wait for it.
    const held = await holdRequest({
      url: server.url,
      ca: server.ca,
      path: COLLECTION,
      body: configMap('held'),
      headers: { 'audit-id': 'held' },
    });
    const sigAt = Date.now();
    server.process.child.kill('SIGTERM');
    const deadline = Date.now() + EXIT_BUDGET_MS;
    while (load.count((r) => r.outcome.kind === 'status' && r.outcome.status === 429) < 32) {
      if (Date.now() > deadline)
        throw new Error(`no 429s: ${JSON.stringify(load.summary())}\n${server.process.stderr.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(server.process.child.exitCode).toBeNull();
    const heldResponse = await held.finish();
    const exit = await exitWithin(server, EXIT_BUDGET_MS);
    await load.finished();
    await load.stop();

    expect(heldResponse.status).toBe(201);
    expect(heldResponse.headers['connection']).toBe('close');
    expect(exit.code).toBe(0);
    expect(exit.stderr).not.toMatch(LINGERED);
    console.log(`${store}, retry-after: ${JSON.stringify(load.summary())}`);
    const refusals = load.records.flatMap((r) =>
      r.outcome.kind === 'status' && r.outcome.status === 429 ? [r] : [],
    );
    for (const r of refusals) {
      expect(r.outcome).toEqual({ kind: 'status', status: 429, connectionClose: true, retryAfter: '5' });
      expect(r.doneAt).toBeGreaterThanOrEqual(sigAt + DELAY_S * 1000);
    }
    const beforeDelayEnd = load.records.filter((r) => r.doneAt < sigAt + DELAY_S * 1000);
    expect(beforeDelayEnd.filter((r) => !answered201(r)).map((r) => [r.name, r.outcome])).toEqual([]);

    const ran = auditedCreates(auditLog);
    expect(ran.has('held')).toBe(true);
    expectRanIffAnswered(load, ran, 'audit log');
    if (store === 'redis') {
      const stored = await storedNames(prefix);
      expect(stored.has('held')).toBe(true);
      expectRanIffAnswered(load, stored, 'store');
    }
  });
});
