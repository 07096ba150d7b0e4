/**
 * `pnpm bench startup`: start-up time of the built daemons against a bare `node -e` process
 * spawned the same way (the ratio is the cost Keel adds on top of Node's own start): the workspace
 * builds to exit for --version and to their "Starting" line; the bundled API server (what the keel
 * package ships) to its first 200 from /readyz on the embedded store, with no code cache and with
 * a warm one (KEEL_COMPILE_CACHE), with the CPU time it had used by then; and startControlPlane()
 * (API server, scheduler, PKI, connection-config) from the built keel package, until it resolves.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { freePort } from '@keel/testing';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { startControlPlane as StartControlPlane } from '../apps/keel/src/index.js';
import { apiserverReady, type ReadyTime } from './support/ready.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * startControlPlane from the built keel package (it spawns the bundled daemons), loaded at run time:
 * a static import of dist would not typecheck on a clean checkout, where the typecheck runs before
 * the build. The type comes from the source.
 */
async function startControlPlane(
  built = join(root, 'apps/keel/dist/index.js'),
  opts: Parameters<typeof StartControlPlane>[0] = {},
): ReturnType<typeof StartControlPlane> {
  const mod = (await import(built)) as { startControlPlane: typeof StartControlPlane };
  return mod.startControlPlane(opts);
}

/**
 * BENCH_COMPARE_KEEL: another build's keel library (e.g. /work/main/apps/keel/dist/index.js), whose
 * startControlPlane() is timed in the same turns, for a before/after under the same load.
 */
const COMPARE = process.env['BENCH_COMPARE_KEEL'];
const RUNS = Number(process.env['BENCH_RUNS'] ?? 15);
/** Spawning a whole daemon to ready costs seconds on a loaded machine: fewer runs of those. */
const READY_RUNS = Number(process.env['BENCH_READY_RUNS'] ?? 7);
const GOAL_MS = 500;

function timeUntil(args: string[], ready: RegExp | 'exit'): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const done = () => resolve(Number(process.hrtime.bigint() - start) / 1e6);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (ready !== 'exit' && ready.test(out)) {
        done();
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => {
      if (ready === 'exit') done();
      else if (!ready.test(out)) reject(new Error(`exited (${code}) before ready:\n${out}`));
    });
  });
}

async function median(args: string[], ready: RegExp | 'exit'): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await timeUntil(args, ready));
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? NaN;
}

const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/**
 * startControlPlane() from the built keel package (bundled daemons) until it resolves; `scheduling`
 * records when the scheduler logged `Starting scheduling` (it leads, its caches synced), which
 * builds before issue 16's second pass did not wait for.
 */
async function controlPlaneReady(built?: string, scheduling: number[] = []): Promise<number> {
  const start = performance.now();
  let schedulingAt: number | undefined;
  const cp = await startControlPlane(built, {
    log: (daemon, line) => {
      if (daemon === 'scheduler' && /Starting scheduling/.test(line)) schedulingAt ??= performance.now();
    },
  });
  const ms = performance.now() - start;
  for (let i = 0; i < 500 && schedulingAt === undefined; i++) await new Promise((r) => setTimeout(r, 10));
  scheduling.push((schedulingAt ?? NaN) - start);
  await cp.stop();
  return ms;
}

/** Fills `dir` with both daemons' code caches: a control plane that runs until they are written. */
async function warmCompileCaches(dir: string, built?: string): Promise<void> {
  await withCacheEnv(dir, async () => {
    const cp = await startControlPlane(built);
    const deadline = Date.now() + 30_000;
    while (readdirSync(dir).filter((f) => f.endsWith('.cache')).length < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await cp.stop();
  });
}

/** Runs `f` with KEEL_COMPILE_CACHE set (the daemons startControlPlane spawns inherit it). */
async function withCacheEnv<T>(value: string, f: () => Promise<T>): Promise<T> {
  const before = process.env['KEEL_COMPILE_CACHE'];
  process.env['KEEL_COMPILE_CACHE'] = value;
  try {
    return await f();
  } finally {
    if (before === undefined) delete process.env['KEEL_COMPILE_CACHE'];
    else process.env['KEEL_COMPILE_CACHE'] = before;
  }
}

export async function run(): Promise<void> {
  const apiserver = join(root, 'apps/apiserver/dist/main.js');
  const scheduler = join(root, 'apps/scheduler/dist/main.js');
  const baseline = await median(['-e', 'process.stdout.write("ready\\n")'], /ready/);
  const rows: [string, number][] = [
    ['keel-apiserver --version', await median([apiserver, '--version'], 'exit')],
    [
      'keel-apiserver to "Starting"',
      await median(
        [
          apiserver,
          '--bind-address=127.0.0.1',
          `--secure-port=${await freePort()}`,
          `--cert-dir=${mkdtempSync(join(tmpdir(), 'keel-bench-'))}`,
        ],
        /Starting Keel API server/,
      ),
    ],
    [
      'keel-scheduler to "Starting"',
      // The scheduler needs an API server address to start; its first line does not wait for one
      // (nothing listens on port 1, so its informers would just keep retrying).
      await median(
        [scheduler, '--secure-port=0', '--leader-elect=false', '--master=https://127.0.0.1:1'],
        /Starting Keel scheduler/,
      ),
    ],
  ];
  const bundled = join(root, 'apps/keel/dist/daemons/apiserver.mjs');
  const cacheDir = mkdtempSync(join(tmpdir(), 'keel-bench-cache-'));
  const compareCacheDir = mkdtempSync(join(tmpdir(), 'keel-bench-cache-'));
  try {
    await warmCompileCaches(cacheDir);
    // Its own directory: a daemon writing its cache removes other caches of a bundle of its name.
    if (COMPARE) await warmCompileCaches(compareCacheDir, COMPARE);
    const cold: ReadyTime[] = [];
    const warm: ReadyTime[] = [];
    const cpCold: number[] = [];
    const cpWarm: number[] = [];
    const cmpCold: number[] = [];
    const cmpWarm: number[] = [];
    const schedWarm: number[] = [];
    const cmpSchedWarm: number[] = [];
    // In turns, so that a burst of load elsewhere spreads over all of them.
    const turnBaseline: number[] = [];
    for (let i = 0; i < READY_RUNS; i++) {
      turnBaseline.push(await timeUntil(['-e', 'process.stdout.write("ready\\n")'], /ready/));
      cold.push(await apiserverReady(bundled, { ...process.env, KEEL_COMPILE_CACHE: 'off' }));
      warm.push(await apiserverReady(bundled, { ...process.env, KEEL_COMPILE_CACHE: cacheDir }));
      cpCold.push(await withCacheEnv('off', controlPlaneReady));
      cpWarm.push(await withCacheEnv(cacheDir, () => controlPlaneReady(undefined, schedWarm)));
      if (COMPARE) {
        cmpCold.push(await withCacheEnv('off', () => controlPlaneReady(COMPARE)));
        cmpWarm.push(await withCacheEnv(compareCacheDir, () => controlPlaneReady(COMPARE, cmpSchedWarm)));
      }
    }
    // The ready rows are compared with the baseline taken in the same turns, not the one above.
    const turnBase = mid(turnBaseline);
    const readyRows: [string, number][] = [];
    const readyRow = (name: string, xs: ReadyTime[]): [string, number] => {
      const cpu = mid(xs.map((x) => x.cpuMs));
      readyRows.push([name, mid(xs.map((x) => x.ms))]);
      return [`${name}: CPU ${cpu.toFixed(0)} ms`, cpu];
    };
    const cpu = [
      readyRow('API server bundled, /readyz 200, no code cache', cold),
      readyRow('API server bundled, /readyz 200, warm code cache', warm),
    ];
    readyRows.push(['startControlPlane(), no code cache', mid(cpCold)]);
    readyRows.push(['startControlPlane(), warm code cache', mid(cpWarm)]);
    readyRows.push(['  scheduler "Starting scheduling", warm code cache', mid(schedWarm)]);
    if (COMPARE) {
      readyRows.push(['startControlPlane(), no code cache, compare build', mid(cmpCold)]);
      readyRows.push(['startControlPlane(), warm code cache, compare build', mid(cmpWarm)]);
      readyRows.push(['  scheduler "Starting scheduling", compare build', mid(cmpSchedWarm)]);
    }
    const print = (list: [string, number][], base: number) => {
      for (const [name, ms] of list) {
        console.log(
          `${name.padEnd(50)} median ${ms.toFixed(1).padStart(7)} ms  = ${(ms / base).toFixed(2)}x baseline`,
        );
      }
    };
    console.log(`baseline: bare node process, median of ${RUNS}: ${baseline.toFixed(1)} ms`);
    print(rows, baseline);
    console.log(
      `baseline taken in turns with the rows below, median of ${READY_RUNS}: ${turnBase.toFixed(1)} ms`,
    );
    print(readyRows, turnBase);
    for (const [line] of cpu) console.log(line);
    const apiserver = mid(warm.map((x) => x.ms));
    console.log(
      `goal: API server ready under ${GOAL_MS} ms: ${apiserver < GOAL_MS ? 'met' : 'NOT met'} ` +
        `(${apiserver.toFixed(0)} ms with a warm cache, ${mid(cold.map((x) => x.ms)).toFixed(0)} ms without; ` +
        `CPU to ready ${cpu[1]![1].toFixed(0)} ms with the cache, ${cpu[0]![1].toFixed(0)} ms without); ` +
        `startControlPlane reaches ${mid(cpWarm).toFixed(0)} ms (${mid(cpCold).toFixed(0)} ms without); ` +
        `${COMPARE ? `the compare build ${mid(cmpWarm).toFixed(0)} ms (${mid(cmpCold).toFixed(0)} ms without); ` : ''}` +
        `wall clock on a loaded machine is indicative only, compare with the baseline`,
    );
    const cp = mid(cpWarm);
    console.log(
      `goal: startControlPlane() under ${GOAL_MS} ms with a warm cache: ${cp < GOAL_MS ? 'met' : 'NOT met'} (${cp.toFixed(0)} ms)`,
    );
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
    rmSync(compareCacheDir, { recursive: true, force: true });
  }
}
