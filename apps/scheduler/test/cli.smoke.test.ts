import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DaemonProcess, runNode, specOptions, schedulerEntry } from '@keel/testing';
import { describe, expect, it } from 'vitest';

// These run the BUILT entry point with plain node: vitest resolves CommonJS named imports that
// real Node rejects, so only this catches a daemon that cannot start outside the test runner.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const entry = schedulerEntry;
// The scheduler refuses to start without an API server to talk to; nothing listens on port 1, so
// it runs with its informers retrying, which is all these tests need.
const unreachable = '--master=https://127.0.0.1:1';
const noServe = ['--secure-port=0', '--leader-elect=false', unreachable];

describe('keel-scheduler command line (built, plain node)', () => {
  it('--help lists every scheduler option of the spec, in named sections', async () => {
    const r = await runNode(entry, ['--help']);
    expect(r.code).toBe(0);
    for (const name of specOptions(root).scheduler) {
      expect(r.stdout, `--${name}`).toMatch(new RegExp(`--${name}[ =\\[]`));
    }
    for (const section of [
      'Misc',
      'Secure serving',
      'Authentication',
      'Authorization',
      'Deprecated',
      'Leader election',
      'Features',
      'Metrics',
      'Logs',
      'Global',
    ]) {
      expect(r.stdout).toContain(`\n${section} flags:\n`);
    }
    expect(r.stdout).toContain('--leader-elect-lease-duration duration');
    expect(r.stdout).toContain('(default 15s)');
  });

  it('--version prints the version and exits 0', async () => {
    const r = await runNode(entry, ['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Keel v\d+\.\d+\.\d+\n$/);
  });

  it('reports every bad flag on its own line, exits 1, never a stack trace', async () => {
    const r = await runNode(entry, [
      '--bogus',
      '--secure-port=abc',
      '--leader-elect-lease-duration=1s',
      '--leader-elect-resource-lock=files',
      '--logging-format=json',
      'stray',
    ]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toContain('Error: unknown flag: --bogus');
    expect(lines).toContain(
      'Error: invalid argument "abc" for "--secure-port" flag: strconv.ParseInt: parsing "abc": invalid syntax',
    );
    expect(lines).toContain('Error: "keel-scheduler" does not take any arguments, got ["stray"]');
    expect(lines.some((l) => l.includes('--leader-elect-resource-lock') && l.includes('files'))).toBe(true);
    expect(lines.some((l) => l.includes('--logging-format') && l.includes('json'))).toBe(true);
    expect(lines.some((l) => l.includes('--leader-elect-lease-duration (1s)'))).toBe(true);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('--feature-gates refuses a gate Keel fixes, with one line and exit 1', async () => {
    const r = await runNode(entry, ['--feature-gates=SchedulerPopFromBackoffQ=true', ...noServe]);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('Error: '))).toEqual([
      'Error: cannot set feature gate SchedulerPopFromBackoffQ to true: Keel pops pods only from the active queue, so a pod in backoff always waits its backoff out',
    ]);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("--feature-gates accepts a fixed gate at Keel's value", async () => {
    const d = DaemonProcess.start(entry, [...noServe, '--feature-gates=SchedulerAsyncPreemption=true']);
    await d.waitFor(/Starting Keel scheduler/);
    expect((await d.stop()).code).toBe(0);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('runs until %s, then exits 0', async (sig) => {
    const d = DaemonProcess.start(entry, [...noServe, '-v=1']);
    await d.waitFor(/Starting Keel scheduler/);
    expect(d.stderr).toMatch(
      /^I\d{4} \d{2}:\d{2}:\d{2}\.\d{6} +\d+ [\w.-]+:\d+\] "FLAG: --leader-elect=\\"false\\""/m,
    );
    const r = await d.stop(sig);
    expect(r.code).toBe(0);
  });

  it('--write-config-to writes the effective configuration and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-sched-'));
    const out = join(dir, 'effective.yaml');
    const r = await runNode(entry, ['--write-config-to', out, '--leader-elect-resource-name=mine']);
    expect(r.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('kind: KubeSchedulerConfiguration');
    expect(text).toContain('resourceName: mine');
    expect(text).toContain('leaseDuration: 15s');
  });

  it('--write-config-to writes a v1beta1 file as v1, which reads back to the same configuration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-sched-'));
    const cfg = join(dir, 'old.yaml');
    writeFileSync(
      cfg,
      'apiVersion: kubescheduler.config.k8s.io/v1beta1\nkind: KubeSchedulerConfiguration\n' +
        'profiles:\n- plugins:\n    score:\n      enabled: [{name: NodeResourcesLeastAllocated, weight: 4}]\n',
    );
    const first = join(dir, 'first.yaml');
    const second = join(dir, 'second.yaml');
    expect((await runNode(entry, ['--config', cfg, '--write-config-to', first])).code).toBe(0);
    const text = readFileSync(first, 'utf8');
    expect(
      text.startsWith('apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n'),
    ).toBe(true);
    expect(text).toMatch(/- name: NodeResourcesFit\n +weight: 4\n/);
    expect((await runNode(entry, ['--config', first, '--write-config-to', second])).code).toBe(0);
    expect(readFileSync(second, 'utf8')).toBe(text);
  });

  it('ignores deprecated flags with a warning when --config is given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-sched-'));
    const cfg = join(dir, 'config.yaml');
    writeFileSync(
      cfg,
      'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nleaderElection:\n  leaderElect: false\n',
    );
    const d = DaemonProcess.start(entry, [
      '--config',
      cfg,
      unreachable,
      '--secure-port=0',
      '--lock-object-name=old',
      '--platform-api-qps=5',
    ]);
    await d.waitFor(/Starting Keel scheduler/);
    expect(d.stderr).toContain(
      'Flag --lock-object-name has been deprecated, use --leader-elect-resource-name instead',
    );
    expect(d.stderr).toMatch(/--platform-api-qps.*ignored/);
    expect((await d.stop()).code).toBe(0);
  });

  it('names the field of a bad configuration file and does not start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-sched-'));
    const cfg = join(dir, 'config.yaml');
    writeFileSync(
      cfg,
      'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npodInitialBackoffSeconds: 0\nprofiles:\n- schedulerName: a\n  bogus: 1\n',
    );
    const r = await runNode(entry, ['--config', cfg]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('profiles[0].bogus');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
