import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { DaemonProcess } from './process.js';
import { freePort } from './redis-server.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const apiServerEntry = join(root, 'apps', 'apiserver', 'dist', 'main.js');
export const schedulerEntry = join(root, 'apps', 'scheduler', 'dist', 'main.js');

/** Tokens of the static token file every test server gets. */
export const ADMIN_TOKEN = 'admin-token';
export const USER_TOKEN = 'user-token';

export interface ApiResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly json: unknown;
}

export interface RequestOptions {
  readonly body?: unknown;
  readonly contentType?: string;
  readonly token?: string | null;
  readonly headers?: Record<string, string>;
}

/** A built keel-apiserver on 127.0.0.1 and a free port, with HTTPS helpers trusting its CA. */
export class TestApiServer {
  private constructor(
    readonly process: DaemonProcess,
    readonly url: string,
    readonly ca: string,
    readonly certDir: string,
    readonly dispatcher: Agent,
  ) {}

  /**
   * `namespaceLifecycle: true` keeps the NamespaceLifecycle admission plugin on, as a real server
   * has it. Off by default: most suites write into throwaway namespaces they never create.
   */
  static async start(
    opts: {
      args?: readonly string[];
      redisUrl?: string;
      env?: NodeJS.ProcessEnv;
      namespaceLifecycle?: boolean;
      /** How long to wait for "Serving securely" (default 20 s). */
      startTimeoutMs?: number;
      /** The daemon's entry script (default this tree's build; benchmarks A/B another build). */
      entry?: string;
    } = {},
  ): Promise<TestApiServer> {
    const dir = mkdtempSync(join(tmpdir(), 'keel-apiserver-'));
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(
      tokens,
      `${ADMIN_TOKEN},admin,uid-admin,"system:masters"\n${USER_TOKEN},alice,uid-alice,"dev,qa"\n`,
    );
    const port = await freePort();
    const args = [
      '--bind-address=127.0.0.1',
      `--secure-port=${port}`,
      `--cert-dir=${join(dir, 'certs')}`,
      `--token-auth-file=${tokens}`,
      ...(opts.redisUrl
        ? [`--store-servers=${opts.redisUrl}`, `--store-prefix=/keel-test-${port}-${Date.now()}`]
        : []),
      ...(opts.namespaceLifecycle ? [] : ['--disable-admission-plugins=NamespaceLifecycle']),
      // One process, as the suites were written for (with Redis the default is one per core);
      // a later --workers in `args` wins.
      '--workers=1',
      ...(opts.args ?? []),
    ];
    const proc = DaemonProcess.start(opts.entry ?? apiServerEntry, args, opts.env);
    try {
      await proc.waitFor(/"Serving securely"/, opts.startTimeoutMs);
    } catch (err) {
      // A server that is merely slow to start would otherwise outlive the test or benchmark.
      await proc.stop('SIGKILL', 5_000);
      throw err;
    }
    const ca = readFileSync(join(dir, 'certs', 'ca.crt'), 'utf8');
    const dispatcher = new Agent({ connect: { ca }, pipelining: 0 });
    return new TestApiServer(proc, `https://127.0.0.1:${port}`, ca, dir, dispatcher);
  }

  async request(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? ADMIN_TOKEN : opts.token;
    if (token !== null) headers['authorization'] = `Bearer ${token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['content-type'] = opts.contentType ?? 'application/json';
    }
    const res = await request(this.url + path, {
      method: method as 'GET',
      headers,
      body,
      dispatcher: this.dispatcher,
    });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, headers: res.headers, text, json };
  }

  /** Waits until /readyz is 200 (post-start hooks done). */
  async ready(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.request('GET', '/readyz');
      if (r.status === 200) return;
      if (Date.now() > deadline) throw new Error(`not ready: ${r.text}`);
      await new Promise((res) => setTimeout(res, 50));
    }
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    await this.dispatcher.close();
    return (await this.process.stop(signal)).code;
  }
}
