import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServerOptions {
  /** Fixed port; by default a free one (never 6379, so a developer's own Redis is never touched). */
  readonly port?: number;
  /** Data directory (AOF); by default a fresh temporary directory removed by close(). */
  readonly dir?: string;
  /** Extra redis-server arguments, e.g. ['--tls-port', '0']. */
  readonly args?: readonly string[];
  /** @default 10000 */
  readonly startTimeoutMs?: number;
}

export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  /** The running redis-server's process id (a benchmark reads its CPU time). */
  readonly pid: number | undefined;
  /** Stops the process (SIGTERM: Redis flushes its AOF), keeping the data directory. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  restart(): Promise<void>;
  /** Stops it and removes the data directory if this launcher created it. */
  close(): Promise<void>;
}

const reservedPort = 6379;

/** Asks the OS for a free port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => {
        if (port !== reservedPort && port !== 0) resolve(port);
        else freePort().then(resolve, reject);
      });
    });
  });
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function launch(
  port: number,
  dir: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<ChildProcess> {
  // Append-only persistence without RDB snapshots: data survives restart(), which the
  // "no acknowledged write is lost" tests rely on.
  const argv = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'yes',
    '--dir',
    dir,
    ...args,
  ];
  const child = spawn('redis-server', argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  return new Promise((resolve, reject) => {
    const settle = (err?: Error): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('error', onError);
      child.off('exit', onExit);
      if (!err) {
        child.stdout?.resume();
        resolve(child);
        return;
      }
      child.kill('SIGKILL');
      reject(err);
    };
    const fail = (why: string): void => settle(new Error(`redis-server on port ${port} ${why}:\n${output}`));
    const onData = (d: Buffer): void => {
      output += d.toString();
      if (/Ready to accept connections/.test(output)) settle();
    };
    const onError = (err: Error): void =>
      fail(`could not be spawned (${err.message}); is redis-server installed?`);
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      fail(`exited early (${signal ?? code})`);
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs} ms`), timeoutMs);
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', onError);
    child.once('exit', onExit);
  });
}

async function terminate(child: ChildProcess | undefined, timeoutMs = 10_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts a throwaway `redis-server` on 127.0.0.1 for tests. Without a fixed port it picks a
 * free one and retries if another process grabs it first.
 */
export async function startRedisServer(opts: RedisServerOptions = {}): Promise<RedisServer> {
  if (opts.port === reservedPort) throw new Error('refusing to start a test Redis on 6379');
  const ownDir = opts.dir === undefined;
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'keel-redis-'));
  const args = opts.args ?? [];
  const timeoutMs = opts.startTimeoutMs ?? 10_000;
  let port = opts.port ?? (await freePort());
  let child: ChildProcess | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      child = await launch(port, dir, args, timeoutMs);
      break;
    } catch (err) {
      if (opts.port !== undefined || attempt >= 5 || !/Address already in use/i.test(String(err))) {
        if (ownDir) rmSync(dir, { recursive: true, force: true });
        throw err;
      }
      port = await freePort();
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    get pid() {
      return child?.pid;
    },
    stop: () => terminate(child),
    restart: async () => {
      await terminate(child);
      child = await launch(port, dir, args, timeoutMs);
    },
    close: async () => {
      await terminate(child);
      if (ownDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
