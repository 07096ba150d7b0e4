/**
 * A/B of a preemptor's failed cycle and dry run while pods are nominated to many nodes (as when
 * creates outrun first attempts end to end; the in-process preemption bench has at most one):
 * 5,000 full nodes, K pods nominated to K of them, then preemptors that fail everywhere and
 * preempt. Each turn runs one checkout's scheduler sources in a fresh process, alternating.
 *
 *   npx tsx --conditions=@keel/source bench/support/preemption-nominated-ab.ts <baseline-checkout> [<candidate-checkout>]
 *
 * BENCH_NOMINATED (1000), BENCH_TURNS (4) and BENCH_FAIL_ONLY=1 (the failed cycle alone) tune it.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const NODES = 5000;
const WARM = 100;
const TIMED = 400;

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call -- each checkout's own modules, loaded by path, whose types may differ */
async function child(tree: string, k: number, failOnly: boolean): Promise<number> {
  const load = (p: string): Promise<any> => import(pathToFileURL(resolve(tree, p)).href);
  const { SchedulerCache } = await load('apps/scheduler/src/cache/cache.ts');
  const { Framework } = await load('apps/scheduler/src/framework/framework.ts');
  const { defaultSchedulerConfiguration } = await load('apps/scheduler/src/options/index.ts');
  const { newInTreeRegistry } = await load('apps/scheduler/src/plugins/default-registry.ts');
  const { Nominator } = await load('apps/scheduler/src/scheduling/nominator.ts');
  const { PodScheduler } = await load('apps/scheduler/src/scheduling/schedule-one.ts');
  const pod = (name: string, priority: number, nodeName?: string) => ({
    metadata: { name, namespace: 'ns', uid: `uid-${name}` },
    spec: {
      priority,
      ...(nodeName ? { nodeName } : {}),
      containers: [{ name: 'app', resources: { requests: { cpu: '32', memory: '128Mi' } } }],
    },
  });
  const cache = new SchedulerCache();
  for (let i = 0; i < NODES; i++) {
    const name = `node-${i}`;
    cache.addNode({
      metadata: { name, labels: { 'kubernetes.io/hostname': name } },
      status: { allocatable: { cpu: '32', memory: '128Gi', pods: '110' } },
    });
    cache.addPod(pod(`low-${i}`, 10, name));
  }
  const nominator = new Nominator();
  for (let i = 0; i < k; i++) nominator.addNominatedPod(pod(`nom-${i}`, 1000), `node-${(i * 7) % NODES}`);
  const binder = { name: 'DefaultBinder', bind: () => Promise.resolve(undefined) };
  const fwk = Framework.fromProfile(
    defaultSchedulerConfiguration().profiles[0],
    newInTreeRegistry().register('DefaultBinder', () => binder),
    undefined,
    { nominator, preemption: { podDisruptionBudgets: () => [], execute: () => undefined } },
  );
  const scheduler = new PodScheduler({ percentageOfNodesToScore: 0 });
  const one = async (i: number) => {
    const p = pod(`high-${i}`, 1000);
    const first = scheduler.schedulePod(fwk, cache.snapshot(), p);
    if (first.ok) throw new Error('a preemptor fitted');
    if (failOnly) return;
    const post = await fwk.runPostFilterPlugins(first.state, p, first.fitError.diagnosis.nodeToStatus);
    if (!post.status.isSuccess()) throw new Error(`no preemption: ${post.status.message()}`);
  };
  for (let i = 0; i < WARM; i++) await one(i);
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < TIMED; i++) await one(i);
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / 1000 / TIMED;
}
/* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call */

const args = process.argv.slice(2);
const k = Number(process.env['BENCH_NOMINATED'] ?? 1000);
const failOnly = process.env['BENCH_FAIL_ONLY'] === '1';
if (args[0] === '--child') {
  console.log(JSON.stringify(await child(args[1] ?? '.', k, failOnly)));
} else {
  const [a, b = '.'] = args;
  if (!a) throw new Error('usage: preemption-nominated-ab.ts <baseline-checkout> [<candidate-checkout>]');
  const turns = Number(process.env['BENCH_TURNS'] ?? 4);
  const self = fileURLToPath(import.meta.url);
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  console.log(`${NODES} nodes, ${k} nominated, A = ${a}, B = ${b}; load average ${load()}`);
  const cpu: Record<'A' | 'B', number[]> = { A: [], B: [] };
  for (let t = 0; t < turns; t++) {
    for (const [side, tree] of [
      ['A', a],
      ['B', b],
    ] as const) {
      const out = execFileSync(
        process.execPath,
        ['--import', 'tsx', '--conditions=@keel/source', self, '--child', tree],
        { encoding: 'utf8', env: process.env },
      );
      const ms = Number(out.trim().split('\n').at(-1));
      cpu[side].push(ms);
      console.log(`  ${side}: ${ms.toFixed(3)} ms CPU per preemptor (load ${load()})`);
    }
  }
  const median = (v: number[]) => [...v].sort((x, y) => x - y)[Math.floor(v.length / 2)] ?? 0;
  const [ma, mb] = [median(cpu.A), median(cpu.B)];
  console.log(
    `median CPU per preemptor A ${ma.toFixed(3)} ms, B ${mb.toFixed(3)} ms = ${(mb / ma).toFixed(2)}x`,
  );
}
