/**
 * `pnpm bench rbac`: the create benchmark (events, HTTPS, bearer token, memory store) under
 * --authorization-mode=AlwaysAllow and under RBAC, in one run. The caller is an ordinary user
 * (not system:masters, which skips the authorizers), allowed by a RoleBinding among 500 others,
 * so every RBAC decision goes through the rule index.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ADMIN_TOKEN, TestApiServer } from '@keel/testing';

const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 5);
const TOKEN = 'bench-token';
const EVENTS_PATH = '/apis/events.k8s.io/v1/namespaces/default/events';
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
const G = 'rbac.authorization.k8s.io';
const OTHER_BINDINGS = 500;

async function createsPerSecond(server: TestApiServer, connections: number): Promise<number> {
  const r = await autocannon({
    url: server.url + EVENTS_PATH,
    method: 'POST',
    connections,
    duration: DURATION_S,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: EVENT,
    tlsOptions: { ca: server.ca },
  });
  if (r.non2xx + r.errors + r.timeouts > 0) throw new Error(`${r.non2xx} non-2xx, ${r.errors} errors`);
  return r.requests.average;
}

async function post(server: TestApiServer, path: string, body: unknown): Promise<void> {
  const r = await server.request('POST', path, { body });
  if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.text}`);
}

/** The bench user's binding, behind many bindings of other users and groups. */
async function bindings(server: TestApiServer): Promise<void> {
  const rules = [{ verbs: ['create'], apiGroups: ['events.k8s.io'], resources: ['events'] }];
  await post(server, `/apis/${G}/v1/clusterroles`, { metadata: { name: 'event-writer' }, rules });
  for (let i = 0; i < OTHER_BINDINGS; i++)
    await post(server, `/apis/${G}/v1/namespaces/default/rolebindings`, {
      metadata: { name: `other-${i}` },
      roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'event-writer' },
      subjects: [{ kind: i % 2 ? 'User' : 'Group', apiGroup: G, name: `other-${i}` }],
    });
  await post(server, `/apis/${G}/v1/namespaces/default/rolebindings`, {
    metadata: { name: 'bench' },
    roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'event-writer' },
    subjects: [{ kind: 'User', apiGroup: G, name: 'bench' }],
  });
  for (let i = 0; i < 100; i++) {
    const r = await server.request('POST', EVENTS_PATH, { token: TOKEN, body: JSON.parse(EVENT) as unknown });
    if (r.status === 201) return;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('the bench user was never allowed');
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'keel-bench-rbac-'));
  const tokens = join(dir, 'tokens.csv');
  writeFileSync(
    tokens,
    `${ADMIN_TOKEN},admin,uid-admin,"system:masters"\n${TOKEN},bench,uid-bench,"bench-group"\n`,
  );
  const start = async (mode: string) => {
    const s = await TestApiServer.start({
      args: [`--authorization-mode=${mode}`, `--token-auth-file=${tokens}`],
    });
    await s.ready();
    return s;
  };
  const allow = await start('AlwaysAllow');
  const rbac = await start('RBAC');
  try {
    await bindings(rbac);
    console.log(
      `creates, ${DURATION_S}s per run, both servers loaded at once, median pair of 3, HTTPS + bearer token of an ordinary user, memory store:`,
    );
    for (const c of [1, 16, 64]) {
      // Both servers loaded at the same time, three times: on a shared machine whatever else runs
      // slows both alike, so the ratio of each pair means something where sequential runs do not.
      const pairs: [number, number][] = [];
      for (let i = 0; i < 3; i++)
        pairs.push(await Promise.all([createsPerSecond(allow, c), createsPerSecond(rbac, c)]));
      pairs.sort((x, y) => x[1] / x[0] - y[1] / y[0]);
      const [a, r] = pairs[1] as [number, number];
      console.log(
        `  c=${String(c).padEnd(3)} AlwaysAllow ${a.toFixed(0).padStart(6)} req/s   RBAC ${r.toFixed(0).padStart(6)} req/s   RBAC/AlwaysAllow ${(r / a).toFixed(3)} (target >= 0.90)`,
      );
    }
  } finally {
    await Promise.all([allow.stop(), rbac.stop()]);
  }
}
