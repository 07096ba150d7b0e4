/**
 * Start-up time of the built daemons, from spawn to their "Starting" log line (flags parsed,
 * configuration complete, logger up) and to exit for --version, against a bare `node -e` process
 * spawned the same way: the ratio is the cost Keel adds on top of Node's own start.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { freePort } from '@keel/testing';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 15;

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
  console.log(`baseline: bare node process, median of ${RUNS}: ${baseline.toFixed(1)} ms`);
  for (const [name, ms] of rows) {
    console.log(
      `${name.padEnd(32)} median ${ms.toFixed(1).padStart(7)} ms  = ${(ms / baseline).toFixed(2)}x baseline`,
    );
  }
}
