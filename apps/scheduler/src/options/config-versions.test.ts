import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSchedulerConfiguration } from './config-defaults.js';
import { loadSchedulerConfigFile, writeEffectiveConfig } from './config-file.js';
import type { PluginSet, SchedulerConfiguration, SchedulerProfile } from './config-types.js';

const dir = mkdtempSync(join(tmpdir(), 'keel-scheduler-versions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function load(version: string, body: string) {
  const path = join(dir, `config-${++counter}.yaml`);
  writeFileSync(
    path,
    `apiVersion: kubescheduler.config.k8s.io/${version}\nkind: KubeSchedulerConfiguration\n${body}`,
  );
  return { path, result: loadSchedulerConfigFile(path) };
}

function profileOf(version: string, body = ''): SchedulerProfile {
  const { result } = load(version, body);
  expect(result.errors).toBeUndefined();
  return (result.config as SchedulerConfiguration).profiles[0] as SchedulerProfile;
}

function errorsOf(version: string, body: string): string[] {
  const { path, result } = load(version, body);
  return (result.errors ?? []).map((e) => {
    expect(e.startsWith(`${path}: `)).toBe(true);
    return e.slice(path.length + 2);
  });
}

const names = (set: PluginSet) => set.enabled.map((p) => p.name);
const weights = (set: PluginSet) => Object.fromEntries(set.enabled.map((p) => [p.name, p.weight]));

/** kube-scheduler's v1beta1/v1beta2 score weights, restricted to the plugins Keel has. */
const BETA_SCORE_WEIGHTS = {
  NodeResourcesBalancedAllocation: 1,
  ImageLocality: 1,
  InterPodAffinity: 1,
  NodeResourcesFit: 1,
  NodeAffinity: 1,
  PodTopologySpread: 2,
  TaintToleration: 1,
};

describe('v1beta1', () => {
  it('defaults to the per-extension-point plugin sets and weights of kube-scheduler 1.20', () => {
    const p = profileOf('v1beta1');
    expect(p.plugins.multiPoint).toEqual({ enabled: [], disabled: [{ name: '*' }] });
    expect(weights(p.plugins.score)).toEqual(BETA_SCORE_WEIGHTS);
    expect(names(p.plugins.queueSort)).toEqual(['PrioritySort']);
    expect(names(p.plugins.preScore)).toEqual(['InterPodAffinity', 'PodTopologySpread', 'TaintToleration']);
    expect(names(p.plugins.filter).slice(0, 6)).toEqual([
      'NodeUnschedulable',
      'NodeName',
      'TaintToleration',
      'NodeAffinity',
      'NodePorts',
      'NodeResourcesFit',
    ]);
    expect(names(p.plugins.bind)).toEqual(['DefaultBinder']);
    expect(names(p.plugins.preEnqueue)).toEqual(['SchedulingGates']);
    expect(p.pluginConfig).toEqual([]);
  });

  it('converts NodeResourcesLeastAllocated to NodeResourcesFit, keeping the weight and its place', () => {
    const p = profileOf(
      'v1beta1',
      `profiles:
- plugins:
    score:
      enabled: [{name: NodeResourcesLeastAllocated, weight: 5}]
  pluginConfig:
  - name: NodeResourcesLeastAllocated
    args: {kind: NodeResourcesLeastAllocatedArgs, resources: [{name: cpu, weight: 3}]}
  - name: NodeResourcesFit
    args: {ignoredResources: [example.com/foo]}
`,
    );
    expect(p.plugins.score.enabled[3]).toEqual({ name: 'NodeResourcesFit', weight: 5 });
    expect(p.pluginConfig).toEqual([
      {
        name: 'NodeResourcesFit',
        args: {
          ignoredResources: ['example.com/foo'],
          scoringStrategy: { type: 'LeastAllocated', resources: [{ name: 'cpu', weight: 3 }] },
        },
      },
    ]);
  });

  it('converts NodeResourcesMostAllocated to NodeResourcesFit with the MostAllocated strategy', () => {
    const p = profileOf(
      'v1beta1',
      `profiles:
- plugins:
    score:
      disabled: [{name: NodeResourcesLeastAllocated}]
      enabled: [{name: NodeResourcesMostAllocated, weight: 2}]
`,
    );
    expect(weights(p.plugins.score).NodeResourcesFit).toBe(2);
    expect(names(p.plugins.score).filter((n) => n === 'NodeResourcesFit')).toHaveLength(1);
    expect(p.pluginConfig).toEqual([
      { name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated' } } },
    ]);
  });

  it("keeps v1beta1's List defaulting for PodTopologySpread defaultConstraints", () => {
    const p = profileOf(
      'v1beta1',
      `profiles:
- pluginConfig:
  - name: PodTopologySpread
    args:
      defaultConstraints:
      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}
`,
    );
    expect(p.pluginConfig[0]?.args.defaultingType).toBe('List');
  });

  it('turns the args of a v1beta1 file into v1 args', () => {
    const p = profileOf(
      'v1beta1',
      `profiles:
- pluginConfig:
  - name: InterPodAffinity
    args: {apiVersion: kubescheduler.config.k8s.io/v1beta1, kind: InterPodAffinityArgs, hardPodAffinityWeight: 2}
`,
    );
    expect(p.pluginConfig).toEqual([
      {
        name: 'InterPodAffinity',
        args: {
          apiVersion: 'kubescheduler.config.k8s.io/v1',
          kind: 'InterPodAffinityArgs',
          hardPodAffinityWeight: 2,
        },
      },
    ]);
  });

  it('ignores disabling a plugin Keel never runs', () => {
    const p = profileOf(
      'v1beta1',
      'profiles:\n- plugins:\n    score:\n      disabled: [{name: NodePreferAvoidPods}]\n',
    );
    expect(weights(p.plugins.score)).toEqual(BETA_SCORE_WEIGHTS);
  });

  it('warns that the insecure-port addresses are ignored', () => {
    const { path, result } = load('v1beta1', 'healthzBindAddress: 0.0.0.0:10251\n');
    expect(result.warnings).toEqual([
      `${path}: healthzBindAddress is ignored: Keel has no insecure port and serves /healthz and /metrics on --secure-port only`,
    ]);
  });

  it.each([
    [
      'a removed plugin',
      'profiles:\n- plugins:\n    score:\n      enabled: [{name: NodeLabel}]\n',
      'profiles[0].plugins.score.enabled[0].name "NodeLabel": kube-scheduler removed this plugin in v1beta2 (1.22) and Keel does not implement it; use node affinity',
    ],
    [
      'removed plugin args',
      'profiles:\n- pluginConfig:\n  - {name: ServiceAffinity, args: {affinityLabels: [zone]}}\n',
      'profiles[0].pluginConfig[0].name "ServiceAffinity": kube-scheduler removed this plugin in v1beta2 (1.22) and Keel does not implement it; use inter-pod affinity',
    ],
    [
      'RequestedToCapacityRatio',
      'profiles:\n- plugins:\n    score:\n      enabled: [{name: RequestedToCapacityRatio}]\n',
      `profiles[0].plugins.score.enabled[0].name "RequestedToCapacityRatio": Keel's NodeResourcesFit has no RequestedToCapacityRatio scoring strategy`,
    ],
    [
      'two resource strategies',
      'profiles:\n- plugins:\n    score:\n      enabled: [{name: NodeResourcesMostAllocated}]\n',
      `profiles[0].plugins.score.enabled[0].name "NodeResourcesMostAllocated": cannot score together with NodeResourcesLeastAllocated (Keel runs both as NodeResourcesFit's scoringStrategy); disable NodeResourcesLeastAllocated in score`,
    ],
    [
      'NodeResourcesFit as a score plugin',
      'profiles:\n- plugins:\n    score:\n      enabled: [{name: NodeResourcesFit}]\n',
      'profiles[0].plugins.score.enabled[0].name "NodeResourcesFit": does not score in v1beta1; enable NodeResourcesLeastAllocated or NodeResourcesMostAllocated',
    ],
    [
      'v1beta2 scoringStrategy',
      'profiles:\n- pluginConfig:\n  - {name: NodeResourcesFit, args: {scoringStrategy: {type: MostAllocated}}}\n',
      'profiles[0].pluginConfig[0].args.scoringStrategy: unknown field (v1beta1 scores with NodeResourcesLeastAllocated or NodeResourcesMostAllocated)',
    ],
    [
      'multiPoint',
      'profiles:\n- plugins:\n    multiPoint: {}\n',
      'profiles[0].plugins.multiPoint: unknown field',
    ],
    [
      'preEnqueue',
      'profiles:\n- plugins:\n    preEnqueue: {}\n',
      'profiles[0].plugins.preEnqueue: unknown field',
    ],
    [
      'a per-profile percentage',
      'profiles:\n- percentageOfNodesToScore: 10\n',
      'profiles[0].percentageOfNodesToScore: unknown field',
    ],
    ['delayCacheUntilActive', 'delayCacheUntilActive: true\n', 'delayCacheUntilActive: unknown field'],
  ])('refuses %s with one line naming the field', (_name, body, expected) => {
    expect(errorsOf('v1beta1', body)).toEqual([expected]);
  });
});

describe('v1beta2', () => {
  it('defaults to per-extension-point sets with NodeResourcesFit scoring and the old weights', () => {
    const p = profileOf('v1beta2');
    expect(weights(p.plugins.score)).toEqual(BETA_SCORE_WEIGHTS);
    expect(names(p.plugins.preScore)).toEqual([
      'InterPodAffinity',
      'PodTopologySpread',
      'TaintToleration',
      'NodeAffinity',
    ]);
    expect(p.plugins.multiPoint.enabled).toEqual([]);
  });

  it('accepts scoringStrategy and custom weights', () => {
    const p = profileOf(
      'v1beta2',
      `profiles:
- plugins:
    score:
      enabled: [{name: TaintToleration, weight: 7}]
  pluginConfig:
  - {name: NodeResourcesFit, args: {scoringStrategy: {type: MostAllocated}}}
`,
    );
    expect(weights(p.plugins.score).TaintToleration).toBe(7);
    expect(p.pluginConfig[0]?.args).toEqual({ scoringStrategy: { type: 'MostAllocated' } });
  });

  it.each([
    [
      'multiPoint',
      'profiles:\n- plugins:\n    multiPoint:\n      enabled: [{name: NodeName}]\n',
      'profiles[0].plugins.multiPoint: not honoured in v1beta2 (kube-scheduler drops it when defaulting); use kubescheduler.config.k8s.io/v1beta3 or v1',
    ],
    [
      'the v1beta1 scoring plugins',
      'profiles:\n- plugins:\n    score:\n      enabled: [{name: NodeResourcesLeastAllocated}]\n',
      'profiles[0].plugins.score.enabled[0].name "NodeResourcesLeastAllocated" is not a known plugin; known plugins: ',
    ],
    [
      'a per-profile percentage',
      'profiles:\n- percentageOfNodesToScore: 10\n',
      'profiles[0].percentageOfNodesToScore: unknown field',
    ],
  ])('refuses %s', (_name, body, expected) => {
    const errors = errorsOf('v1beta2', body);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.startsWith(expected)).toBe(true);
  });
});

describe('v1beta3', () => {
  it("defaults exactly as v1: multiPoint with v1's weights (TaintToleration 3, NodeAffinity 2, InterPodAffinity 2)", () => {
    const { result } = load('v1beta3', '');
    expect(result.config).toEqual(defaultSchedulerConfiguration());
    const p = (result.config as SchedulerConfiguration).profiles[0] as SchedulerProfile;
    expect(weights(p.plugins.multiPoint)).toMatchObject({
      TaintToleration: 3,
      NodeAffinity: 2,
      InterPodAffinity: 2,
      PodTopologySpread: 2,
    });
  });

  it.each([
    ['healthzBindAddress', 'healthzBindAddress: 0.0.0.0:10251\n', 'healthzBindAddress: unknown field'],
    [
      'a per-profile percentage',
      'profiles:\n- percentageOfNodesToScore: 10\n',
      'profiles[0].percentageOfNodesToScore: unknown field',
    ],
    [
      'NodeLabel',
      'profiles:\n- plugins:\n    filter:\n      enabled: [{name: NodeLabel}]\n',
      'profiles[0].plugins.filter.enabled[0].name "NodeLabel": kube-scheduler removed this plugin in v1beta2 (1.22) and Keel does not implement it; use node affinity',
    ],
  ])('refuses %s', (_name, body, expected) => {
    expect(errorsOf('v1beta3', body)).toEqual([expected]);
  });
});

describe('v1', () => {
  it('takes the fields the betas lack', () => {
    const p = profileOf('v1', 'delayCacheUntilActive: true\nprofiles:\n- percentageOfNodesToScore: 10\n');
    expect(p.percentageOfNodesToScore).toBe(10);
  });
});

describe('--write-config-to from an older version', () => {
  it.each(['v1beta1', 'v1beta2', 'v1beta3'])(
    '%s is written as v1 and reads back to the same configuration',
    (version) => {
      const { result } = load(
        version,
        'profiles:\n- plugins:\n    score:\n      enabled: [{name: ImageLocality, weight: 4}]\n',
      );
      const config = result.config as SchedulerConfiguration;
      const out = join(dir, `written-${version}.yaml`);
      expect(writeEffectiveConfig(out, config)).toEqual([]);
      expect(readFileSync(out, 'utf8').split('\n').slice(0, 2)).toEqual([
        'apiVersion: kubescheduler.config.k8s.io/v1',
        'kind: KubeSchedulerConfiguration',
      ]);
      const back = loadSchedulerConfigFile(out);
      expect(back.errors).toBeUndefined();
      expect(back.config).toEqual(config);
    },
  );
});
