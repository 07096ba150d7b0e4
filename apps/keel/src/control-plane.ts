import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { debuglog } from 'node:util';
import { writeConnectionConfig } from './connection-config.js';
import { Daemon, type LineSink } from './daemon.js';
import { daemonEntry } from './entries.js';
import { httpsJson } from './https-json.js';
import { registerFakeNodes } from './nodes.js';

export interface ControlPlaneOptions {
  /**
   * Where the certificates, the token file and `connection-config` go. Default: a new temporary
   * directory, removed by stop().
   */
  readonly dir?: string;
  /** `--store-servers` (e.g. `redis://127.0.0.1:6379`); default the embedded store. */
  readonly storeServers?: string;
  /** The API server's port on 127.0.0.1; default a free one. */
  readonly port?: number;
  /** Start the scheduler too (default true). */
  readonly scheduler?: boolean;
  /** Ready fake nodes to register (default 0). */
  readonly nodes?: number;
  /** More flags for each daemon. */
  readonly apiserverArgs?: readonly string[];
  readonly schedulerArgs?: readonly string[];
  /** Receives every log line of both daemons; default: dropped. */
  readonly log?: LineSink;
  /** How long to wait for each daemon to be ready (default 30 s). */
  readonly readyTimeoutMs?: number;
}

export interface ControlPlane {
  /** `https://127.0.0.1:<port>` */
  readonly url: string;
  /** A connection-config (kubeconfig) for the admin user: `kubectl --kubeconfig=<this>`. */
  readonly connectionConfig: string;
  /** The CA (PEM) that signed the API server's certificate. */
  readonly ca: string;
  /** The admin user's bearer token (group system:masters). */
  readonly token: string;
  readonly dir: string;
  /** The names of the fake nodes registered. */
  readonly nodes: readonly string[];
  /** Stops the scheduler, then the API server; removes `dir` when it was a temporary one. */
  stop(): Promise<void>;
}

/** `NODE_DEBUG=keel-start`: when each start-up step finished, in ms since startControlPlane began. */
const debug = debuglog('keel-start');

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolvePort(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls /readyz until it answers 200, the daemon dies, or the deadline passes. */
async function untilReady(
  daemon: Daemon,
  url: string,
  caFile: string,
  token: string | undefined,
  timeoutMs: number,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!daemon.running) throw new Error(`the ${daemon.name} exited during start-up:\n${daemon.lastLines()}`);
    if (existsSync(caFile)) {
      const ca = readFileSync(caFile, 'utf8');
      const r = await httpsJson(`${url}/readyz`, { ca, ...(token ? { token } : {}), timeoutMs: 2_000 }).catch(
        () => undefined,
      );
      if (r?.status === 200) return ca;
    }
    if (Date.now() > deadline) throw new Error(`the ${daemon.name} was not ready within ${timeoutMs} ms`);
    await sleep(15);
  }
}

/**
 * Resolves once the scheduler serves (its port listens, and its /readyz, which has no other check,
 * answers 200; or its port is off) and schedules (it holds its lease, or runs without election,
 * and its caches are synced): what a test needs for the pods it creates to be bound at once. Its
 * log lines say so (apps/scheduler: the secure port's and the scheduling loop's), sooner than a
 * poll of /readyz would, and the poll could not tell the second.
 */
function schedulerStarted(scheduler: Daemon, timeoutMs: number): Promise<void> {
  return withTimeout(
    Promise.all([
      scheduler.said(/Serving securely|Secure serving is off/),
      scheduler.said(/Starting scheduling/),
    ]).then(() => undefined),
    timeoutMs,
    'the scheduler was not serving and scheduling',
  );
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Starts a control plane on 127.0.0.1, as `keel up` does: the API server (RBAC and Node
 * authorization, a generated CA and serving certificate, an admin token) and, unless told not to,
 * the scheduler (as `system:kube-scheduler`), and registers `nodes` ready fake nodes. Resolves once
 * the API server is ready (its /readyz: every post-start hook done, the default RBAC policy among
 * them), the nodes exist and the scheduler serves and schedules (it leads, its caches synced), so
 * that a pod created next is bound without waiting for either; rejects (having stopped what it
 * started) if a daemon does not come up.
 */
export async function startControlPlane(opts: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const began = performance.now();
  const step = (what: string) => debug('%s ms: %s', (performance.now() - began).toFixed(0), what);
  const temporary = opts.dir === undefined;
  const dir = resolve(opts.dir ?? mkdtempSync(join(tmpdir(), 'keel-')));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const log = opts.log ?? (() => undefined);
  const adminToken = randomBytes(24).toString('hex');
  const schedulerToken = randomBytes(24).toString('hex');
  const tokens = join(dir, 'tokens.csv');
  writeFileSync(
    tokens,
    `${adminToken},admin,keel-admin,"system:masters"\n${schedulerToken},system:kube-scheduler,keel-scheduler\n`,
    { mode: 0o600 },
  );
  const port = opts.port ?? (await freePort());
  const url = `https://127.0.0.1:${port}`;
  const certDir = join(dir, 'certs');
  const apiserver = new Daemon(
    'apiserver',
    daemonEntry('apiserver'),
    [
      '--bind-address=127.0.0.1',
      `--secure-port=${port}`,
      `--cert-dir=${certDir}`,
      `--token-auth-file=${tokens}`,
      '--authorization-mode=Node,RBAC',
      ...(opts.storeServers ? [`--store-servers=${opts.storeServers}`] : []),
      ...(opts.apiserverArgs ?? []),
    ],
    log,
  );
  step('apiserver spawned');
  const daemons: Daemon[] = [apiserver];
  const stopAll = async () => {
    for (const d of [...daemons].reverse()) await d.stop();
    if (temporary) rmSync(dir, { recursive: true, force: true });
  };
  // The bundled scheduler starts now and loads its code while the API server starts; it gets its
  // arguments (its connection-config needs the API server's CA) once the API server serves.
  const withScheduler = opts.scheduler ?? true;
  const schedulerEntry = daemonEntry('scheduler');
  const waiting =
    withScheduler && schedulerEntry.defersArgs
      ? new Daemon('scheduler', schedulerEntry, undefined, log)
      : undefined;
  if (waiting) {
    daemons.push(waiting);
    step('scheduler spawned, waiting for its arguments');
  }
  try {
    // The scheduler starts once the API server serves (its CA is final then), not once it is
    // ready: it retries until the API server answers, so the two start-ups overlap.
    const caFile = join(certDir, 'ca.crt');
    let schedulerReady: Promise<unknown> = Promise.resolve();
    if (withScheduler) {
      await withTimeout(
        apiserver.said(/Serving securely/),
        opts.readyTimeoutMs ?? 30_000,
        'the apiserver did not serve',
      );
      step('apiserver serves');
      const schedulerConfig = join(dir, 'scheduler.connection-config');
      writeConnectionConfig(
        schedulerConfig,
        url,
        readFileSync(caFile, 'utf8'),
        schedulerToken,
        'system:kube-scheduler',
      );
      const schedulerPort = await freePort();
      const certs = join(dir, 'scheduler-certs');
      const args = [
        `--connection-config=${schedulerConfig}`,
        `--authentication-connection-config=${schedulerConfig}`,
        `--authorization-connection-config=${schedulerConfig}`,
        '--bind-address=127.0.0.1',
        `--secure-port=${schedulerPort}`,
        `--cert-dir=${certs}`,
        ...(opts.schedulerArgs ?? []),
      ];
      // Watched before it runs with its arguments, so that no line goes by unseen.
      const watch = (d: Daemon) => schedulerStarted(d, opts.readyTimeoutMs ?? 30_000);
      let started: Promise<void>;
      if (waiting) {
        if (!waiting.running)
          throw new Error(`the scheduler exited during start-up:\n${waiting.lastLines()}`);
        started = watch(waiting);
        waiting.begin(args);
        step('scheduler given its arguments');
      } else {
        const scheduler = new Daemon('scheduler', schedulerEntry, args, log);
        started = watch(scheduler);
        daemons.push(scheduler);
        step('scheduler spawned');
      }
      schedulerReady = started.then(() => step('scheduler serving and scheduling'));
      // Reported by the await below; not an unhandled rejection meanwhile.
      schedulerReady.catch(() => undefined);
    }
    const ca = await untilReady(apiserver, url, caFile, adminToken, opts.readyTimeoutMs ?? 30_000);
    step('apiserver ready');
    const connectionConfig = join(dir, 'connection-config');
    writeConnectionConfig(connectionConfig, url, ca, adminToken);
    const nodes = await registerFakeNodes(url, ca, adminToken, opts.nodes ?? 0);
    step(`${nodes.length} nodes registered`);
    await schedulerReady;
    return { url, connectionConfig, ca, token: adminToken, dir, nodes, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
