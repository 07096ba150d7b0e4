/**
 * In-process A/B of the object passes an Event create makes (what the server does between the
 * body's bytes and the response's JSON, minus HTTP, the filters, admission and Redis): parse,
 * decode, the wire form kept for field ownership, validation, managed fields with the wire form
 * of the object, the stored JSON, its decode back and the response's encode. Each build's own
 * dist modules run in one process in alternating turns; the figure is CPU time per create.
 *
 *   npx tsx bench/support/create-passes-ab.ts <baseline-checkout> [<candidate-checkout>]
 *
 * Both must be built. The server-level figure is build-ab.ts; this one isolates the passes, which
 * a loaded machine's noise hides there when they change by a few per cent of the whole.
 */
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EVENT } from './bench-event.js';

type Wire = Record<string, unknown>;
interface Meta extends Wire {
  namespace?: string;
  uid?: string;
  creationTimestamp?: string;
  name?: string;
}
interface Obj {
  metadata: Meta;
}
interface View {
  decode(body: unknown): { object: Obj };
  encode(obj: Obj): Wire;
  validateCreate(obj: Obj): unknown;
}

const [baselineRoot, candidateRoot = '.'] = process.argv.slice(2);
if (!baselineRoot) throw new Error('usage: create-passes-ab.ts <baseline-checkout> [<candidate-checkout>]');

async function passes(root: string): Promise<(i: number) => number> {
  const load = (path: string) => import(pathToFileURL(join(resolve(root), path)).href);
  const events = (await load('packages/events/dist/index.js')) as { eventsV1View: View };
  const decode = (await load('apps/apiserver/dist/endpoints/handlers/decode.js')) as {
    wireObject(body: unknown, view: View, obj: Obj): Wire;
  };
  const managed = (await load('apps/apiserver/dist/registry/managed-fields.js')) as {
    recordManager(obj: Obj, entries: readonly unknown[], w: unknown): void;
  };
  const stored = (await load('packages/storage/dist/objects.js')) as {
    encodeObject(obj: unknown, key: string): string;
    decodeObject(value: string, rv: number): Obj;
  };
  const view = events.eventsV1View;
  return (i) => {
    const body = JSON.parse(Buffer.from(EVENT).toString('utf8')) as unknown;
    const { object } = view.decode(body);
    const wire = decode.wireObject(body, view, object);
    const now = new Date();
    Object.assign(object.metadata, {
      namespace: 'default',
      uid: `uid-${i}`,
      creationTimestamp: `${now.toISOString().slice(0, -5)}Z`,
      name: `bench-${i}`,
    });
    view.validateCreate(object);
    managed.recordManager(object, [], {
      manager: 'bench',
      operation: 'Update',
      apiVersion: 'events.k8s.io/v1',
      now,
      sent: wire,
      force: false,
      wireIn: () => ({ before: undefined, after: view.encode(object) }),
    });
    const created = stored.decodeObject(stored.encodeObject(object, 'key'), i);
    return JSON.stringify(view.encode(created)).length;
  };
}

const sides = [
  { label: `A ${baselineRoot}`, run: await passes(baselineRoot), us: [] as number[] },
  { label: `B ${candidateRoot}`, run: await passes(candidateRoot), us: [] as number[] },
];
const N = Number(process.env['BENCH_CREATES'] ?? 20_000);
const TURNS = Number(process.env['BENCH_TURNS'] ?? 12);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`load average before: ${load()}`);
for (let turn = 0; turn < TURNS + 2; turn++) {
  for (const side of sides) {
    const start = process.cpuUsage();
    let bytes = 0;
    for (let i = 0; i < N; i++) bytes += side.run(i);
    const used = process.cpuUsage(start);
    // The first two turns warm both sides up (JIT), and the byte count keeps the work alive.
    if (turn >= 2 && bytes > 0) side.us.push((used.user + used.system) / N);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
for (const s of sides)
  console.log(`${s.label}: ${median(s.us).toFixed(1)} us CPU per create (median of ${TURNS} turns)`);
const [a, b] = sides.map((s) => median(s.us));
console.log(`B/A = ${((b ?? NaN) / (a ?? NaN)).toFixed(3)}x; load average after: ${load()}`);
