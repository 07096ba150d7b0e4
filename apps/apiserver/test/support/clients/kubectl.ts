/**
 * Runs the real kubectl against a test server: `KEEL_KUBECTL` names the binary (default
 * `kubectl` on PATH; CI installs one when missing). Every run uses the test's kubeconfig and
 * its own cache directory, so nothing is read from or written to the user's ~/.kube.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import type { ClientConfig } from './kubeconfig.js';

export const KUBECTL = process.env['KEEL_KUBECTL'] ?? 'kubectl';

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function baseArgs(config: ClientConfig, kubeconfig?: string): string[] {
  return [`--kubeconfig=${kubeconfig ?? config.kubeconfig}`, `--cache-dir=${join(config.dir, 'cache')}`];
}

/** One kubectl command; resolves with its exit code and output (a failing command does not throw). */
export function kubectl(
  config: ClientConfig,
  args: readonly string[],
  opts: { kubeconfig?: string; stdin?: string } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      KUBECTL,
      [...baseArgs(config, opts.kubeconfig), ...args],
      { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number') {
          reject(new Error(`kubectl ${args.join(' ')} did not run: ${err.message}`));
          return;
        }
        resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
      },
    );
    if (opts.stdin !== undefined) child.stdin?.end(opts.stdin);
  });
}

/** Like kubectl(), but a non-zero exit fails with the command's stderr. */
export async function kubectlOk(config: ClientConfig, args: readonly string[]): Promise<string> {
  const r = await kubectl(config, args);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** A long-running kubectl (get -w) whose output is collected as it comes. */
export class KubectlStream {
  private out = '';
  private err = '';
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly exited: Promise<number | null>;

  constructor(config: ClientConfig, args: readonly string[]) {
    this.child = spawn(KUBECTL, [...baseArgs(config), ...args]);
    this.child.stdout.setEncoding('utf8').on('data', (d: string) => (this.out += d));
    this.child.stderr.setEncoding('utf8').on('data', (d: string) => (this.err += d));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  get stdout(): string {
    return this.out;
  }

  /** Output lines so far, without the trailing empty one. */
  lines(): string[] {
    return this.out.split('\n').filter((l) => l !== '');
  }

  /** Waits until the output satisfies `done` (or fails with what was printed). */
  async waitFor(done: (stdout: string) => boolean, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this.out)) {
      if (Date.now() > deadline || this.child.exitCode !== null) {
        throw new Error(`kubectl stream: condition not met.\nstdout:\n${this.out}\nstderr:\n${this.err}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Ends this kubectl (the process this stream started, by its own handle). */
  async stop(): Promise<void> {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
    await this.exited;
  }
}
