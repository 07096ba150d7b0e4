import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface ProcessResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

function assertBuilt(entry: string): void {
  if (!existsSync(entry)) {
    throw new Error(`${entry} does not exist: run \`pnpm build\` first (pnpm test does it for you)`);
  }
}

/** Runs a built entry point with plain `node` and collects its output. */
export function runNode(
  entry: string,
  args: readonly string[],
  opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<ProcessResult> {
  assertBuilt(entry);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], {
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`${entry} ${args.join(' ')} did not exit within ${opts.timeoutMs ?? 20_000} ms\n${stderr}`),
      );
    }, opts.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * Node options for daemons under test, e.g. `KEEL_DAEMON_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"`
 * to profile the API server a benchmark drives (NODE_OPTIONS does not take --cpu-prof).
 */
function daemonNodeArgs(): string[] {
  return (process.env['KEEL_DAEMON_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
}

/** A long-running daemon started with plain `node`, with helpers to wait for output and stop it. */
export class DaemonProcess {
  stdout = '';
  stderr = '';
  private readonly exited: Promise<ProcessResult>;

  private constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (d: Buffer) => (this.stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) =>
      child.on('close', (code, signal) =>
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr }),
      ),
    );
  }

  static start(entry: string, args: readonly string[], env?: NodeJS.ProcessEnv): DaemonProcess {
    assertBuilt(entry);
    return new DaemonProcess(
      spawn(process.execPath, [...daemonNodeArgs(), entry, ...args], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
  }

  /** A daemon that is not a Node.js entry point (a reference binary such as etcd or kube-apiserver). */
  static exec(command: string, args: readonly string[], env?: NodeJS.ProcessEnv): DaemonProcess {
    if (!existsSync(command)) throw new Error(`${command} does not exist`);
    return new DaemonProcess(
      spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }),
    );
  }

  /** Resolves once stderr or stdout matches; rejects if the process exits first or time runs out. */
  async waitFor(pattern: RegExp, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.stderr) && !pattern.test(this.stdout)) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(`process exited before printing ${String(pattern)}:\n${this.stderr}`);
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(pattern)}:\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Sends a signal and waits for the exit; kills it if it does not exit within the timeout. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 20_000): Promise<ProcessResult> {
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const result = await this.exited;
    clearTimeout(timer);
    return result;
  }

  wait(): Promise<ProcessResult> {
    return this.exited;
  }
}
