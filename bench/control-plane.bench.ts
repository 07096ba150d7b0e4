/**
 * `pnpm bench control-plane`: how long `startControlPlane()` (what `keel up` runs) takes until it
 * resolves, i.e. the API server answers /readyz, the scheduler's /readyz answers and the fake
 * node exists; beside it, the API server alone to /readyz, bundled (what the keel package ships)
 * and as the workspace build (one module per file), and a bare node process as the baseline.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startControlPlane } from '../apps/keel/src/index.js';
import { apiserverReady } from './support/ready.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env['BENCH_RUNS'] ?? 7);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

function bareNode(): Promise<number> {
  return new Promise((resolve) => {
    const start = performance.now();
    spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' }).once('exit', () =>
      resolve(performance.now() - start),
    );
  });
}

export async function run(): Promise<void> {
  const bundled = join(root, 'apps/keel/dist/daemons/apiserver.mjs');
  const workspace = join(root, 'apps/apiserver/dist/main.js');
  const rows: Record<string, number[]> = {
    'bare node process (baseline)': [],
    'API server to /readyz, bundled': [],
    'API server to /readyz, workspace build': [],
    'startControlPlane({ nodes: 1 })': [],
  };
  for (let i = 0; i < RUNS; i++) {
    rows['bare node process (baseline)']!.push(await bareNode());
    rows['API server to /readyz, bundled']!.push((await apiserverReady(bundled)).ms);
    rows['API server to /readyz, workspace build']!.push((await apiserverReady(workspace)).ms);
    const start = performance.now();
    const cp = await startControlPlane({ nodes: 1 });
    rows['startControlPlane({ nodes: 1 })']!.push(performance.now() - start);
    await cp.stop();
  }
  const base = median(rows['bare node process (baseline)']!);
  console.log(`median of ${RUNS} runs each, taken in turns:`);
  for (const [name, samples] of Object.entries(rows)) {
    const m = median(samples);
    console.log(`  ${name.padEnd(40)} ${m.toFixed(0).padStart(6)} ms  = ${(m / base).toFixed(1)}x baseline`);
  }
}
