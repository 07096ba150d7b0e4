import { randomBytes } from 'node:crypto';
import type { ProcessResult, TestApiServer } from '@keel/testing';
import { rawRequest, sleep } from './http.js';

/** A store prefix of its own, so a second server on the same Redis reads what the first wrote. */
export function uniquePrefix(): string {
  return `/keel-e2e-${randomBytes(6).toString('hex')}`;
}

/** Sends `signal` to the daemon without waiting for it to exit. */
export function signal(server: TestApiServer, sig: NodeJS.Signals = 'SIGTERM'): void {
  server.process.child.kill(sig);
}

/** Waits for the daemon to exit; fails the test if it has not within `timeoutMs`. */
export async function exited(server: TestApiServer, timeoutMs = 20_000): Promise<ProcessResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`daemon still running after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([server.process.wait(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once a new connection to the server is refused (the listener is closed). */
export async function connectionRefused(server: TestApiServer, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await rawRequest(server, '/livez');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? String(err);
      if (code === 'ECONNREFUSED') return code;
    }
    if (Date.now() > deadline) throw new Error('the listener still accepts connections');
    await sleep(50);
  }
}

/** Polls until `path` answers `status`; returns that response. */
export async function untilStatus(
  server: TestApiServer,
  path: string,
  status: number,
  timeoutMs = 10_000,
): Promise<Awaited<ReturnType<typeof rawRequest>>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await rawRequest(server, path);
    if (r.status === status) return r;
    if (Date.now() > deadline) throw new Error(`${path} still answers ${r.status}: ${r.text}`);
    await sleep(25);
  }
}
