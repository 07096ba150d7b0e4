import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { DaemonEntry } from './entries.js';
import { DEFERRED_ARGS_ENV } from './launch.js';

export type DaemonName = 'apiserver' | 'scheduler';
/** Receives every line a daemon writes (stdout and stderr). */
export type LineSink = (daemon: DaemonName, line: string) => void;

/**
 * `KEEL_DAEMON_NODE_ARGS`: Node options for the daemons, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
 * to profile a start-up (NODE_OPTIONS does not take --cpu-prof); as @keel/testing's daemons.
 */
function daemonNodeArgs(): string[] {
  return (process.env['KEEL_DAEMON_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
}

/**
 * One daemon child process (`node <entry> <args>`), its output handed over line by line. With
 * `args` undefined, the process starts at once but waits for them (src/launch.ts) until begin().
 */
export class Daemon {
  private readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  /** The last lines it wrote, for an error message when it dies during start-up. */
  private readonly tail: string[] = [];
  private readonly watchers: { readonly pattern: RegExp; readonly resolve: () => void }[] = [];

  constructor(
    readonly name: DaemonName,
    entry: DaemonEntry,
    args: readonly string[] | undefined,
    sink: LineSink,
  ) {
    if (args === undefined && !entry.defersArgs)
      throw new Error(`${entry.path} cannot take its arguments later`);
    const deferred = args === undefined;
    // @keel/lifecycle's EXIT_WITH_PARENT_ENV (this library imports only Node's built-ins): the
    // daemon stops when this process is gone, even killed with SIGKILL.
    const env: NodeJS.ProcessEnv = { ...process.env, KEEL_EXIT_WITH_PARENT: '1' };
    if (deferred) env[DEFERRED_ARGS_ENV] = '1';
    else delete env[DEFERRED_ARGS_ENV];
    this.child = spawn(process.execPath, [...daemonNodeArgs(), entry.path, ...(args ?? [])], {
      // A deferred daemon reads its arguments on standard input, which then ends.
      stdio: [deferred ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      env,
    });
    // A daemon that died before begin() must not fail this process with EPIPE.
    this.child.stdin?.on('error', () => undefined);
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream }).on('line', (line) => {
        this.tail.push(line);
        for (const w of this.watchers.filter((x) => x.pattern.test(line))) {
          this.watchers.splice(this.watchers.indexOf(w), 1);
          w.resolve();
        }
        if (this.tail.length > 20) this.tail.shift();
        sink(name, line);
      });
    }
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** Hands a deferred daemon its arguments: it runs as if spawned with them. */
  begin(args: readonly string[]): void {
    const stdin = this.child.stdin;
    if (!stdin || stdin.writableEnded) throw new Error(`the ${this.name} was not waiting for its arguments`);
    stdin.end(JSON.stringify(args) + '\n');
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** What it last said, for "the API server exited during start-up: ..." */
  lastLines(): string {
    return this.tail.slice(-5).join('\n');
  }

  /** Resolves when a later line matches `pattern`; rejects if the daemon exits first. */
  said(pattern: RegExp): Promise<void> {
    return new Promise((resolve, reject) => {
      this.watchers.push({ pattern, resolve });
      void this.exited.then(() =>
        reject(new Error(`the ${this.name} exited during start-up:\n${this.lastLines()}`)),
      );
    });
  }

  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. Resolves with the exit code. */
  async stop(graceMs = 30_000): Promise<number | null> {
    if (this.running) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
