import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { apiServerEntry, DaemonProcess, eventually, freePort, runNode, schedulerEntry } from '@keel/testing';

// This suite checks what can go wrong without a container engine: the containers' hardening, and
// every Keel command line of the file, run as local processes with only the host names and ports
// rewritten. `pnpm test:containers` (test/containers/) builds the images and runs the file with podman.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

interface ComposeService {
  image?: string;
  build?: { dockerfile: string };
  read_only?: boolean;
  tmpfs?: string[];
  command?: string[];
  entrypoint?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}

const compose = parse(readFileSync(join(root, 'compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const services = compose.services;
const keelServices = Object.entries(services).filter(([, s]) => s.image?.startsWith('keel-'));

/** The user the final stage of a Dockerfile runs as. */
function finalUser(dockerfile: string): string | undefined {
  const text = readFileSync(join(root, dockerfile), 'utf8');
  const lastStage = text.slice(text.lastIndexOf('\nFROM '));
  return [...lastStage.matchAll(/^USER (\S+)/gm)].pop()?.[1];
}

function runHealthcheck(service: string, port: number, pki: string): Promise<number> {
  const test = services[service]?.healthcheck?.test ?? [];
  expect(test.slice(0, 3)).toEqual(['CMD', 'node', '-e']);
  const script = (test[3] ?? '')
    .replace(/127\.0\.0\.1:\d+/, `127.0.0.1:${port}`)
    .replaceAll('/var/run/platform/pki', pki);
  return new Promise((resolve) =>
    execFile(process.execPath, ['-e', script], { timeout: 10_000 }, (err) =>
      resolve(err ? Number(err.code ?? 1) : 0),
    ),
  );
}

function kubectl(config: string, args: string[]): string {
  const r = spawnSync('kubectl', [`--kubeconfig=${config}`, ...args], { encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

describe('compose.yaml', () => {
  it('has Redis, two API servers and two schedulers, each Keel daemon health-checked', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['apiserver-1', 'apiserver-2', 'init', 'redis', 'scheduler-1', 'scheduler-2'].sort(),
    );
    for (const name of ['apiserver-1', 'apiserver-2', 'scheduler-1', 'scheduler-2']) {
      expect(services[name]?.healthcheck?.test, name).toBeDefined();
    }
    expect(services['apiserver-1']?.healthcheck?.test[3]).toContain('/readyz');
    expect(services['apiserver-1']?.depends_on?.['init']?.condition).toBe('service_completed_successfully');
    expect(services['scheduler-1']?.depends_on?.['apiserver-2']?.condition).toBe('service_healthy');
  });

  it('runs every Keel container as a non-root user on a read-only root file system', () => {
    expect(keelServices.length).toBe(5);
    for (const [name, s] of keelServices) {
      expect(s.read_only, name).toBe(true);
      expect(s.tmpfs, name).toContain('/tmp');
      const user = finalUser(s.build?.dockerfile ?? '');
      expect(user, name).toBeDefined();
      expect(user, name).not.toMatch(/^(root|0)(:|$)/);
    }
  });

  describe('its command lines, as local processes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-compose-'));
    const pki = join(dir, 'pki');
    const procs: DaemonProcess[] = [];
    const apiPorts: number[] = [];
    const schedulerPorts: number[] = [];
    const admin = join(pki, 'admin.conf');

    const localize = (arg: string): string =>
      arg
        .replaceAll('/var/run/platform', dir)
        .replace('redis://redis:6379', inject('redisUrl'))
        .replace('https://apiserver:6443', `https://127.0.0.1:${apiPorts[0]}`);

    const initEnv = (): NodeJS.ProcessEnv => ({
      KEEL_PKI_DIR: pki,
      KEEL_APP_DIR: join(root, 'apps', 'apiserver'),
      // What the containers reach as `apiserver` and the host as 127.0.0.1:6443.
      KEEL_SCHEDULER_SERVER: `https://127.0.0.1:${apiPorts[1]}`,
      KEEL_ADMIN_SERVER: `https://127.0.0.1:${apiPorts[0]}`,
    });
    const initScript = join(root, 'deploy', 'compose', 'init.mjs');

    beforeAll(async () => {
      for (let i = 0; i < 2; i++) apiPorts.push(await freePort());
      for (let i = 0; i < 2; i++) schedulerPorts.push(await freePort());
      const init = await runNode(initScript, [], { env: initEnv() });
      expect(init.code, init.stderr).toBe(0);
      const prefix = `--store-prefix=/compose-${randomBytes(4).toString('hex')}`;
      for (const [i, name] of ['apiserver-1', 'apiserver-2'].entries()) {
        const args = (services[name]?.command ?? []).map(localize);
        procs.push(
          DaemonProcess.start(apiServerEntry, [
            ...args,
            '--bind-address=127.0.0.1',
            `--secure-port=${apiPorts[i]}`,
            prefix,
          ]),
        );
      }
      await Promise.all(procs.map((p) => p.waitFor(/"Serving securely"/, 100_000)));
    }, 120_000);

    afterAll(async () => {
      await Promise.all(procs.map((p) => p.stop()));
      rmSync(dir, { recursive: true, force: true });
    });

    it('init writes the shared credentials once, private to their owner, and keeps them on a rerun', async () => {
      const files = ['ca.crt', 'apiserver.crt', 'apiserver.key', 'sa.key', 'sa.pub', 'tokens.csv'];
      const before = files.map((f) => readFileSync(join(pki, f), 'utf8'));
      for (const f of ['apiserver.key', 'sa.key', 'tokens.csv', 'admin.conf', 'scheduler.conf']) {
        expect(statSync(join(pki, f)).mode & 0o077, f).toBe(0);
      }
      const again = await runNode(initScript, [], { env: initEnv() });
      expect(again.code, again.stderr).toBe(0);
      expect(files.map((f) => readFileSync(join(pki, f), 'utf8'))).toEqual(before);
    });

    it('both API servers pass their health check and share one store and one signing key', async () => {
      for (const [i, name] of ['apiserver-1', 'apiserver-2'].entries()) {
        await eventually(async () => (await runHealthcheck(name, apiPorts[i] ?? 0, pki)) === 0, 30_000, name);
      }
      kubectl(admin, ['create', 'namespace', 'compose']);
      kubectl(admin, ['create', 'serviceaccount', 'robot', '-n', 'compose']);
      const token = kubectl(admin, ['create', 'token', 'robot', '-n', 'compose']).trim();
      // The token apiserver-1 issued, presented to apiserver-2.
      const other = kubectl(admin, [
        `--server=https://127.0.0.1:${apiPorts[1]}`,
        `--token=${token}`,
        'auth',
        'whoami',
        '-o',
        'jsonpath={.status.userInfo.username}',
      ]);
      expect(other).toBe('system:serviceaccount:compose:robot');
      // Node's own warnings (listener leaks, deprecations) have no place in a daemon's log.
      for (const p of procs) expect(p.stderr).not.toMatch(/\(node:\d+\) \w*Warning/);
    });

    it('two schedulers elect one leader, which binds a pod, and each passes its health check', async () => {
      for (const [i, name] of ['scheduler-1', 'scheduler-2'].entries()) {
        const args = (services[name]?.command ?? []).map(localize);
        procs.push(
          DaemonProcess.start(schedulerEntry, [
            ...args,
            '--bind-address=127.0.0.1',
            `--secure-port=${schedulerPorts[i]}`,
          ]),
        );
      }
      const holder = await eventually(
        async () => {
          const out = kubectl(admin, [
            'get',
            'lease',
            'platform-scheduler',
            '-n',
            'platform-system',
            '-o',
            'jsonpath={.spec.holderIdentity}',
          ]).trim();
          return out === '' ? undefined : out;
        },
        30_000,
        'a scheduler leader',
      );
      expect(holder).not.toBe('');
      kubectl(admin, ['apply', '-f', join(root, 'docs', 'examples')]);
      const node = await eventually(
        async () => {
          const out = kubectl(admin, ['get', 'pod', 'hello', '-o', 'jsonpath={.spec.nodeName}']).trim();
          return out === '' ? undefined : out;
        },
        30_000,
        'the pod bound',
      );
      expect(node).not.toBe('');
      for (const [i, name] of ['scheduler-1', 'scheduler-2'].entries()) {
        expect(await runHealthcheck(name, schedulerPorts[i] ?? 0, pki), name).toBe(0);
      }
      const leaders = procs.slice(2).filter((p) => /Successfully acquired lease/.test(p.stderr));
      expect(leaders.length).toBe(1);
    }, 60_000);
  });
});
