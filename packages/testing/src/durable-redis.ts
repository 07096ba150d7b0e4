import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis-server.js';

// A redis-server for fault tests that kill it: `kill -9` (no shutdown, no final AOF flush) and a
// restart on the same port over the same data directory, so what survives is exactly what the
// append-only file had on disk when the process died.

export interface DurableRedisOptions {
  /** @default 'always': every acknowledged write is on disk. */
  readonly appendfsync?: 'always' | 'everysec' | 'no';
  /** @default true */
  readonly appendonly?: boolean;
  /** Data directory; by default a fresh temporary one removed by close(). */
  readonly dir?: string;
  readonly startTimeoutMs?: number;
}

export interface DurableRedis {
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  /** SIGKILL, as `kill -9`: the process gets no chance to flush or to close its clients. */
  kill9(): Promise<void>;
  /** Starts it again on the same port over the same data directory (replaying the AOF). */
  restart(): Promise<void>;
  /** Kills it and removes the data directory if this launcher created it. */
  close(): Promise<void>;
}

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function launch(port: number, dir: string, opts: DurableRedisOptions): Promise<ChildProcess> {
  const argv = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    opts.appendonly === false ? 'no' : 'yes',
    '--appendfsync',
    opts.appendfsync ?? 'always',
    '--dir',
    dir,
  ];
  const child = spawn('redis-server', argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  const timeoutMs = opts.startTimeoutMs ?? 15_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs} ms`), timeoutMs);
    const onData = (d: Buffer): void => {
      output += d.toString();
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        child.off('exit', onExit);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(child);
      }
    };
    const onExit = (): void => fail('exited early');
    function fail(why: string): void {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`redis-server on port ${port} ${why}:\n${output}`));
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', (err) => fail(`could not be spawned (${err.message})`));
    child.once('exit', onExit);
  });
}

async function kill(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGKILL');
  await exited;
}

/** Starts a redis-server with append-only persistence (fsync on every write by default). */
export async function startDurableRedis(opts: DurableRedisOptions = {}): Promise<DurableRedis> {
  const ownDir = opts.dir === undefined;
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'keel-durable-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined = await launch(port, dir, opts);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    kill9: async () => {
      await kill(child);
      child = undefined;
    },
    restart: async () => {
      await kill(child);
      // The port was just freed by a killed process: retry briefly if the kernel still holds it.
      for (let attempt = 1; ; attempt++) {
        try {
          child = await launch(port, dir, opts);
          return;
        } catch (err) {
          if (attempt >= 10 || !/Address already in use/i.test(String(err))) throw err;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    },
    close: async () => {
      await kill(child);
      child = undefined;
      if (ownDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
