import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@keel/testing';

// `keel up` end to end: the built CLI, the real kubectl, the README's examples.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const cli = join(root, 'apps', 'keel', 'dist', 'cli.js');
const examples = join(root, 'docs', 'examples');

function kubectl(config: string, args: string[]): { code: number | null; out: string } {
  const r = spawnSync('kubectl', [`--kubeconfig=${config}`, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, out: r.stdout + r.stderr };
}

interface Running {
  readonly pid: number;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

function keel(args: string[]): Running {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { pid: child.pid ?? 0, output: () => text, exited, kill: (s) => child.kill(s) };
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const running: Running[] = [];
afterAll(() => {
  for (const r of running) r.kill('SIGKILL');
});

describe('keel up', () => {
  it('starts a control plane with fake nodes that schedules the examples, and stops cleanly on Ctrl-C', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-up-'));
    const port = await freePort();
    const up = keel(['up', '--nodes', '3', `--dir=${dir}`, `--port=${port}`]);
    running.push(up);
    const line = await until('the ready line', () => /use it: {2}(kubectl .*)\n/.exec(up.output())?.[1]);
    const config = join(dir, 'connection-config');
    expect(line).toBe(`kubectl --kubeconfig=${config} get pods -A`);
    expect(up.output()).toContain(`keel | control plane ready at https://127.0.0.1:${port} with 3 nodes`);

    const nodes = kubectl(config, ['get', 'nodes', '-o', 'jsonpath={.items[*].metadata.name}']);
    expect(nodes.out.split(' ').sort()).toEqual(['keel-node-1', 'keel-node-2', 'keel-node-3']);
    const applied = kubectl(config, ['apply', '-f', examples]);
    expect(applied.code, applied.out).toBe(0);
    const nodeName = await until('the pod to be bound', () => {
      const r = kubectl(config, ['get', 'pod', 'hello', '-o', 'jsonpath={.spec.nodeName}']);
      return r.code === 0 && r.out !== '' ? r.out : undefined;
    });
    expect(['keel-node-1', 'keel-node-2', 'keel-node-3', 'node-1']).toContain(nodeName);
    // Both daemons' lines, each with its prefix; the scheduler ran as system:kube-scheduler.
    expect(up.output()).toMatch(/^apiserver \| .*Serving securely/m);
    await until('the lease line', () => /^scheduler \| .*Successfully acquired lease/m.exec(up.output()));
    const schedulerConfig = JSON.parse(readFileSync(join(dir, 'scheduler.connection-config'), 'utf8')) as {
      users: { name: string }[];
    };
    expect(schedulerConfig.users[0]?.name).toBe('system:kube-scheduler');

    up.kill('SIGINT');
    expect(await up.exited).toBe(0);
    expect(up.output()).toMatch(/^apiserver \| .*Shut down cleanly/m);
    expect(up.output()).toMatch(/^scheduler \| .*Stopped leading/m);
  });

  it('leaves no daemon running when it is killed with SIGKILL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-up-'));
    const up = keel(['up', '--nodes', '0', `--dir=${dir}`, `--port=${await freePort()}`]);
    running.push(up);
    await until('the ready line', () => (/control plane ready/.test(up.output()) ? true : undefined));
    const children = spawnSync('pgrep', ['-P', String(up.pid)], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean)
      .map(Number);
    expect(children.length).toBe(2);
    up.kill('SIGKILL');
    await up.exited;
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await until('the daemons to exit', () => (children.some(alive) ? undefined : true), 30_000);
  });

  it('refuses a bad option with one line and exit code 1', async () => {
    const r = keel(['up', '--nodes', '-2']);
    expect(await r.exited).toBe(1);
    expect(r.output().trim()).toBe('Error: --nodes must be a whole number, 0 or more');
  });

  it('says why when the API server cannot start, and exits 1', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const r = keel(['up', `--dir=${mkdtempSync(join(tmpdir(), 'keel-up-'))}`, `--port=${port}`]);
      expect(await r.exited).toBe(1);
      expect(r.output()).toMatch(/^Error: the apiserver exited during start-up:\n/m);
      expect(r.output()).not.toMatch(/\n\s+at /);
    } finally {
      taken.close();
    }
  });
});
