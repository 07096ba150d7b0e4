/**
 * In-process A/B of the per-request work every create passes on its way to the create handler
 * that does not depend on the object: the three probe handlers (/healthz, /livez, /readyz)
 * passing a resource path on, the Accept negotiation of a request without an Accept header, and
 * admission's per-plugin timing (12 plugins that answer at once, both phases). Each build's own
 * dist modules run in one process in alternating turns; the figure is CPU time per request.
 *
 *   npx tsx bench/support/create-passthrough-ab.ts <baseline-checkout> [<candidate-checkout>]
 *
 * Both must be built. BENCH_PART=probes|negotiate|plugins measures one of the three alone.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

type Probe = (req: IncomingMessage, res: ServerResponse) => boolean;
interface Plugin {
  admit(attrs: unknown): unknown;
  validate(attrs: unknown): unknown;
}
interface Side {
  readonly probes: Probe;
  readonly negotiate: (accept: string | undefined, protobufOk: boolean) => unknown;
  readonly plugins: readonly Plugin[];
}

const [baselineRoot, candidateRoot = '.'] = process.argv.slice(2);
if (!baselineRoot)
  throw new Error('usage: create-passthrough-ab.ts <baseline-checkout> [<candidate-checkout>]');
const part = process.env['BENCH_PART'] ?? 'all';
const N = 200_000;
const TURNS = 12;

async function load(root: string): Promise<Side> {
  const from = async <T>(path: string) => (await import(pathToFileURL(join(resolve(root), path)).href)) as T;
  const health = await from<{
    combineHandlers: (...h: Probe[]) => Probe;
    healthHandler: (root: string, checks: readonly unknown[]) => Probe;
  }>('packages/health/dist/handler.js');
  const { negotiateOutput } = await from<{ negotiateOutput: Side['negotiate'] }>(
    'apps/apiserver/dist/endpoints/negotiate.js',
  );
  const { withControllerMetrics } = await from<{
    withControllerMetrics: (plugin: object, observer: object) => Plugin;
  }>('packages/admission/dist/metrics.js');
  const observer = { observe: () => undefined };
  return {
    probes: health.combineHandlers(
      ...['/healthz', '/livez', '/readyz'].map((r) => health.healthHandler(r, [])),
    ),
    negotiate: negotiateOutput,
    plugins: Array.from({ length: 12 }, (_, i) =>
      withControllerMetrics(
        { name: `p${i}`, handles: () => true, admit: () => undefined, validate: () => undefined },
        observer,
      ),
    ),
  };
}

const req = { url: '/apis/events.k8s.io/v1/namespaces/default/events', headers: {} } as IncomingMessage;
const res = {} as ServerResponse;
const attrs = { operation: 'CREATE' };

function turn(s: Side): number {
  const before = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    if (part === 'all' || part === 'probes') s.probes(req, res);
    if (part === 'all' || part === 'negotiate') s.negotiate(undefined, true);
    if (part === 'all' || part === 'plugins')
      for (const p of s.plugins) {
        p.admit(attrs);
        p.validate(attrs);
      }
  }
  const d = process.cpuUsage(before);
  return ((d.user + d.system) * 1000) / N;
}

const a = await load(baselineRoot);
const b = await load(candidateRoot);
console.log(
  `load average before: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const ns: { a: number[]; b: number[] } = { a: [], b: [] };
for (let t = 0; t < TURNS; t++) {
  const order = t % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
  for (const k of order) ns[k].push(turn(k === 'a' ? a : b));
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1] ?? NaN;
const [ma, mb] = [median(ns.a), median(ns.b)];
console.log(
  `${part}: A ${baselineRoot} ${ma.toFixed(0)} ns, B ${candidateRoot} ${mb.toFixed(0)} ns per request`,
);
console.log(
  `B/A = ${(mb / ma).toFixed(3)}x (median of ${TURNS} turns of ${N}); load average after: ${loadavg()[0]?.toFixed(2)}`,
);
