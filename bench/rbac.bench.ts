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
import { rbac, type Attributes } from '@keel/auth';
import { ADMIN_TOKEN, TestApiServer } from '@keel/testing';
import { cpuSeconds } from './support/process-stats.js';
import { EVENT, EVENTS_PATH } from './support/bench-event.js';

const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 5);
const TOKEN = 'bench-token';
const G = 'rbac.authorization.k8s.io';
const OTHER_BINDINGS = 500;

interface Run {
  readonly perSecond: number;
  /** The server's own CPU time per create: what RBAC adds, whatever else shares the cores. */
  readonly cpuMicros: number;
}

async function measure(server: TestApiServer, connections: number): Promise<Run> {
  const pid = server.process.child.pid;
  const before = cpuSeconds(pid);
  const r = await createsPerSecondAndCount(server, connections);
  return { perSecond: r.perSecond, cpuMicros: ((cpuSeconds(pid) - before) * 1e6) / r.count };
}

async function createsPerSecondAndCount(
  server: TestApiServer,
  connections: number,
): Promise<{ perSecond: number; count: number }> {
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
  return { perSecond: r.requests.average, count: r.requests.total };
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

/** A synced, unchanging copy: the in-process index the decision timing runs on. */
function fixed<T>(items: T[]): rbac.RbacSource<T> {
  return {
    list: () => items,
    hasSynced: () => true,
    waitForSync: () => Promise.resolve(),
    subscribe: () => () => undefined,
  };
}

/**
 * One RBAC decision in process, with the bench's bindings: the cost RBAC adds to each request,
 * measured without the noise of two servers sharing two cores.
 */
async function decisionMicros(): Promise<number> {
  const ref = { apiGroup: G, kind: 'ClusterRole', name: 'event-writer' };
  const roleBindings: rbac.RoleBinding[] = Array.from({ length: OTHER_BINDINGS }, (_, i) => ({
    metadata: { name: `other-${i}`, namespace: 'default' },
    roleRef: ref,
    subjects: [{ kind: i % 2 ? 'User' : 'Group', apiGroup: G, name: `other-${i}` }],
  }));
  roleBindings.push({
    metadata: { name: 'bench', namespace: 'default' },
    roleRef: ref,
    subjects: [{ kind: 'User', apiGroup: G, name: 'bench' }],
  });
  const rules = [{ verbs: ['create'], apiGroups: ['events.k8s.io'], resources: ['events'] }];
  const index = new rbac.RbacRuleIndex();
  index.attach({
    roles: fixed<rbac.Role>([]),
    roleBindings: fixed(roleBindings),
    clusterRoles: fixed<rbac.ClusterRole>([{ metadata: { name: 'event-writer' }, rules }]),
    clusterRoleBindings: fixed<rbac.RoleBinding>([]),
  });
  const authorizer = new rbac.RBACAuthorizer(index);
  const attrs: Attributes = {
    user: { name: 'bench', uid: '', groups: ['bench-group', 'system:authenticated'], extra: {} },
    verb: 'create',
    isResourceRequest: true,
    path: EVENTS_PATH,
    namespace: 'default',
    apiGroup: 'events.k8s.io',
    apiVersion: 'v1',
    resource: 'events',
    subresource: '',
    name: '',
  };
  if ((await authorizer.authorize(attrs)).decision !== 'allow')
    throw new Error('the bench user is not allowed');
  const n = 200_000;
  for (let i = 0; i < n / 10; i++) await authorizer.authorize(attrs);
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await authorizer.authorize(attrs);
  return Number(process.hrtime.bigint() - start) / 1e3 / n;
}

export async function run(): Promise<void> {
  const decision = await decisionMicros();
  console.log(
    `one RBAC decision among ${OTHER_BINDINGS + 1} bindings, in process: ${decision.toFixed(2)} µs`,
  );
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
      const pairs: [Run, Run][] = [];
      for (let i = 0; i < 3; i++) pairs.push(await Promise.all([measure(allow, c), measure(rbac, c)]));
      pairs.sort((x, y) => x[1].perSecond / x[0].perSecond - y[1].perSecond / y[0].perSecond);
      const [a, r] = pairs[1] as [Run, Run];
      // CPU per create does not depend on how the two servers happened to share the cores.
      const cpu = (i: 0 | 1) => pairs.map((p) => p[i].cpuMicros).sort((x, y) => x - y)[1] ?? NaN;
      console.log(
        `  c=${String(c).padEnd(3)} AlwaysAllow ${a.perSecond.toFixed(0).padStart(6)} req/s ${cpu(0).toFixed(0).padStart(4)} µs CPU/create   ` +
          `RBAC ${r.perSecond.toFixed(0).padStart(6)} req/s ${cpu(1).toFixed(0).padStart(4)} µs CPU/create   ` +
          `throughput ${(r.perSecond / a.perSecond).toFixed(3)}, CPU ${(cpu(1) / cpu(0)).toFixed(3)} (target: throughput >= 0.90, CPU <= 1.10)`,
      );
    }
  } finally {
    await Promise.all([allow.stop(), rbac.stop()]);
  }
}
