import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSchedulerConfigFile } from './config-file.js';

// The rules are exercised through real files, the way users meet them.
const dir = mkdtempSync(join(tmpdir(), 'keel-scheduler-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function errorsOf(body: string): string[] {
  const path = join(dir, `config-${++counter}.yaml`);
  writeFileSync(
    path,
    `apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n${body}`,
  );
  const result = loadSchedulerConfigFile(path);
  if (!result.errors) return [];
  // Every line names the file; the assertions compare the rest.
  expect(result.errors.every((e) => e.startsWith(`${path}: `))).toBe(true);
  return result.errors.map((e) => e.slice(path.length + 2));
}

describe('configuration rules', () => {
  const defaultPlugins =
    'PrioritySort, SchedulingGates, NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity, DefaultPreemption, NodeResourcesBalancedAllocation, ImageLocality, DefaultBinder';
  it.each<[string, string, string[]]>([
    ['parallelism', 'parallelism: 0\n', ['parallelism must be greater than 0, got 0']],
    [
      'initial backoff',
      'podInitialBackoffSeconds: 0\n',
      ['podInitialBackoffSeconds must be greater than 0, got 0'],
    ],
    [
      'max below initial backoff',
      'podInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 4\n',
      ['podMaxBackoffSeconds (4) must be greater than or equal to podInitialBackoffSeconds (5)'],
    ],
    ['max equal to initial backoff is fine', 'podInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 5\n', []],
    [
      'percentage too high',
      'percentageOfNodesToScore: 101\n',
      ['percentageOfNodesToScore must be between 0 and 100, inclusive, got 101'],
    ],
    [
      'profile percentage negative',
      'profiles:\n- percentageOfNodesToScore: -1\n',
      ['profiles[0].percentageOfNodesToScore must be between 0 and 100, inclusive, got -1'],
    ],
    [
      'client connection',
      'clientConnection:\n  qps: -1\n  burst: -2\n  contentType: application/yaml\n  acceptContentTypes: application/json,text/plain\n',
      [
        'clientConnection.qps must not be negative, got -1',
        'clientConnection.burst must not be negative, got -2',
        'clientConnection.contentType "application/yaml" is not supported; supported values: "application/json"',
        'clientConnection.acceptContentTypes "text/plain" is not supported; supported values: "application/json"',
      ],
    ],
    [
      'duplicate scheduler names',
      'profiles:\n- schedulerName: a\n- schedulerName: b\n- schedulerName: a\n',
      ['profiles[2].schedulerName "a" is already used by profiles[0]'],
    ],
    [
      'unnamed profile among several',
      'profiles:\n- schedulerName: a\n- percentageOfNodesToScore: 5\n',
      ['profiles[1].schedulerName must not be empty'],
    ],
    [
      'explicitly empty name',
      "profiles:\n- schedulerName: ''\n",
      ['profiles[0].schedulerName must not be empty'],
    ],
    [
      'unknown plugins',
      'profiles:\n- plugins:\n    filter:\n      enabled:\n      - name: NodeName\n      - name: CinderLimits\n      disabled:\n      - name: Nope\n',
      [
        `profiles[0].plugins.filter.enabled[1].name "CinderLimits" is not a known plugin; known plugins: ${defaultPlugins}`,
        `profiles[0].plugins.filter.disabled[0].name "Nope" is not a known plugin; known plugins: ${defaultPlugins}, or "*" for all`,
      ],
    ],
    [
      '"*" is only for disabling',
      'profiles:\n- plugins:\n    score:\n      enabled:\n      - name: "*"\n',
      [
        `profiles[0].plugins.score.enabled[0].name "*" is not a known plugin; known plugins: ${defaultPlugins}`,
      ],
    ],
    [
      'negative weight',
      'profiles:\n- plugins:\n    score:\n      enabled:\n      - name: NodeAffinity\n        weight: -1\n',
      ['profiles[0].plugins.score.enabled[0].weight must not be negative, got -1'],
    ],
    [
      'plugin listed twice',
      'profiles:\n- plugins:\n    multiPoint:\n      enabled:\n      - name: NodeName\n      - name: NodePorts\n      - name: NodeName\n',
      [
        'profiles[0].plugins.multiPoint.enabled[2].name "NodeName" is already enabled at profiles[0].plugins.multiPoint.enabled[0]',
      ],
    ],
    [
      'two queue sort plugins',
      'profiles:\n- plugins:\n    queueSort:\n      enabled:\n      - name: PrioritySort\n      - name: NodeName\n',
      ['profiles[0].plugins.queueSort.enabled: only one queue sort plugin can be enabled, got 2'],
    ],
    [
      'queue sort differs between profiles',
      'profiles:\n- schedulerName: a\n  plugins:\n    queueSort:\n      disabled:\n      - name: "*"\n- schedulerName: b\n',
      ['profiles[1].plugins.queueSort must be the same for all profiles'],
    ],
    [
      'plugin config',
      'profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n  - name: NodeResourcesFit\n  - name: CinderLimits\n',
      [
        'profiles[0].pluginConfig[1].name "NodeResourcesFit" is configured more than once',
        `profiles[0].pluginConfig[2].name "CinderLimits" is not a known plugin; known plugins: ${defaultPlugins}`,
      ],
    ],
    [
      'VolumeBinding args',
      'profiles:\n- pluginConfig:\n  - name: VolumeBinding\n    args:\n      bindTimeoutSeconds: -1\n      shape:\n      - utilization: 0\n        score: 0\n',
      [
        'profiles[0].pluginConfig[0].args.bindTimeoutSeconds: Invalid value: -1: invalid BindTimeoutSeconds, should not be a negative value',
        'profiles[0].pluginConfig[0].args.shape: Invalid value: [{"utilization":0,"score":0}]: unsupported when StorageCapacityScoring feature is disabled',
      ],
    ],
    [
      'InterPodAffinity args',
      'profiles:\n- pluginConfig:\n  - name: NodeName\n  - name: InterPodAffinity\n    args:\n      hardPodAffinityWeight: 101\n',
      [
        'profiles[0].pluginConfig[1].args.hardPodAffinityWeight: Invalid value: 101: not in valid range [0-100]',
      ],
    ],
    [
      'DefaultPreemption args out of range',
      'profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n    args:\n      minCandidateNodesPercentage: 101\n      minCandidateNodesAbsolute: -1\n',
      [
        'profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]',
        'profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)',
      ],
    ],
    [
      'DefaultPreemption args both zero',
      'profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n    args:\n      minCandidateNodesPercentage: 0\n      minCandidateNodesAbsolute: 0\n',
      [
        'profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute',
        'profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same time as minCandidateNodesPercentage',
      ],
    ],
    [
      'DefaultPreemption args of the wrong type',
      'profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n    args:\n      minCandidateNodesAbsolute: many\n',
      [
        'profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: Invalid input: expected number, received string',
      ],
    ],
    [
      'PodTopologySpread args with System defaulting',
      'profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n    args:\n      defaultConstraints:\n      - maxSkew: 1\n        topologyKey: zone\n        whenUnsatisfiable: DoNotSchedule\n',
      [
        'profiles[0].pluginConfig[0].args.defaultingType: Invalid value: "System": when .defaultConstraints are not empty',
      ],
    ],
    [
      'PodTopologySpread args listed',
      'profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n    args:\n      defaultingType: List\n      defaultConstraints:\n      - maxSkew: 0\n        topologyKey: ""\n        whenUnsatisfiable: Sometimes\n        labelSelector: {}\n      - maxSkew: 1\n        topologyKey: zone\n        whenUnsatisfiable: DoNotSchedule\n      - maxSkew: 2\n        topologyKey: zone\n        whenUnsatisfiable: DoNotSchedule\n',
      [
        'profiles[0].pluginConfig[0].args.defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf)',
        'profiles[0].pluginConfig[0].args.defaultConstraints[0].topologyKey: Required value: can not be empty',
        'profiles[0].pluginConfig[0].args.defaultConstraints[0].whenUnsatisfiable: Unsupported value: "Sometimes": supported values: "DoNotSchedule", "ScheduleAnyway"',
        'profiles[0].pluginConfig[0].args.defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod',
        'profiles[0].pluginConfig[0].args.defaultConstraints[2]: Duplicate value: "{zone, DoNotSchedule}"',
      ],
    ],
    [
      'PodTopologySpread unknown defaulting type',
      'profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n    args:\n      defaultingType: Zonal\n',
      [
        'profiles[0].pluginConfig[0].args.defaultingType: Unsupported value: "Zonal": supported values: "List", "System"',
      ],
    ],
    [
      'leader election, by field path',
      'leaderElection:\n  leaseDuration: 10s\n  renewDeadline: 10s\n  retryPeriod: 0s\n  resourceLock: endpoints\n  resourceNamespace: Kube_System\n',
      [
        'leaderElection.retryPeriod must be greater than 0, got 0s',
        'leaderElection.leaseDuration (10s) must be greater than leaderElection.renewDeadline (10s)',
        'leaderElection.resourceLock "endpoints" is not supported; supported values: "leases", "endpointsleases", "configmapsleases"',
        `leaderElection.resourceNamespace "Kube_System" is invalid: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ],
    ],
    [
      'leader election off skips its rules',
      'leaderElection:\n  leaderElect: false\n  leaseDuration: 0s\n',
      [],
    ],
    [
      'several problems at once',
      'parallelism: -1\npercentageOfNodesToScore: 200\nleaderElection:\n  renewDeadline: 1s\n',
      [
        'parallelism must be greater than 0, got -1',
        'percentageOfNodesToScore must be between 0 and 100, inclusive, got 200',
        'leaderElection.renewDeadline (1s) must be greater than leaderElection.retryPeriod (2s) times the jitter factor 1.2 (2.4s)',
      ],
    ],
  ])('%s', (_name, body, expected) => {
    expect(errorsOf(body)).toEqual(expected);
  });
});
