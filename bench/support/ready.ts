/** Spawning the API server and timing it to its first 200 from /readyz, for the start-up benches. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@keel/testing';
import { cpuSeconds } from './process-stats.js';

function readyz(url: string, ca: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(`${url}/readyz`, { ca, timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

export interface ReadyTime {
  /** Spawn to the first 200 from /readyz. */
  readonly ms: number;
  /** CPU time (user + system, all threads) the process had used by then; NaN off Linux. */
  readonly cpuMs: number;
}

/**
 * Spawn to a 200 from /readyz on the embedded store (anonymous may read it, as upstream's default
 * RBAC allows).
 */
export async function apiserverReady(
  entry: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ReadyTime> {
  const port = await freePort();
  const certDir = mkdtempSync(join(tmpdir(), 'keel-bench-'));
  const start = performance.now();
  const child = spawn(
    process.execPath,
    [entry, '--bind-address=127.0.0.1', `--secure-port=${port}`, `--cert-dir=${certDir}`],
    { stdio: 'ignore', env },
  );
  const exited = new Promise((r) => child.once('exit', r));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode} before ready`);
      const caFile = join(certDir, 'ca.crt');
      if (
        existsSync(caFile) &&
        (await readyz(`https://127.0.0.1:${port}`, readFileSync(caFile, 'utf8'))) === 200
      ) {
        return { ms: performance.now() - start, cpuMs: cpuSeconds(child.pid) * 1000 };
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(certDir, { recursive: true, force: true });
  }
}
