/**
 * A/B of the scheduler's in-process cycles of two checkouts: each turn runs one checkout's
 * bench/support cycle code (its own scheduler sources) in a fresh process, alternating, and
 * prints cycles per second and the process CPU per cycle, which load moves far less.
 *
 *   npx tsx --conditions=@keel/source bench/support/scheduler-cycles-ab.ts <baseline-checkout> [<candidate-checkout>]
 *
 * BENCH_WORKLOADS (plain,preemption; default both; also anti and spread, the end-to-end bench's
 * required anti-affinity and topology spread pods), BENCH_NODES (5000), BENCH_CYCLE_PODS (300
 * preemptors, 10x that many of the other pods) and BENCH_TURNS (4) tune the run.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface Turn {
  readonly perS: number;
  readonly cpuMs: number;
}

const HOST = 'kubernetes.io/hostname';
const ZONE = 'topology.kubernetes.io/zone';

/** The pods of a workload, as scheduler.bench.ts shapes them. */
function shapeOf(workload: string, nodes: number, pods: number): object {
  if (workload === 'anti') {
    const groups = Math.max(1, Math.ceil((2 * pods) / nodes));
    const term = (i: number) => ({
      labelSelector: { matchLabels: { group: `g${i % groups}` } },
      topologyKey: HOST,
    });
    return {
      labels: (i: number) => ({ group: `g${i % groups}` }),
      spec: (i: number) => ({
        affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(i)] } },
      }),
    };
  }
  if (workload === 'spread') {
    return {
      spec: () => ({
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: ZONE,
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: { app: 'bench' } },
          },
        ],
      }),
    };
  }
  return {};
}

/** In the child: one checkout's cycles, after a warm-up run. */
async function child(tree: string, workload: string, nodes: number, pods: number): Promise<Turn> {
  const url = (p: string) => pathToFileURL(resolve(tree, p)).href;
  let run: () => Promise<{ perS: number }>;
  if (workload === 'preemption') {
    const m = (await import(url('bench/support/scheduler-preemption.ts'))) as {
      preemptionCyclesPerSecond(n: number, p: number): Promise<{ perS: number }>;
    };
    await m.preemptionCyclesPerSecond(nodes, Math.ceil(pods / 6));
    run = () => m.preemptionCyclesPerSecond(nodes, pods);
  } else {
    const m = (await import(url('bench/support/scheduler-cycles.ts'))) as {
      cyclesPerSecond(n: number, p: number, shape: object): { perS: number };
    };
    m.cyclesPerSecond(nodes, Math.ceil(pods / 6), shapeOf(workload, nodes, Math.ceil(pods / 6)));
    run = () => Promise.resolve(m.cyclesPerSecond(nodes, pods, shapeOf(workload, nodes, pods)));
  }
  const cpu0 = process.cpuUsage();
  const r = await run();
  const cpu = process.cpuUsage(cpu0);
  return { perS: r.perS, cpuMs: (cpu.user + cpu.system) / 1000 / pods };
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  const [, tree = '.', workload = 'plain', nodes = '5000', pods = '300'] = args;
  console.log(JSON.stringify(await child(tree, workload, Number(nodes), Number(pods))));
} else {
  const [a, b = '.'] = args;
  if (!a) throw new Error('usage: scheduler-cycles-ab.ts <baseline-checkout> [<candidate-checkout>]');
  const nodes = Number(process.env['BENCH_NODES'] ?? 5000);
  const preemptors = Number(process.env['BENCH_CYCLE_PODS'] ?? 300);
  const turns = Number(process.env['BENCH_TURNS'] ?? 4);
  const workloads = (process.env['BENCH_WORKLOADS'] ?? 'plain,preemption').split(',');
  const self = fileURLToPath(import.meta.url);
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  console.log(`${nodes} nodes, A = ${a}, B = ${b}; load average ${load()}`);
  for (const w of workloads) {
    const pods = w === 'preemption' ? preemptors : preemptors * 10;
    const cpu: Record<'A' | 'B', number[]> = { A: [], B: [] };
    for (let t = 0; t < turns; t++) {
      for (const [side, tree] of [
        ['A', a],
        ['B', b],
      ] as const) {
        const out = execFileSync(
          process.execPath,
          [
            '--import',
            'tsx',
            '--conditions=@keel/source',
            self,
            '--child',
            tree,
            w,
            String(nodes),
            String(pods),
          ],
          { encoding: 'utf8' },
        );
        const r = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Turn;
        cpu[side].push(r.cpuMs);
        console.log(
          `  ${w} ${side}: ${r.perS.toFixed(0)} cycles/s, ${r.cpuMs.toFixed(3)} ms CPU per cycle (load ${load()})`,
        );
      }
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? NaN;
    console.log(
      `  ${w}: median CPU per cycle A ${median(cpu.A).toFixed(3)} ms, B ${median(cpu.B).toFixed(3)} ms = ${(median(cpu.B) / median(cpu.A)).toFixed(2)}x`,
    );
  }
}
