/**
 * Runs the official Python client through events_client.py with the system interpreter (the one
 * CI installs python3-kubernetes for; `KEEL_PYTHON` overrides it).
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientConfig } from './kubeconfig.js';

export const PYTHON = process.env['KEEL_PYTHON'] ?? '/usr/bin/python3';
const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'events_client.py');

/** What the script printed: the call's value, or the client's ApiException. */
export type PyResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly status: number; readonly reason: string; readonly body: unknown };

function parse(stdout: string, stderr: string, what: string): PyResult {
  try {
    return JSON.parse(stdout) as PyResult;
  } catch {
    throw new Error(`python ${what} printed no result.\nstdout:\n${stdout}\nstderr:\n${stderr}`);
  }
}

/** One client operation with the given kubeconfig (the test's admin one unless given). */
export function python(
  config: ClientConfig,
  operation: string,
  args: Record<string, unknown> = {},
  kubeconfig = config.kubeconfig,
): Promise<PyResult> {
  return new Promise((resolve, reject) => {
    execFile(
      PYTHON,
      [SCRIPT, kubeconfig, operation, JSON.stringify(args)],
      { timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err && stdout === '') {
          reject(new Error(`python ${operation} failed: ${err.message}\n${stderr}`));
          return;
        }
        try {
          resolve(parse(stdout, stderr, operation));
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      },
    );
  });
}

/** The value of a successful operation; a client exception fails the test with its body. */
export async function pythonOk<T = Record<string, unknown>>(
  config: ClientConfig,
  operation: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const r = await python(config, operation, args);
  if (!r.ok) throw new Error(`python ${operation}: ${r.status} ${r.reason} ${JSON.stringify(r.body)}`);
  return r.value as T;
}

export interface PyWatchEvent {
  readonly type: string;
  readonly name: string;
  readonly model: string;
  readonly labels: Record<string, string> | null;
}

/** A running Python watch (watch.Watch().stream) that reports each event as it comes. */
export class PythonWatch {
  readonly events: PyWatchEvent[] = [];
  private buffer = '';
  private stderr = '';
  readonly done: Promise<number | null>;
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(config: ClientConfig, namespace: string) {
    const child = (this.child = spawn(PYTHON, [
      SCRIPT,
      config.kubeconfig,
      'watch',
      JSON.stringify({ namespace }),
    ]));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      this.buffer += d;
      const lines = this.buffer.split('\n');
      this.buffer = lines.pop() ?? '';
      for (const l of lines) if (l.trim() !== '') this.events.push(JSON.parse(l) as PyWatchEvent);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
    this.done = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  /** Ends the watch process this object started, if it has not ended by itself. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
    await this.done;
  }

  async waitFor(type: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.events.some((e) => e.type === type)) {
      if (Date.now() > deadline) {
        throw new Error(`no ${type} event: ${JSON.stringify(this.events)}\nstderr:\n${this.stderr}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
