import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Duration } from '@keel/flags';
import { defaultSchedulerConfiguration } from './config-defaults.js';
import { loadSchedulerConfigFile, serializeSchedulerConfig, writeEffectiveConfig } from './config-file.js';
import { DEFAULT_MULTI_POINT, type SchedulerConfiguration } from './config-types.js';

const dir = mkdtempSync(join(tmpdir(), 'keel-scheduler-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function file(text: string, ext = 'yaml'): string {
  const path = join(dir, `config-${++counter}.${ext}`);
  writeFileSync(path, text);
  return path;
}

const ONE_OF = `expected one of ${['v1beta1', 'v1beta2', 'v1beta3', 'v1'].map((v) => `"kubescheduler.config.k8s.io/${v}"`).join(', ')}`;

const HEADER = 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n';

function load(body: string): { path: string; result: ReturnType<typeof loadSchedulerConfigFile> } {
  const path = file(HEADER + body);
  return { path, result: loadSchedulerConfigFile(path) };
}

function errorsOf(body: string): string[] {
  const { path, result } = load(body);
  // Every line names the file; the assertions below compare the rest.
  return (result.errors ?? []).map((e) => {
    expect(e.startsWith(`${path}: `)).toBe(true);
    return e.slice(path.length + 2);
  });
}

describe('loadSchedulerConfigFile: valid files', () => {
  it('defaults a minimal file to the full effective configuration', () => {
    const { result } = load('');
    expect(result.errors).toBeUndefined();
    expect(result.config).toEqual(defaultSchedulerConfiguration());
    const c = result.config as SchedulerConfiguration;
    expect(c.parallelism).toBe(16);
    expect(c.percentageOfNodesToScore).toBe(0);
    expect([c.podInitialBackoffSeconds, c.podMaxBackoffSeconds]).toEqual([1, 10]);
    expect(c.clientConnection).toEqual({
      kubeconfig: '',
      acceptContentTypes: '',
      contentType: 'application/json',
      qps: 50,
      burst: 100,
    });
    expect(c.leaderElection.resourceName).toBe('platform-scheduler');
    expect(c.profiles).toHaveLength(1);
    expect(c.profiles[0]?.schedulerName).toBe('default-scheduler');
    expect(c.profiles[0]?.plugins.multiPoint.enabled).toEqual(DEFAULT_MULTI_POINT);
    expect(c.profiles[0]?.plugins.filter).toEqual({ enabled: [], disabled: [] });
    expect(c.extenders).toEqual([]);
    expect(c.delayCacheUntilActive).toBe(false);
  });

  it('reads every field of a YAML file', () => {
    const { result } = load(`
parallelism: 8
leaderElection:
  leaderElect: false
  leaseDuration: 30s
  renewDeadline: 20s
  retryPeriod: 4s
  resourceLock: endpointsleases
  resourceName: sched
  resourceNamespace: ops
clientConnection:
  kubeconfig: /etc/keel/scheduler.conf
  acceptContentTypes: application/json
  contentType: application/json
  qps: 20.5
  burst: 40
enableProfiling: false
enableContentionProfiling: false
percentageOfNodesToScore: 50
podInitialBackoffSeconds: 2
podMaxBackoffSeconds: 20
delayCacheUntilActive: true
profiles:
  - schedulerName: default-scheduler
    percentageOfNodesToScore: 30
    plugins:
      score:
        enabled:
          - name: NodeAffinity
            weight: 5
      multiPoint:
        disabled:
          - name: NodePorts
    pluginConfig:
      - name: NodeResourcesFit
        args:
          scoringStrategy:
            type: MostAllocated
  - schedulerName: second
`);
    expect(result.errors).toBeUndefined();
    const c = result.config as SchedulerConfiguration;
    expect(c.parallelism).toBe(8);
    expect(c.leaderElection).toEqual({
      leaderElect: false,
      leaseDuration: Duration.parse('30s'),
      renewDeadline: Duration.parse('20s'),
      retryPeriod: Duration.parse('4s'),
      resourceLock: 'endpointsleases',
      resourceName: 'sched',
      resourceNamespace: 'ops',
    });
    expect(c.clientConnection).toEqual({
      kubeconfig: '/etc/keel/scheduler.conf',
      acceptContentTypes: 'application/json',
      contentType: 'application/json',
      qps: 20.5,
      burst: 40,
    });
    expect([c.enableProfiling, c.enableContentionProfiling, c.percentageOfNodesToScore]).toEqual([
      false,
      false,
      50,
    ]);
    expect([c.podInitialBackoffSeconds, c.podMaxBackoffSeconds, c.delayCacheUntilActive]).toEqual([
      2,
      20,
      true,
    ]);
    const [first, second] = c.profiles;
    expect(first?.percentageOfNodesToScore).toBe(30);
    expect(first?.plugins.score).toEqual({ enabled: [{ name: 'NodeAffinity', weight: 5 }], disabled: [] });
    expect(first?.plugins.multiPoint.disabled).toEqual([{ name: 'NodePorts' }]);
    expect(first?.plugins.multiPoint.enabled.map((p) => p.name)).not.toContain('NodePorts');
    expect(first?.pluginConfig).toEqual([
      { name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated' } } },
    ]);
    expect(second?.schedulerName).toBe('second');
    expect(second?.percentageOfNodesToScore).toBeUndefined();
    expect(second?.plugins.multiPoint.enabled).toEqual(DEFAULT_MULTI_POINT);
  });

  it('reads JSON, which the YAML parser accepts as is', () => {
    const path = file(
      JSON.stringify({
        apiVersion: 'kubescheduler.config.k8s.io/v1',
        kind: 'KubeSchedulerConfiguration',
        parallelism: 4,
        leaderElection: { leaseDuration: '1m0s' },
        profiles: [{ schedulerName: 'json-scheduler', plugins: { filter: { disabled: [{ name: '*' }] } } }],
      }),
      'json',
    );
    const result = loadSchedulerConfigFile(path);
    expect(result.errors).toBeUndefined();
    expect(result.config?.parallelism).toBe(4);
    expect(result.config?.leaderElection.leaseDuration).toEqual(Duration.parse('1m'));
    expect(result.config?.profiles[0]?.schedulerName).toBe('json-scheduler');
    expect(result.config?.profiles[0]?.plugins.filter.disabled).toEqual([{ name: '*' }]);
  });

  it('treats null values as absent, like Go’s decoder (`profiles:` with nothing after it)', () => {
    const { result } = load('profiles:\nextenders:\nclientConnection:\n  qps: null\n');
    expect(result.errors).toBeUndefined();
    expect(result.config).toEqual(defaultSchedulerConfiguration());
  });

  it('accepts weight 0, as kube-scheduler writes it for plugins without a score', () => {
    const { result } = load(
      'profiles:\n- plugins:\n    multiPoint:\n      enabled:\n      - name: PrioritySort\n        weight: 0\n',
    );
    expect(result.errors).toBeUndefined();
  });

  it('reads extenders with zero values for unset fields, without a warning', () => {
    const { result } = load('extenders:\n- urlPrefix: http://127.0.0.1:8888/\n  filterVerb: filter\n');
    expect(result.config?.extenders).toEqual([
      expect.objectContaining({
        urlPrefix: 'http://127.0.0.1:8888/',
        filterVerb: 'filter',
        weight: 0,
        ignorable: false,
      }),
    ]);
    expect(result.config?.extenders[0]?.httpTimeout.toString()).toBe('0s');
    expect(result.warnings).toEqual([]);
  });
});

describe('loadSchedulerConfigFile: one clear line for an unusable file', () => {
  it.each<[string, string, string]>([
    [
      'bad YAML',
      'a: b: c\n',
      'invalid YAML: Nested mappings are not allowed in compact mappings at line 1, column 4',
    ],
    [
      'duplicate keys',
      `${HEADER}parallelism: 1\nparallelism: 2\n`,
      'invalid YAML: Map keys must be unique at line 4, column 1',
    ],
    ['empty file', '', 'the file is empty; expected a KubeSchedulerConfiguration'],
    ['a list', '- a\n- b\n', 'expected a KubeSchedulerConfiguration mapping, got a list'],
    ['a scalar', 'hello\n', 'expected a KubeSchedulerConfiguration mapping, got string'],
    [
      'wrong kind',
      'apiVersion: kubescheduler.config.k8s.io/v1\nkind: Pod\n',
      'kind "Pod" is not supported; expected "KubeSchedulerConfiguration"',
    ],
    [
      'removed apiVersion',
      'apiVersion: kubescheduler.config.k8s.io/v1alpha2\nkind: KubeSchedulerConfiguration\n',
      `apiVersion "kubescheduler.config.k8s.io/v1alpha2" is not supported; ${ONE_OF}`,
    ],
    [
      'neutral-word apiVersion',
      'apiVersion: kubescheduler.config.platform.io/v1\nkind: KubeSchedulerConfiguration\n',
      `apiVersion "kubescheduler.config.platform.io/v1" is not supported; ${ONE_OF}`,
    ],
    ['missing apiVersion', 'kind: KubeSchedulerConfiguration\n', `apiVersion is missing; ${ONE_OF}`],
  ])('%s', (_name, text, expected) => {
    const path = file(text);
    expect(loadSchedulerConfigFile(path)).toEqual({ errors: [`${path}: ${expected}`] });
  });

  it('reports a missing file without a stack trace', () => {
    const path = join(dir, 'does-not-exist.yaml');
    expect(loadSchedulerConfigFile(path)).toEqual({
      errors: [`${path}: cannot read the scheduler configuration: ENOENT: no such file or directory`],
    });
  });

  it('reports a directory given as the file', () => {
    const sub = join(dir, 'a-directory');
    mkdirSync(sub);
    expect(loadSchedulerConfigFile(sub)).toEqual({
      errors: [`${sub}: cannot read the scheduler configuration: EISDIR: illegal operation on a directory`],
    });
  });
});

describe('loadSchedulerConfigFile: structure errors name the field path', () => {
  it.each<[string, string, string[]]>([
    ['unknown top-level field', 'schedulerName: x\n', ['schedulerName: unknown field']],
    [
      'unknown nested fields',
      'leaderElection:\n  leaseDurationSeconds: 15\nprofiles:\n- schedulerName: a\n  plugin: {}\n',
      ['leaderElection.leaseDurationSeconds: unknown field', 'profiles[0].plugin: unknown field'],
    ],
    [
      'unknown extension point',
      'profiles:\n- plugins:\n    sort: {}\n',
      ['profiles[0].plugins.sort: unknown field'],
    ],
    [
      'missing plugin name',
      'profiles:\n- plugins:\n    filter:\n      enabled:\n      - name: NodeName\n      - weight: 2\n',
      ['profiles[0].plugins.filter.enabled[1].name: Required'],
    ],
    [
      'wrong types',
      'parallelism: "16"\ndelayCacheUntilActive: yes\n',
      [
        'parallelism: expected a number, got string "16"',
        'delayCacheUntilActive: expected true or false, got string "yes"',
      ],
    ],
    [
      'fraction where an integer is needed',
      'podMaxBackoffSeconds: 1.5\n',
      ['podMaxBackoffSeconds: expected an integer, got number 1.5'],
    ],
    [
      'int32 overflow',
      'parallelism: 3000000000\n',
      ['parallelism: must be at most 2147483647, got number 3000000000'],
    ],
    ['profiles not a list', 'profiles:\n  schedulerName: x\n', ['profiles: expected a list, got a mapping']],
    [
      'bad duration',
      'leaderElection:\n  leaseDuration: 15\n',
      ['leaderElection.leaseDuration: expected a string, got number 15'],
    ],
    [
      'bad duration text',
      'leaderElection:\n  renewDeadline: 10 seconds\n',
      ['leaderElection.renewDeadline: time: unknown unit " seconds" in duration "10 seconds"'],
    ],
    [
      'plugin args not a mapping',
      'profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: [1]\n',
      ['profiles[0].pluginConfig[0].args: expected a mapping, got a list'],
    ],
  ])('%s', (_name, body, expected) => {
    expect(errorsOf(body)).toEqual(expected);
  });
});

describe('serializeSchedulerConfig and writeEffectiveConfig', () => {
  it('writes YAML with apiVersion and kind first and Go durations', () => {
    const text = serializeSchedulerConfig(defaultSchedulerConfiguration());
    expect(
      text.startsWith(
        'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nparallelism: 16\n',
      ),
    ).toBe(true);
    expect(text).toContain('  leaseDuration: 15s\n  renewDeadline: 10s\n  retryPeriod: 2s\n');
    expect(text).toContain('          - name: TaintToleration\n            weight: 3\n');
    expect(text).not.toContain('&');
  });

  it.each([
    ['the defaults', ''],
    [
      'a customised file',
      'leaderElection:\n  leaseDuration: 1h30m\n  renewDeadline: 90.5s\n  retryPeriod: 250ms\nprofiles:\n- schedulerName: a\n  plugins:\n    multiPoint:\n      enabled:\n      - name: NodeAffinity\n        weight: 7\n      disabled:\n      - name: NodePorts\n    filter:\n      disabled:\n      - name: "*"\n  pluginConfig:\n  - name: NodeResourcesFit\n    args: {x: 1}\n- schedulerName: b\n  percentageOfNodesToScore: 10\nextenders:\n- urlPrefix: http://x/\n- urlPrefix: https://y/\n  prioritizeVerb: prioritize\n  weight: 2\n  httpTimeout: 1m30s\n  tlsConfig:\n    caData: QUJD\n  managedResources:\n  - name: example.com/gpu\n    ignoredByScheduler: true\n',
    ],
  ])('round-trips %s: what is written loads back to the same configuration', (_name, body) => {
    const { result } = load(body);
    expect(result.errors).toBeUndefined();
    const config = result.config as SchedulerConfiguration;
    const out = join(dir, `written-${++counter}.yaml`);
    expect(writeEffectiveConfig(out, config)).toEqual([]);
    const again = loadSchedulerConfigFile(out);
    expect(again.errors).toBeUndefined();
    expect(again.config).toEqual(config);
    // Loading is idempotent on plugin merging: the default plugins are not added twice.
    expect(readFileSync(out, 'utf8')).toBe(serializeSchedulerConfig(again.config as SchedulerConfiguration));
  });

  it('reports a path that cannot be written', () => {
    const out = join(dir, 'missing-dir', 'out.yaml');
    expect(writeEffectiveConfig(out, defaultSchedulerConfiguration())).toEqual([
      `--write-config-to: cannot write ${out}: ENOENT: no such file or directory`,
    ]);
  });
});
