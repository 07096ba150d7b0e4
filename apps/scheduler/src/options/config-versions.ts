import type { BetaConfigFile, SchedulerConfigFile, SchedulerConfigVersion } from './config-schema.js';
import {
  DEFAULT_MULTI_POINT,
  EXTENSION_POINTS,
  KNOWN_PLUGINS,
  type ExtensionPoint,
  type Plugin,
  type PluginSet,
  type Plugins,
} from './config-types.js';
import { convertV1beta1Profile, REMOVED_PLUGINS } from './config-v1beta1.js';

export const SCHEDULER_CONFIG_GROUP = 'kubescheduler.config.k8s.io';

/** Oldest first; every one is read into the same internal (v1-shaped) configuration. */
export const ACCEPTED_VERSIONS: readonly SchedulerConfigVersion[] = ['v1beta1', 'v1beta2', 'v1beta3', 'v1'];

export function versionOf(apiVersion: unknown): SchedulerConfigVersion | undefined {
  if (typeof apiVersion !== 'string' || !apiVersion.startsWith(`${SCHEDULER_CONFIG_GROUP}/`))
    return undefined;
  const v = apiVersion.slice(SCHEDULER_CONFIG_GROUP.length + 1);
  return (ACCEPTED_VERSIONS as readonly string[]).includes(v) ? (v as SchedulerConfigVersion) : undefined;
}

type PointLists = Partial<Record<ExtensionPoint, readonly Plugin[]>>;

const n = (...names: string[]): Plugin[] => names.map((name) => ({ name }));

/**
 * kube-scheduler 1.20's default plugins for v1beta1 (algorithmprovider getDefaultConfig): one set
 * per extension point, score weights 1 except PodTopologySpread 2 and NodePreferAvoidPods 10000.
 */
const V1BETA1_DEFAULTS: PointLists = {
  queueSort: n('PrioritySort'),
  preFilter: n('NodeResourcesFit', 'NodePorts', 'PodTopologySpread', 'InterPodAffinity', 'VolumeBinding'),
  filter: n(
    'NodeUnschedulable',
    'NodeName',
    'TaintToleration',
    'NodeAffinity',
    'NodePorts',
    'NodeResourcesFit',
    'VolumeRestrictions',
    'EBSLimits',
    'GCEPDLimits',
    'NodeVolumeLimits',
    'AzureDiskLimits',
    'VolumeBinding',
    'VolumeZone',
    'PodTopologySpread',
    'InterPodAffinity',
  ),
  postFilter: n('DefaultPreemption'),
  preScore: n('InterPodAffinity', 'PodTopologySpread', 'TaintToleration'),
  score: [
    { name: 'NodeResourcesBalancedAllocation', weight: 1 },
    { name: 'ImageLocality', weight: 1 },
    { name: 'InterPodAffinity', weight: 1 },
    { name: 'NodeResourcesLeastAllocated', weight: 1 },
    { name: 'NodeAffinity', weight: 1 },
    { name: 'NodePreferAvoidPods', weight: 10000 },
    { name: 'PodTopologySpread', weight: 2 },
    { name: 'TaintToleration', weight: 1 },
  ],
  reserve: n('VolumeBinding'),
  preBind: n('VolumeBinding'),
  bind: n('DefaultBinder'),
};

/**
 * v1beta2's defaults (pkg/scheduler/apis/config/v1beta2/default_plugins.go at its last release):
 * still one set per point, NodeResourcesFit now scores (LeastAllocated), same weights as v1beta1.
 */
const V1BETA2_DEFAULTS: PointLists = {
  queueSort: n('PrioritySort'),
  preFilter: n(
    'NodeResourcesFit',
    'NodePorts',
    'VolumeRestrictions',
    'PodTopologySpread',
    'InterPodAffinity',
    'VolumeBinding',
    'VolumeZone',
    'NodeAffinity',
    'TaintToleration',
  ),
  filter: V1BETA1_DEFAULTS.filter ?? [],
  postFilter: n('DefaultPreemption'),
  preScore: n('InterPodAffinity', 'PodTopologySpread', 'TaintToleration', 'NodeAffinity'),
  score: [
    { name: 'NodeResourcesBalancedAllocation', weight: 1 },
    { name: 'ImageLocality', weight: 1 },
    { name: 'InterPodAffinity', weight: 1 },
    { name: 'NodeResourcesFit', weight: 1 },
    { name: 'NodeAffinity', weight: 1 },
    { name: 'PodTopologySpread', weight: 2 },
    { name: 'TaintToleration', weight: 1 },
  ],
  reserve: n('VolumeBinding'),
  preBind: n('VolumeBinding'),
  bind: n('DefaultBinder'),
};

const known = new Set<string>(KNOWN_PLUGINS);
const EMPTY: PluginSet = { enabled: [], disabled: [] };

/**
 * Per-point defaults in Keel's plugin names, keeping only the plugins Keel registers (so the
 * volume plugins and DefaultPreemption join as soon as they exist). SchedulingGates is added to
 * preEnqueue in every version, as kube-scheduler did once pod scheduling readiness was on by default:
 * Keel's pods carry schedulingGates and must not bypass them because of an old file.
 */
function perPointDefaults(lists: PointLists, rename: (name: string) => string): Plugins {
  const out = Object.fromEntries(EXTENSION_POINTS.map((p) => [p, EMPTY])) as Record<
    ExtensionPoint,
    PluginSet
  >;
  for (const point of EXTENSION_POINTS) {
    const enabled = (lists[point] ?? [])
      .map((p) => ({ ...p, name: rename(p.name) }))
      .filter((p) => known.has(p.name));
    if (enabled.length > 0) out[point] = { enabled, disabled: [] };
  }
  out.preEnqueue = { enabled: [{ name: 'SchedulingGates' }], disabled: [] };
  // Written out as v1 (--write-config-to), the file must not pick up v1's multiPoint defaults on
  // the way back in: `*` keeps multiPoint empty.
  out.multiPoint = { enabled: [], disabled: [{ name: '*' }] };
  return out;
}

const multiPointDefaults = (): Plugins => {
  const out = Object.fromEntries(EXTENSION_POINTS.map((p) => [p, EMPTY])) as Record<
    ExtensionPoint,
    PluginSet
  >;
  out.multiPoint = { enabled: DEFAULT_MULTI_POINT, disabled: [] };
  return out;
};

const v1beta1Name = (name: string) =>
  name === 'NodeResourcesLeastAllocated' || name === 'NodeResourcesMostAllocated' ? 'NodeResourcesFit' : name;

/** The default plugins a file of `version` starts from, in Keel's internal form. */
export function pluginDefaultsFor(version: SchedulerConfigVersion): Plugins {
  switch (version) {
    case 'v1beta1':
      return perPointDefaults(V1BETA1_DEFAULTS, v1beta1Name);
    case 'v1beta2':
      return perPointDefaults(V1BETA2_DEFAULTS, (name) => name);
    default:
      return multiPointDefaults();
  }
}

export interface Converted {
  readonly file: SchedulerConfigFile;
  readonly pluginDefaults: Plugins;
  readonly warnings: string[];
  readonly errors: string[];
}

/** Plugins enabled as written that Keel cannot run, with the reason; any version. */
function removedPluginErrors(file: SchedulerConfigFile): string[] {
  return (file.profiles ?? []).flatMap((p, i) => [
    ...EXTENSION_POINTS.flatMap((ep) =>
      (p.plugins?.[ep]?.enabled ?? []).flatMap((pl, j) => {
        const why = Object.hasOwn(REMOVED_PLUGINS, pl.name) ? REMOVED_PLUGINS[pl.name] : undefined;
        return why
          ? [`profiles[${i}].plugins.${ep}.enabled[${j}].name ${JSON.stringify(pl.name)}: ${why}`]
          : [];
      }),
    ),
    ...(p.pluginConfig ?? []).flatMap((c, j) => {
      const why = Object.hasOwn(REMOVED_PLUGINS, c.name) ? REMOVED_PLUGINS[c.name] : undefined;
      return why ? [`profiles[${i}].pluginConfig[${j}].name ${JSON.stringify(c.name)}: ${why}`] : [];
    }),
  ]);
}

/** v1beta2 has the fields, but kube-scheduler's v1beta2 defaulting drops them: refused, not ignored. */
function v1beta2DroppedPoints(file: SchedulerConfigFile): string[] {
  return (file.profiles ?? []).flatMap((p, i) =>
    (['multiPoint', 'preEnqueue'] as const).flatMap((ep) =>
      p.plugins?.[ep] === undefined
        ? []
        : [
            `profiles[${i}].plugins.${ep}: not honoured in v1beta2 (kube-scheduler drops it when defaulting); use ${SCHEDULER_CONFIG_GROUP}/v1beta3 or v1`,
          ],
    ),
  );
}

/**
 * Plugin args may carry their own apiVersion (kube writes them so); converted, they are v1 args,
 * so a file written back out does not mix versions.
 */
function argsAsV1(file: SchedulerConfigFile, version: SchedulerConfigVersion): SchedulerConfigFile {
  if (version === 'v1' || !file.profiles) return file;
  const from = `${SCHEDULER_CONFIG_GROUP}/${version}`;
  const profiles = file.profiles.map((p) =>
    p.pluginConfig
      ? {
          ...p,
          pluginConfig: p.pluginConfig.map((c) =>
            c.args?.apiVersion === from
              ? { ...c, args: { ...c.args, apiVersion: `${SCHEDULER_CONFIG_GROUP}/v1` } }
              : c,
          ),
        }
      : p,
  );
  return { ...file, profiles };
}

/**
 * Converts a structurally valid file of any accepted version into the v1 shape the rules and the
 * defaulting read, with the version's own default plugins. Field paths in errors are those of the
 * file as written.
 */
export function convertToInternal(version: SchedulerConfigVersion, data: unknown): Converted {
  const pluginDefaults = pluginDefaultsFor(version);
  if (version === 'v1' || version === 'v1beta3') {
    const file = argsAsV1(data as SchedulerConfigFile, version);
    return { file, pluginDefaults, warnings: [], errors: removedPluginErrors(file) };
  }
  const { healthzBindAddress, metricsBindAddress, ...rest } = data as BetaConfigFile;
  const warnings = Object.entries({ healthzBindAddress, metricsBindAddress })
    .filter(([, v]) => v !== undefined)
    .map(
      ([field]) =>
        `${field} is ignored: Keel has no insecure port and serves /healthz and /metrics on --secure-port only`,
    );
  if (version === 'v1beta2') {
    const file = argsAsV1(rest, version);
    return {
      file,
      pluginDefaults,
      warnings,
      errors: [...removedPluginErrors(file), ...v1beta2DroppedPoints(file)],
    };
  }
  const errors: string[] = [];
  const profiles = (rest.profiles ?? []).map((p, i) => convertV1beta1Profile(p, i, errors));
  const file = argsAsV1({ ...rest, ...(rest.profiles ? { profiles } : {}) }, version);
  return { file, pluginDefaults, warnings, errors };
}
