import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonProcess, runNode, schedulerEntry } from '@keel/testing';
import { describe, expect, it } from 'vitest';

// What the built scheduler does before it can schedule: find its API server.
const noInCluster = { KUBERNETES_SERVICE_HOST: '', KUBERNETES_SERVICE_PORT: '' };

describe('keel-scheduler start-up (built, plain node)', () => {
  it('refuses to start without a connection, with one line as client-go words it', async () => {
    const r = await runNode(schedulerEntry, ['--secure-port=0'], { env: noInCluster });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Error: invalid configuration: no configuration has been provided: give --connection-config or --master ' +
        '(unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined)\n',
    );
  });

  it('names the connection-config file it cannot use', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-sched-start-'));
    const bad = join(dir, 'bad.conf');
    writeFileSync(bad, 'current-context: nowhere\n');
    const r = await runNode(schedulerEntry, ['--secure-port=0', `--connection-config=${bad}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Error: connection-config ${bad}: context "nowhere" not found\n`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('takes clientConnection.kubeconfig from the configuration file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-sched-start-'));
    const cfg = join(dir, 'config.yaml');
    writeFileSync(
      cfg,
      `apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nclientConnection:\n  kubeconfig: ${join(dir, 'missing.conf')}\n`,
    );
    const r = await runNode(schedulerEntry, ['--config', cfg, '--secure-port=0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `Error: connection-config ${join(dir, 'missing.conf')}: no such file or directory`,
    );
  });

  it('keeps running while the API server is unreachable and exits 0 on SIGTERM', async () => {
    const d = DaemonProcess.start(schedulerEntry, ['--secure-port=0', '--master=https://127.0.0.1:1']);
    await d.waitFor(/"Failed to watch" err="GET https:\/\/127\.0\.0\.1:1\/api\/v1\/(pods|nodes)/);
    expect(d.stderr).not.toMatch(/Attempting to acquire leader lease/);
    const r = await d.stop();
    expect(r.code).toBe(0);
  });
});
