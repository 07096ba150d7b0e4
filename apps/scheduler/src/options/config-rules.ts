import { validateLeaderElection, type LeaderElectionFieldNamer } from '@keel/leaderelection';
import { validateDefaultPreemptionArgs } from '../plugins/default-preemption/args.js';
import { validateInterPodAffinityArgs } from '../plugins/inter-pod-affinity/args.js';
import { validatePodTopologySpreadArgs } from '../plugins/pod-topology-spread/args.js';
import { validateVolumeBindingArgs } from '../plugins/volume-binding/args.js';
import type { PluginSetFile, ProfileFile, SchedulerConfigFile } from './config-schema.js';
import { validateExtenders } from './extender-config.js';
import {
  ALL_PLUGINS,
  CONTENT_TYPES,
  EXTENSION_POINTS,
  KNOWN_PLUGINS,
  type SchedulerConfiguration,
} from './config-types.js';

/**
 * Named rules over the configuration; each returns every problem it finds, naming the field path.
 * Two families: plugin rules look at the profiles exactly as written (defaulting merges the
 * default plugins into multiPoint and would shift the indices users see in their file), and
 * configuration rules look at the effective, defaulted configuration.
 */
type FileRule = (profiles: readonly ProfileFile[]) => string[];
type ConfigRule = (config: SchedulerConfiguration) => string[];

const known = new Set<string>(KNOWN_PLUGINS);
const knownList = KNOWN_PLUGINS.join(', ');

function eachPluginSet(
  profiles: readonly ProfileFile[],
  visit: (set: PluginSetFile, path: string) => string[],
): string[] {
  return profiles.flatMap((p, i) =>
    EXTENSION_POINTS.flatMap((ep) => {
      const set = p.plugins?.[ep];
      return set ? visit(set, `profiles[${i}].plugins.${ep}`) : [];
    }),
  );
}

const pluginNamesKnown: FileRule = (profiles) =>
  eachPluginSet(profiles, (set, path) => [
    ...(set.enabled ?? []).flatMap((p, j) =>
      known.has(p.name)
        ? []
        : [
            `${path}.enabled[${j}].name ${JSON.stringify(p.name)} is not a known plugin; known plugins: ${knownList}`,
          ],
    ),
    ...(set.disabled ?? []).flatMap((p, j) =>
      known.has(p.name) || p.name === ALL_PLUGINS
        ? []
        : [
            `${path}.disabled[${j}].name ${JSON.stringify(p.name)} is not a known plugin; known plugins: ${knownList}, or "*" for all`,
          ],
    ),
  ]);

// 0 is accepted: kube-scheduler writes `weight: 0` for plugins without a score, and reads it as 1.
const pluginWeightsNonNegative: FileRule = (profiles) =>
  eachPluginSet(profiles, (set, path) =>
    (set.enabled ?? []).flatMap((p, j) =>
      p.weight !== undefined && p.weight < 0
        ? [`${path}.enabled[${j}].weight must not be negative, got ${p.weight}`]
        : [],
    ),
  );

const pluginsListedOnce: FileRule = (profiles) =>
  eachPluginSet(profiles, (set, path) => {
    const first = new Map<string, number>();
    return (set.enabled ?? []).flatMap((p, j) => {
      const seen = first.get(p.name);
      if (seen === undefined) {
        first.set(p.name, j);
        return [];
      }
      return [
        `${path}.enabled[${j}].name ${JSON.stringify(p.name)} is already enabled at ${path}.enabled[${seen}]`,
      ];
    });
  });

const queueSortSingle: FileRule = (profiles) =>
  profiles.flatMap((p, i) => {
    const n = p.plugins?.queueSort?.enabled?.length ?? 0;
    return n > 1
      ? [`profiles[${i}].plugins.queueSort.enabled: only one queue sort plugin can be enabled, got ${n}`]
      : [];
  });

// All profiles share one queue, so they must sort it the same way.
const queueSortCommon: FileRule = (profiles) => {
  const key = (p: ProfileFile) => JSON.stringify(p.plugins?.queueSort ?? { enabled: [], disabled: [] });
  const canon = profiles[0] ? key(profiles[0]) : '';
  return profiles.flatMap((p, i) =>
    i > 0 && key(p) !== canon ? [`profiles[${i}].plugins.queueSort must be the same for all profiles`] : [],
  );
};

const pluginConfigKnownAndUnique: FileRule = (profiles) =>
  profiles.flatMap((p, i) => {
    const seen = new Set<string>();
    return (p.pluginConfig ?? []).flatMap((c, j) => {
      const path = `profiles[${i}].pluginConfig[${j}].name`;
      if (!known.has(c.name))
        return [`${path} ${JSON.stringify(c.name)} is not a known plugin; known plugins: ${knownList}`];
      if (seen.has(c.name)) return [`${path} ${JSON.stringify(c.name)} is configured more than once`];
      seen.add(c.name);
      return [];
    });
  });

/** Plugins whose args are checked when the file is read, with kube's field paths and wording. */
const ARGS_VALIDATORS: Readonly<
  Record<string, (args: Readonly<Record<string, unknown>>, path: string) => string[]>
> = {
  DefaultPreemption: validateDefaultPreemptionArgs,
  InterPodAffinity: validateInterPodAffinityArgs,
  PodTopologySpread: validatePodTopologySpreadArgs,
  VolumeBinding: validateVolumeBindingArgs,
};

const pluginArgsValid: FileRule = (profiles) =>
  profiles.flatMap((p, i) =>
    (p.pluginConfig ?? []).flatMap((c, j) => {
      const validate = Object.hasOwn(ARGS_VALIDATORS, c.name) ? ARGS_VALIDATORS[c.name] : undefined;
      return validate ? validate(c.args ?? {}, `profiles[${i}].pluginConfig[${j}].args`) : [];
    }),
  );

const FILE_RULES: readonly FileRule[] = [
  pluginNamesKnown,
  pluginWeightsNonNegative,
  pluginsListedOnce,
  queueSortSingle,
  queueSortCommon,
  pluginConfigKnownAndUnique,
  pluginArgsValid,
];

/** Plugin rules over a file's profiles as written. */
export function validateConfigFile(file: SchedulerConfigFile): string[] {
  const profiles = file.profiles ?? [];
  return FILE_RULES.flatMap((rule) => rule(profiles));
}

const parallelismPositive: ConfigRule = (c) =>
  c.parallelism > 0 ? [] : [`parallelism must be greater than 0, got ${c.parallelism}`];

const backoff: ConfigRule = (c) => [
  ...(c.podInitialBackoffSeconds > 0
    ? []
    : [`podInitialBackoffSeconds must be greater than 0, got ${c.podInitialBackoffSeconds}`]),
  ...(c.podMaxBackoffSeconds >= c.podInitialBackoffSeconds
    ? []
    : [
        `podMaxBackoffSeconds (${c.podMaxBackoffSeconds}) must be greater than or equal to podInitialBackoffSeconds (${c.podInitialBackoffSeconds})`,
      ]),
];

const percentage = (path: string, v: number | undefined) =>
  v === undefined || (v >= 0 && v <= 100) ? [] : [`${path} must be between 0 and 100, inclusive, got ${v}`];

const percentagesInRange: ConfigRule = (c) => [
  ...percentage('percentageOfNodesToScore', c.percentageOfNodesToScore),
  ...c.profiles.flatMap((p, i) =>
    percentage(`profiles[${i}].percentageOfNodesToScore`, p.percentageOfNodesToScore),
  ),
];

const contentTypeList = CONTENT_TYPES.map((t) => JSON.stringify(t)).join(', ');

const clientConnection: ConfigRule = ({ clientConnection: cc }) => [
  ...(cc.qps >= 0 ? [] : [`clientConnection.qps must not be negative, got ${cc.qps}`]),
  ...(cc.burst >= 0 ? [] : [`clientConnection.burst must not be negative, got ${cc.burst}`]),
  ...((CONTENT_TYPES as readonly string[]).includes(cc.contentType)
    ? []
    : [
        `clientConnection.contentType ${JSON.stringify(cc.contentType)} is not supported; supported values: ${contentTypeList}`,
      ]),
  ...(cc.acceptContentTypes === ''
    ? []
    : cc.acceptContentTypes
        .split(',')
        .map((t) => t.trim())
        .filter((t) => !(CONTENT_TYPES as readonly string[]).includes(t))
        .map(
          (t) =>
            `clientConnection.acceptContentTypes ${JSON.stringify(t)} is not supported; supported values: ${contentTypeList}`,
        )),
];

const profilesPresent: ConfigRule = (c) =>
  c.profiles.length > 0 ? [] : ['profiles must contain at least one profile'];

const profileNames: ConfigRule = (c) => {
  const first = new Map<string, number>();
  return c.profiles.flatMap((p, i) => {
    if (p.schedulerName === '') return [`profiles[${i}].schedulerName must not be empty`];
    const seen = first.get(p.schedulerName);
    if (seen !== undefined) {
      return [
        `profiles[${i}].schedulerName ${JSON.stringify(p.schedulerName)} is already used by profiles[${seen}]`,
      ];
    }
    first.set(p.schedulerName, i);
    return [];
  });
};

const CONFIG_RULES: readonly ConfigRule[] = [
  parallelismPositive,
  backoff,
  percentagesInRange,
  clientConnection,
  profilesPresent,
  profileNames,
  (c) => validateExtenders(c.extenders),
];

/**
 * Every problem with an effective configuration. Leader election is named by `leaderElectionNamer`
 * (field paths by default), so values that came from `--leader-elect*` flags can name those flags.
 */
export function validateSchedulerConfiguration(
  config: SchedulerConfiguration,
  leaderElectionNamer: LeaderElectionFieldNamer = 'leaderElection.',
): string[] {
  return [
    ...CONFIG_RULES.flatMap((rule) => rule(config)),
    ...validateLeaderElection(config.leaderElection, leaderElectionNamer),
  ];
}
