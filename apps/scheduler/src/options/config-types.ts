import type { LeaderElectionConfig } from '@keel/leaderelection';
import type { Extender } from './extender-config.js';

/**
 * The scheduler configuration file, modelled on KubeSchedulerConfiguration v1. The group name is the
 * real one: users copy configuration files between Keel and kube-scheduler.
 */
export const SCHEDULER_CONFIG_API_VERSION = 'kubescheduler.config.k8s.io/v1';
export const SCHEDULER_CONFIG_KIND = 'KubeSchedulerConfiguration';

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/**
 * Media types the scheduler's client can send and accept. Only JSON: the client has no protobuf
 * codec, and accepting the protobuf type would name an encoding it never uses.
 */
export const CONTENT_TYPES = ['application/json'] as const;

export const CLIENT_CONNECTION_DEFAULTS = {
  kubeconfig: '',
  acceptContentTypes: '',
  contentType: 'application/json',
  qps: 50,
  burst: 100,
} as const;

export const EXTENSION_POINTS = [
  'preEnqueue',
  'queueSort',
  'preFilter',
  'filter',
  'postFilter',
  'preScore',
  'score',
  'reserve',
  'permit',
  'preBind',
  'bind',
  'postBind',
  'multiPoint',
] as const;
export type ExtensionPoint = (typeof EXTENSION_POINTS)[number];

/** The plugins Keel's scheduler framework registers. */
export const KNOWN_PLUGINS = [
  'PrioritySort',
  'SchedulingGates',
  'NodeUnschedulable',
  'NodeName',
  'TaintToleration',
  'NodeAffinity',
  'NodePorts',
  'NodeResourcesFit',
  'VolumeRestrictions',
  'NodeVolumeLimits',
  'VolumeBinding',
  'VolumeZone',
  'PodTopologySpread',
  'InterPodAffinity',
  'DefaultPreemption',
  'NodeResourcesBalancedAllocation',
  'ImageLocality',
  'DefaultBinder',
] as const;

/** In a `disabled` list, `*` turns off every default plugin of that extension point. */
export const ALL_PLUGINS = '*';

export interface Plugin {
  readonly name: string;
  /** Score weight; unset (or 0, as kube-scheduler writes it for non-score plugins) means 1. */
  readonly weight?: number;
}

export interface PluginSet {
  readonly enabled: readonly Plugin[];
  readonly disabled: readonly Plugin[];
}

export type Plugins = Readonly<Record<ExtensionPoint, PluginSet>>;

export interface PluginConfig {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export interface SchedulerProfile {
  readonly schedulerName: string;
  /** Overrides the global value for this profile when set. */
  readonly percentageOfNodesToScore?: number;
  readonly plugins: Plugins;
  readonly pluginConfig: readonly PluginConfig[];
}

export interface ClientConnection {
  /** The connection-config file; empty means in-cluster settings or `--master`. */
  readonly kubeconfig: string;
  /** Comma-separated Accept types; empty means the client's default. */
  readonly acceptContentTypes: string;
  readonly contentType: string;
  readonly qps: number;
  readonly burst: number;
}

/** The effective, fully defaulted configuration: what `--write-config-to` writes. */
export interface SchedulerConfiguration {
  readonly apiVersion: typeof SCHEDULER_CONFIG_API_VERSION;
  readonly kind: typeof SCHEDULER_CONFIG_KIND;
  readonly parallelism: number;
  readonly leaderElection: LeaderElectionConfig;
  readonly clientConnection: ClientConnection;
  readonly enableProfiling: boolean;
  readonly enableContentionProfiling: boolean;
  /** 0 means adaptive (a share that shrinks as the cluster grows). */
  readonly percentageOfNodesToScore: number;
  readonly podInitialBackoffSeconds: number;
  readonly podMaxBackoffSeconds: number;
  readonly profiles: readonly SchedulerProfile[];
  readonly extenders: readonly Extender[];
  readonly delayCacheUntilActive: boolean;
}

/**
 * kube-scheduler's (v1.33) default plugin set (MultiPoint, in order), restricted to the plugins
 * Keel has (all of them since the volume plugins and DefaultPreemption landed).
 * Weights are those of the score plugins.
 */
export const DEFAULT_MULTI_POINT: readonly Plugin[] = [
  { name: 'SchedulingGates' },
  { name: 'PrioritySort' },
  { name: 'NodeUnschedulable' },
  { name: 'NodeName' },
  { name: 'TaintToleration', weight: 3 },
  { name: 'NodeAffinity', weight: 2 },
  { name: 'NodePorts' },
  { name: 'NodeResourcesFit', weight: 1 },
  { name: 'VolumeRestrictions' },
  { name: 'NodeVolumeLimits' },
  { name: 'VolumeBinding' },
  { name: 'VolumeZone' },
  { name: 'PodTopologySpread', weight: 2 },
  { name: 'InterPodAffinity', weight: 2 },
  { name: 'DefaultPreemption' },
  { name: 'NodeResourcesBalancedAllocation', weight: 1 },
  { name: 'ImageLocality', weight: 1 },
  { name: 'DefaultBinder' },
];
