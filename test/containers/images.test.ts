import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@keel/testing';
import { ComposeProject, loadCompose, podman } from './compose-runner.js';

// `pnpm test:containers` (issue 16): builds the images compose.yaml names with podman (the base
// made locally by build-images.sh, since Docker Hub is out of reach here), runs the file's
// services hardened as it says, and checks what apps/apiserver/test/compose.test.ts can only
// check statically. Without podman every test here is skipped, loudly.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const havePodman = spawnSync('podman', ['--version'], { encoding: 'utf8' }).status === 0;
if (!havePodman) {
  process.stderr.write(
    [
      '',
      '################################################################',
      'CONTAINER TESTS SKIPPED: podman is not installed',
      'CONTAINER TESTS SKIPPED: the images of compose.yaml were NOT built or run',
      'CONTAINER TESTS SKIPPED: apt-get install podman runc debootstrap iptables (docs/operations.md)',
      '################################################################',
      '',
    ].join('\n'),
  );
}

const keelDaemons = ['apiserver-1', 'apiserver-2', 'scheduler-1', 'scheduler-2'];

function kubectl(config: string, server: string, args: string[]): string {
  const r = spawnSync('kubectl', [`--kubeconfig=${config}`, `--server=${server}`, ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Runs build-images.sh, printing its step lines as they come and the tail of its output on failure. */
function buildImages(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [join(root, 'test', 'containers', 'build-images.sh')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let tail = '';
    const take = (chunk: Buffer): void => {
      const text = chunk.toString();
      tail = (tail + text).slice(-8000);
      for (const line of text.split('\n'))
        if (line.startsWith('[build-images')) process.stdout.write(`${line}\n`);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`build-images.sh exited ${code}:\n${tail.slice(-4000)}`)),
    );
  });
}

describe.skipIf(!havePodman)('compose.yaml in containers (podman)', () => {
  const project = new ComposeProject(
    `keel-test-${randomBytes(3).toString('hex')}`,
    loadCompose(join(root, 'compose.yaml')),
    root,
  );
  const dir = mkdtempSync(join(tmpdir(), 'keel-containers-'));
  const admin = join(dir, 'admin.conf');
  const servers: string[] = [];

  beforeAll(async () => {
    await buildImages();
    await project.up();
    // The health checks gate the schedulers' start (depends_on): both servers passed theirs.
    for (const service of ['apiserver-1', 'apiserver-2']) {
      servers.push(`https://127.0.0.1:${await project.hostPort(service, 6443)}`);
    }
    const conf = await project.exec('apiserver-1', ['cat', '/var/run/platform/pki/admin.conf']);
    expect(conf.code, conf.stderr).toBe(0);
    writeFileSync(admin, conf.stdout, { mode: 0o600 });
  }, 1_500_000);

  afterAll(async () => {
    if (process.env['KEEL_CONTAINERS_KEEP'] !== '1') await project.down();
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('runs every process as a non-root user, PID 1 and its workers included', async () => {
    for (const service of [...keelDaemons, 'redis']) {
      const r = await project.exec(service, ['sh', '-c', 'id -u; grep -h ^Uid: /proc/[0-9]*/status']);
      expect(r.code, `${service}: ${r.stderr}`).toBe(0);
      const [uid, ...statuses] = r.stdout.trim().split('\n');
      expect(uid, service).not.toBe('0');
      // PID 1 and the probe's own shell at least. Real, effective, saved and file-system uid.
      expect(statuses.length, service).toBeGreaterThanOrEqual(2);
      for (const status of statuses)
        expect(status.split(/\s+/).slice(1), service).toEqual([uid, uid, uid, uid]);
    }
    const user = await podman(['inspect', '--format', '{{.Config.User}}', project.container('apiserver-1')]);
    expect(user.stdout.trim()).toBe('node');
  });

  it('has a read-only root file system, even for root, with /tmp writable', async () => {
    for (const service of keelDaemons) {
      // The image user's own home: writable on an ordinary root file system.
      const own = await project.exec(service, ['sh', '-c', 'touch /home/node/probe']);
      expect(own.code, service).not.toBe(0);
      expect(own.stderr, service).toMatch(/Read-only file system/);
      const asRoot = await project.exec(service, ['sh', '-c', 'touch /app/probe'], '0');
      expect(asRoot.code, service).not.toBe(0);
      expect(asRoot.stderr, service).toMatch(/Read-only file system/);
      // The credentials volume is mounted read-only into the daemons.
      const pki = await project.exec(service, ['sh', '-c', 'touch /var/run/platform/pki/probe'], '0');
      expect(pki.stderr, service).toMatch(/Read-only file system/);
      const tmp = await project.exec(service, ['sh', '-c', 'touch /tmp/probe && rm /tmp/probe']);
      expect(tmp.code, `${service}: ${tmp.stderr}`).toBe(0);
    }
    const ro = await podman([
      'inspect',
      '--format',
      '{{.HostConfig.ReadonlyRootfs}}',
      project.container('redis'),
    ]);
    expect(ro.stdout.trim()).toBe('true');
  });

  it("passes compose's health checks: /readyz 200 on both API servers, /healthz on the schedulers", async () => {
    for (const service of keelDaemons) {
      const r = await podman(['healthcheck', 'run', project.container(service)], 60_000);
      expect(r.code, `${service}: ${r.stdout}${r.stderr}`).toBe(0);
      const health = await podman([
        'inspect',
        '--format',
        '{{.State.Health.Status}}',
        project.container(service),
      ]);
      expect(health.stdout.trim(), service).toBe('healthy');
    }
    // The check can fail: the same probe against a path the server answers 404 exits 1.
    const probe = project.file.services['apiserver-1']?.healthcheck?.test[3] ?? '';
    expect(probe).toContain('/readyz');
    const bad = await project.exec('apiserver-1', ['node', '-e', probe.replace('/readyz', '/no-such-path')]);
    expect(bad.code).toBe(1);
  });

  it('elects one scheduler leader, which binds a pod created through one API server and read through the other', async () => {
    const [one = '', two = ''] = servers;
    const holder = await eventually(
      async () =>
        kubectl(admin, one, [
          'get',
          'lease',
          'platform-scheduler',
          '-n',
          'platform-system',
          '-o',
          'jsonpath={.spec.holderIdentity}',
        ]).trim() || undefined,
      60_000,
      'a scheduler leader',
    );
    const logs = await Promise.all(['scheduler-1', 'scheduler-2'].map((s) => project.logs(s)));
    const leaders = logs.filter((l) => /Successfully acquired lease/.test(l));
    expect(leaders.length, logs.join('\n----\n').slice(-4000)).toBe(1);
    // The holder identity names the leader's host: its container's hostname (its id's prefix).
    const leaderIndex = logs.findIndex((l) => /Successfully acquired lease/.test(l));
    const hostname = await project.exec(`scheduler-${leaderIndex + 1}`, ['cat', '/etc/hostname']);
    expect(holder).toContain(hostname.stdout.trim());

    kubectl(admin, two, ['apply', '-f', join(root, 'docs', 'examples')]);
    const node = await eventually(
      async () =>
        kubectl(admin, one, ['get', 'pod', 'hello', '-o', 'jsonpath={.spec.nodeName}']).trim() || undefined,
      60_000,
      'the pod bound',
    );
    expect(node).toBe('node-1');
    const leaderLog = await project.logs(`scheduler-${leaderIndex + 1}`);
    expect(leaderLog).toMatch(/Successfully bound.*hello/);
  }, 180_000);

  it('restarted no container, and SIGTERM stops each daemon with status 0', async () => {
    for (const service of [...keelDaemons, 'redis']) {
      const restarts = await podman(['inspect', '--format', '{{.RestartCount}}', project.container(service)]);
      expect(restarts.stdout.trim(), service).toBe('0');
    }
    // Node is PID 1 in the Keel images and handles SIGTERM itself: a graceful stop exits 0.
    for (const service of ['scheduler-2', 'scheduler-1', 'apiserver-2', 'apiserver-1']) {
      const stop = await podman(['stop', '-t', '60', project.container(service)], 90_000);
      expect(stop.code, `${service}: ${stop.stderr}`).toBe(0);
      const code = await podman(['inspect', '--format', '{{.State.ExitCode}}', project.container(service)]);
      expect(code.stdout.trim(), service).toBe('0');
    }
  }, 300_000);
});
