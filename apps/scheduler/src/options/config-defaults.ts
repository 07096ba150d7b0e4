import { LeaderElectionOptions } from '@keel/leaderelection';
import type { PluginSetFile, ProfileFile, SchedulerConfigFile } from './config-schema.js';
import { defaultExtender } from './extender-config.js';
import {
  ALL_PLUGINS,
  CLIENT_CONNECTION_DEFAULTS,
  DEFAULT_MULTI_POINT,
  DEFAULT_SCHEDULER_NAME,
  EXTENSION_POINTS,
  SCHEDULER_CONFIG_API_VERSION,
  SCHEDULER_CONFIG_KIND,
  type Plugin,
  type PluginSet,
  type Plugins,
  type SchedulerConfiguration,
  type SchedulerProfile,
} from './config-types.js';

const EMPTY_SET: PluginSet = { enabled: [], disabled: [] };

/** v1's defaults: everything through multiPoint. */
export function defaultPlugins(): Plugins {
  const plugins = Object.fromEntries(EXTENSION_POINTS.map((p) => [p, EMPTY_SET])) as Record<
    keyof Plugins,
    PluginSet
  >;
  plugins.multiPoint = { enabled: DEFAULT_MULTI_POINT, disabled: [] };
  return plugins;
}

const plugin = (p: { name: string; weight?: number | undefined }): Plugin =>
  p.weight === undefined ? { name: p.name } : { name: p.name, weight: p.weight };

/**
 * kube-scheduler's mergePluginSet: defaults come first, in their order, minus the disabled ones
 * (all of them with `*`); a user entry naming a default replaces it in place (new weight), and the
 * user's other entries follow in their own order. Disabled entries are kept so the framework can
 * tell which defaults the user switched off for an extension point.
 */
export function mergePluginSet(defaults: PluginSet, custom: PluginSetFile | undefined): PluginSet {
  const enabledCustom = (custom?.enabled ?? []).map(plugin);
  const disabled = [...(custom?.disabled ?? []).map((p) => ({ name: p.name })), ...defaults.disabled];
  const off = new Set(disabled.map((p) => p.name));
  const replaced = new Set<number>();
  const enabled: Plugin[] = [];
  if (!off.has(ALL_PLUGINS)) {
    for (const def of defaults.enabled) {
      if (off.has(def.name)) continue;
      const i = enabledCustom.findIndex((p) => p.name === def.name);
      if (i === -1) {
        enabled.push(def);
      } else {
        enabled.push(enabledCustom[i] as Plugin);
        replaced.add(i);
      }
    }
  }
  enabledCustom.forEach((p, i) => {
    if (!replaced.has(i)) enabled.push(p);
  });
  return { enabled, disabled };
}

function defaultProfile(p: ProfileFile, onlyProfile: boolean, defaults: Plugins): SchedulerProfile {
  const plugins = Object.fromEntries(
    EXTENSION_POINTS.map((ep) => [ep, mergePluginSet(defaults[ep], p.plugins?.[ep])]),
  ) as Plugins;
  // Like kube, a name is only defaulted for a lone profile; with several, each must be named.
  const schedulerName = p.schedulerName ?? (onlyProfile ? DEFAULT_SCHEDULER_NAME : '');
  return {
    schedulerName,
    ...(p.percentageOfNodesToScore === undefined
      ? {}
      : { percentageOfNodesToScore: p.percentageOfNodesToScore }),
    plugins,
    pluginConfig: (p.pluginConfig ?? []).map((c) => ({ name: c.name, args: c.args ?? {} })),
  };
}

/**
 * Fills every field the file left out (kube's SetDefaults_KubeSchedulerConfiguration); the default
 * plugins depend on the file's version (see config-versions.ts).
 */
export function applyDefaults(
  file: Omit<SchedulerConfigFile, 'apiVersion' | 'kind'>,
  pluginDefaults: Plugins = defaultPlugins(),
): SchedulerConfiguration {
  const le = new LeaderElectionOptions().toConfig();
  const cc = file.clientConnection ?? {};
  const profiles = file.profiles !== undefined && file.profiles.length > 0 ? file.profiles : [{}];
  return {
    apiVersion: SCHEDULER_CONFIG_API_VERSION,
    kind: SCHEDULER_CONFIG_KIND,
    parallelism: file.parallelism ?? 16,
    leaderElection: {
      leaderElect: file.leaderElection?.leaderElect ?? le.leaderElect,
      leaseDuration: file.leaderElection?.leaseDuration ?? le.leaseDuration,
      renewDeadline: file.leaderElection?.renewDeadline ?? le.renewDeadline,
      retryPeriod: file.leaderElection?.retryPeriod ?? le.retryPeriod,
      resourceLock: file.leaderElection?.resourceLock ?? le.resourceLock,
      resourceName: file.leaderElection?.resourceName ?? le.resourceName,
      resourceNamespace: file.leaderElection?.resourceNamespace ?? le.resourceNamespace,
    },
    clientConnection: {
      kubeconfig: cc.kubeconfig ?? CLIENT_CONNECTION_DEFAULTS.kubeconfig,
      acceptContentTypes: cc.acceptContentTypes ?? CLIENT_CONNECTION_DEFAULTS.acceptContentTypes,
      contentType: cc.contentType ?? CLIENT_CONNECTION_DEFAULTS.contentType,
      qps: cc.qps ?? CLIENT_CONNECTION_DEFAULTS.qps,
      burst: cc.burst ?? CLIENT_CONNECTION_DEFAULTS.burst,
    },
    enableProfiling: file.enableProfiling ?? true,
    enableContentionProfiling: file.enableContentionProfiling ?? true,
    percentageOfNodesToScore: file.percentageOfNodesToScore ?? 0,
    podInitialBackoffSeconds: file.podInitialBackoffSeconds ?? 1,
    podMaxBackoffSeconds: file.podMaxBackoffSeconds ?? 10,
    profiles: profiles.map((p) => defaultProfile(p, profiles.length === 1, pluginDefaults)),
    extenders: (file.extenders ?? []).map(defaultExtender),
    delayCacheUntilActive: file.delayCacheUntilActive ?? false,
  };
}

/** The configuration the scheduler runs with when neither a file nor flags say otherwise. */
export function defaultSchedulerConfiguration(): SchedulerConfiguration {
  return applyDefaults({});
}
