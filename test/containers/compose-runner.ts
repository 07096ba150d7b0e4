import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { parse } from 'yaml';

// Runs compose.yaml's services with plain `podman run`, as a compose engine would: the same images,
// command lines, read-only root file systems, tmpfs mounts, named volumes, network aliases and
// health checks, started in depends_on order. (podman-compose 1.0.3, Debian's, ignores depends_on
// conditions, and podman 4.3 runs health checks on its own only through systemd timers, which this
// machine lacks, so the runner runs each check itself with `podman healthcheck run`.)

export interface ComposeService {
  image?: string;
  read_only?: boolean;
  tmpfs?: string[];
  volumes?: string[];
  command?: string[];
  entrypoint?: string[];
  restart?: string;
  stop_grace_period?: string;
  ports?: string[];
  networks?: Record<string, { aliases?: string[] } | null>;
  healthcheck?: {
    test: string[];
    interval?: string;
    timeout?: string;
    retries?: number;
    start_period?: string;
  };
  depends_on?: Record<string, { condition: string }>;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** The cache build-images.sh keeps its base tarball and podman settings in. */
export const containerCache =
  process.env['KEEL_CONTAINER_CACHE'] ?? join(homedir(), '.cache', 'keel-containers');

/** podman with the settings build-images.sh wrote (runtime and limits this machine allows). */
export function podman(args: string[], timeoutMs = 120_000): Promise<Result> {
  return new Promise((resolve) => {
    execFile(
      'podman',
      args,
      {
        timeout: timeoutMs,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, CONTAINERS_CONF: join(containerCache, 'containers.conf') },
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Like podman(), but throws with podman's error output unless it exits 0. */
export async function podmanOk(args: string[], timeoutMs?: number): Promise<string> {
  const r = await podman(args, timeoutMs);
  if (r.code !== 0) throw new Error(`podman ${args.join(' ')} exited ${r.code}: ${r.stderr.trim()}`);
  return r.stdout;
}

export function loadCompose(path: string): ComposeFile {
  return parse(readFileSync(path, 'utf8'), { merge: true }) as ComposeFile;
}

/** Services ordered so that each comes after everything it depends on. */
export function startOrder(file: ComposeFile): string[] {
  const order: string[] = [];
  const visit = (name: string, path: string[]): void => {
    if (order.includes(name)) return;
    if (path.includes(name)) throw new Error(`depends_on cycle: ${[...path, name].join(' -> ')}`);
    for (const dep of Object.keys(file.services[name]?.depends_on ?? {})) visit(dep, [...path, name]);
    order.push(name);
  };
  for (const name of Object.keys(file.services)) visit(name, []);
  return order;
}

/** Compose's durations ("5s", "90s", "1m") in whole seconds. */
function seconds(d: string): number {
  const m = /^(\d+)(s|m)$/.exec(d);
  if (!m) throw new Error(`unsupported duration ${d}`);
  return Number(m[1]) * (m[2] === 'm' ? 60 : 1);
}

export class ComposeProject {
  readonly network: string;

  constructor(
    readonly name: string,
    readonly file: ComposeFile,
    /** Where relative bind-mount sources resolve, as compose resolves them beside the file. */
    readonly dir: string,
  ) {
    this.network = `${name}_default`;
  }

  container(service: string): string {
    return `${this.name}-${service}`;
  }

  volume(name: string): string {
    return `${this.name}_${name}`;
  }

  /** The `podman run` arguments for one service (detached, unstarted dependencies aside). */
  runArgs(service: string): string[] {
    const s = this.file.services[service];
    if (!s?.image) throw new Error(`service ${service} has no image`);
    const args = ['run', '-d', '--name', this.container(service), '--network', this.network];
    const aliases = [service, ...Object.values(s.networks ?? {}).flatMap((n) => n?.aliases ?? [])];
    for (const alias of aliases) args.push('--network-alias', alias);
    // podman's --read-only adds tmpfs on /tmp, /var/tmp and /run by itself; compose's read_only
    // does not, so only the file's own tmpfs entries are writable.
    if (s.read_only) args.push('--read-only', '--read-only-tmpfs=false');
    for (const t of s.tmpfs ?? []) args.push('--tmpfs', t);
    for (const v of s.volumes ?? []) {
      const [source = '', ...rest] = v.split(':');
      const local = source.startsWith('.') || isAbsolute(source);
      args.push('-v', [local ? join(this.dir, source) : this.volume(source), ...rest].join(':'));
    }
    // Host ports are left to podman: fixed ones (6443) may be taken on a shared machine.
    for (const p of s.ports ?? []) args.push('-p', `127.0.0.1::${p.split(':').pop() ?? ''}`);
    if (s.restart) args.push('--restart', s.restart);
    if (s.stop_grace_period) args.push('--stop-timeout', String(seconds(s.stop_grace_period)));
    const hc = s.healthcheck;
    if (hc) {
      const [kind, ...rest] = hc.test;
      args.push('--health-cmd', kind === 'CMD' ? JSON.stringify(rest) : rest.join(' '));
      // No systemd here to time the checks: waitHealthy() runs them.
      args.push('--health-interval', 'disable');
      if (hc.timeout) args.push('--health-timeout', hc.timeout);
      if (hc.retries !== undefined) args.push('--health-retries', String(hc.retries));
      if (hc.start_period) args.push('--health-start-period', hc.start_period);
    }
    if (s.entrypoint) args.push('--entrypoint', JSON.stringify(s.entrypoint));
    args.push(s.image, ...(s.command ?? []));
    return args;
  }

  /** Runs one health check as the engine would, until it passes or `retries` more have failed. */
  async waitHealthy(service: string): Promise<void> {
    const hc = this.file.services[service]?.healthcheck;
    if (!hc) throw new Error(`service ${service} has no healthcheck`);
    const interval = seconds(hc.interval ?? '30s') * 1000;
    const deadline = Date.now() + seconds(hc.start_period ?? '0s') * 1000 + interval * (hc.retries ?? 3);
    let last: Result | undefined;
    while (Date.now() < deadline) {
      last = await podman(['healthcheck', 'run', this.container(service)], 60_000);
      if (last.code === 0) return;
      await new Promise((r) => setTimeout(r, interval));
    }
    const logs = await podman(['logs', '--tail', '20', this.container(service)]);
    throw new Error(
      `${service} never became healthy (${last?.stdout.trim() ?? ''} ${last?.stderr.trim() ?? ''}); ` +
        `its last log lines:\n${logs.stdout}${logs.stderr}`,
    );
  }

  /** Creates the network and volumes and starts every service, honouring depends_on conditions. */
  async up(): Promise<void> {
    await podmanOk(['network', 'create', this.network]);
    for (const v of Object.keys(this.file.volumes ?? {}))
      await podmanOk(['volume', 'create', this.volume(v)]);
    for (const service of startOrder(this.file)) {
      for (const [dep, { condition }] of Object.entries(this.file.services[service]?.depends_on ?? {})) {
        if (condition === 'service_healthy') await this.waitHealthy(dep);
        else if (condition === 'service_completed_successfully') {
          const code = (await podmanOk(['wait', this.container(dep)], 120_000)).trim();
          if (code !== '0') {
            const logs = await podman(['logs', this.container(dep)]);
            throw new Error(`${dep} exited ${code}:\n${logs.stdout}${logs.stderr}`);
          }
        } else if (condition !== 'service_started') throw new Error(`unsupported condition ${condition}`);
      }
      await podmanOk(this.runArgs(service));
    }
  }

  /** Removes the project's containers, volumes and network (whatever of them exists). */
  async down(): Promise<void> {
    const services = startOrder(this.file).reverse();
    for (const service of services) await podman(['rm', '-f', '-t', '5', this.container(service)], 60_000);
    for (const v of Object.keys(this.file.volumes ?? {}))
      await podman(['volume', 'rm', '-f', this.volume(v)]);
    await podman(['network', 'rm', '-f', this.network]);
  }

  /** The host port podman published for a service's container port. */
  async hostPort(service: string, containerPort: number): Promise<number> {
    const out = await podmanOk(['port', this.container(service), `${containerPort}/tcp`]);
    const port = Number(/:(\d+)\s*$/m.exec(out)?.[1]);
    if (!port) throw new Error(`no host port for ${service}:${containerPort} in ${JSON.stringify(out)}`);
    return port;
  }

  async logs(service: string): Promise<string> {
    const r = await podman(['logs', this.container(service)]);
    return r.stdout + r.stderr;
  }

  /** Runs a command in a service's running container (as its image's user unless `user` is given). */
  exec(service: string, command: string[], user?: string): Promise<Result> {
    return podman(['exec', ...(user ? ['--user', user] : []), this.container(service), ...command]);
  }
}
