import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Duration, NamedFlagSets, parseArgs } from '@keel/flags';
import { defaultSchedulerConfiguration } from './config-defaults.js';
import { loadSchedulerConfigFile, writeEffectiveConfig } from './config-file.js';
import { resolveSchedulerConfiguration } from './resolve.js';
import { SchedulerOptions } from './scheduler-options.js';

const dir = mkdtempSync(join(tmpdir(), 'keel-scheduler-resolve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FILE = join(dir, 'scheduler.yaml');
writeFileSync(
  FILE,
  `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
leaderElection:
  leaseDuration: 40s
  renewDeadline: 30s
  retryPeriod: 5s
  resourceName: file-lock
  resourceNamespace: file-ns
clientConnection:
  kubeconfig: /from/file.conf
  qps: 10
  burst: 20
enableProfiling: false
`,
);

function resolve(argv: string[]) {
  const o = new SchedulerOptions();
  const fss = new NamedFlagSets('keel-scheduler');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  expect(parsed.errors).toEqual([]);
  expect(o.validate()).toEqual([]);
  return resolveSchedulerConfiguration(o, fss);
}

const d = (s: string) => Duration.parse(s);

describe('resolveSchedulerConfiguration without --config', () => {
  it('is the default configuration when no flag is given', () => {
    const r = resolve([]);
    expect(r).toEqual({
      warnings: [],
      scheduler: {
        configuration: defaultSchedulerConfiguration(),
        configFile: '',
        writeConfigTo: '',
        master: '',
        podMaxInUnschedulablePodsDuration: d('5m'),
        cloudvendorContainerRegistryConfig: '',
      },
    });
  });

  it('applies the deprecated flags to the configuration', () => {
    const c = resolve([
      '--platform-api-qps=5',
      '--platform-api-burst=6',
      '--platform-api-content-type=application/json',
      '--connection-config=/etc/sched.conf',
      '--profiling=false',
      '--contention-profiling=false',
      '--lock-object-name=old-lock',
      '--lock-object-namespace=old-ns',
    ]).scheduler?.configuration;
    expect(c?.clientConnection).toEqual({
      kubeconfig: '/etc/sched.conf',
      acceptContentTypes: '',
      contentType: 'application/json',
      qps: 5,
      burst: 6,
    });
    expect([c?.enableProfiling, c?.enableContentionProfiling]).toEqual([false, false]);
    expect([c?.leaderElection.resourceName, c?.leaderElection.resourceNamespace]).toEqual([
      'old-lock',
      'old-ns',
    ]);
  });

  it('lets the new leader election flags win over the deprecated lock-object flags', () => {
    const le = resolve([
      '--lock-object-name=old-lock',
      '--leader-elect-resource-name=new-lock',
      '--lock-object-namespace=old-ns',
    ]).scheduler?.configuration.leaderElection;
    expect([le?.resourceName, le?.resourceNamespace]).toEqual(['new-lock', 'old-ns']);
  });

  it('applies the leader election flags', () => {
    const le = resolve([
      '--leader-elect=false',
      '--leader-elect-lease-duration=1m',
      '--leader-elect-resource-lock=configmapsleases',
    ]).scheduler?.configuration.leaderElection;
    expect(le).toMatchObject({
      leaderElect: false,
      leaseDuration: d('1m'),
      resourceLock: 'configmapsleases',
      renewDeadline: d('10s'),
    });
  });

  it('keeps the flag-only settings', () => {
    const s = resolve([
      '--master=https://10.0.0.1:6443',
      '--pod-max-in-unschedulable-pods-duration=2m',
      '--write-config-to=/tmp/x.yaml',
    ]).scheduler;
    expect([s?.master, s?.podMaxInUnschedulablePodsDuration, s?.writeConfigTo]).toEqual([
      'https://10.0.0.1:6443',
      d('2m'),
      '/tmp/x.yaml',
    ]);
  });

  it.each<[string, string[], string[]]>([
    [
      'lease vs renew, named by flag',
      ['--leader-elect-renew-deadline=20s'],
      ['--leader-elect-lease-duration (15s) must be greater than --leader-elect-renew-deadline (20s)'],
    ],
    [
      'an empty lock name given through the deprecated flag names that flag',
      ['--lock-object-name='],
      ['--lock-object-name must not be empty'],
    ],
    [
      'the new flag is named when it supplied the value',
      ['--lock-object-name=x', '--leader-elect-resource-name='],
      ['--leader-elect-resource-name must not be empty'],
    ],
  ])('reports %s', (_name, argv, errors) => {
    expect(resolve(argv)).toEqual({ errors, warnings: [] });
  });
});

describe('resolveSchedulerConfiguration with --config', () => {
  it('uses the file', () => {
    const r = resolve([`--config=${FILE}`]);
    expect(r.warnings).toEqual([]);
    const c = r.scheduler?.configuration;
    expect(c?.clientConnection).toMatchObject({ kubeconfig: '/from/file.conf', qps: 10, burst: 20 });
    expect(c?.enableProfiling).toBe(false);
    expect(c?.leaderElection).toMatchObject({ leaseDuration: d('40s'), resourceName: 'file-lock' });
    expect(r.scheduler?.configFile).toBe(FILE);
  });

  it('ignores every deprecated flag the user set, with one warning each', () => {
    const r = resolve([
      `--config=${FILE}`,
      '--contention-profiling=false',
      '--profiling=true',
      '--platform-api-burst=1',
      '--platform-api-content-type=application/json',
      '--platform-api-qps=1',
      '--connection-config=/flag.conf',
      '--lock-object-name=flag-lock',
      '--lock-object-namespace=flag-ns',
    ]);
    expect(r.warnings).toEqual(
      [
        'contention-profiling',
        'profiling',
        'platform-api-burst',
        'platform-api-content-type',
        'platform-api-qps',
        'connection-config',
        'lock-object-name',
        'lock-object-namespace',
      ].map((n) => `--${n} is deprecated and ignored because --config is given`),
    );
    expect(r.scheduler?.configuration).toEqual(loadSchedulerConfigFile(FILE).config);
  });

  it('lets explicitly set --leader-elect* flags override the file, and only those', () => {
    const le = resolve([
      `--config=${FILE}`,
      '--leader-elect-lease-duration=45s',
      '--leader-elect-resource-namespace=flag-ns',
    ]).scheduler?.configuration.leaderElection;
    expect(le).toEqual({
      leaderElect: true,
      leaseDuration: d('45s'),
      renewDeadline: d('30s'),
      retryPeriod: d('5s'),
      resourceLock: 'leases',
      resourceName: 'file-lock',
      resourceNamespace: 'flag-ns',
    });
  });

  it('applies --master and the pod max duration regardless of the file', () => {
    const s = resolve([
      `--config=${FILE}`,
      '--master=http://127.0.0.1:8080',
      '--pod-max-in-unschedulable-pods-duration=1m',
    ]).scheduler;
    expect([s?.master, s?.podMaxInUnschedulablePodsDuration]).toEqual(['http://127.0.0.1:8080', d('1m')]);
  });

  it('validates the merged result: a flag can fix what the file alone would not allow', () => {
    const bad = join(dir, 'short-lease.yaml');
    writeFileSync(
      bad,
      'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nleaderElection:\n  leaseDuration: 5s\n',
    );
    expect(loadSchedulerConfigFile(bad).errors).toEqual([
      `${bad}: leaderElection.leaseDuration (5s) must be greater than leaderElection.renewDeadline (10s)`,
    ]);
    expect(resolve([`--config=${bad}`]).errors).toEqual([
      `${bad}: leaderElection.leaseDuration (5s) must be greater than leaderElection.renewDeadline (10s)`,
    ]);
    expect(resolve([`--config=${bad}`, '--leader-elect-renew-deadline=4s']).errors).toBeUndefined();
  });

  it('names the flag that broke the merged result, and the file field it clashes with', () => {
    expect(resolve([`--config=${FILE}`, '--leader-elect-lease-duration=30s']).errors).toEqual([
      `${FILE}: --leader-elect-lease-duration (30s) must be greater than leaderElection.renewDeadline (30s)`,
    ]);
  });

  it('returns the file errors, keeping the deprecated-flag warnings', () => {
    const missing = join(dir, 'missing.yaml');
    expect(resolve([`--config=${missing}`, '--profiling=false'])).toEqual({
      errors: [`${missing}: cannot read the scheduler configuration: ENOENT: no such file or directory`],
      warnings: ['--profiling is deprecated and ignored because --config is given'],
    });
  });

  it('writes an effective configuration that loads back identical (--write-config-to round trip)', () => {
    const out = join(dir, 'effective.yaml');
    const r = resolve([`--config=${FILE}`, `--write-config-to=${out}`, '--leader-elect-retry-period=3s']);
    const config = r.scheduler?.configuration;
    expect(config).toBeDefined();
    if (!config) return;
    expect(writeEffectiveConfig(r.scheduler?.writeConfigTo ?? '', config)).toEqual([]);
    expect(loadSchedulerConfigFile(out)).toEqual({ config, warnings: [] });
  });
});
