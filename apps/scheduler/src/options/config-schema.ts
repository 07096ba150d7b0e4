import { z } from 'zod';
import { Duration } from '@keel/flags';
import { EXTENSION_POINTS, type ExtensionPoint } from './config-types.js';
import { extenderSchema } from './extender-config.js';

/**
 * The shape of a configuration file as written, every field optional. Objects are strict, mirroring
 * kube-scheduler's strict decoding: an unknown field is an error, not silently dropped.
 */
const opt = <T extends z.ZodType>(schema: T) => schema.optional();

/**
 * Go's decoder treats `key: null` as absent (an empty YAML key like `profiles:` is null), so mapping
 * entries whose value is null are dropped before the schema sees them.
 */
export function dropNullFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNullFields);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, dropNullFields(v)]),
  );
}

const duration = z.string().transform((text, ctx) => {
  try {
    return Duration.parse(text);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
    return z.NEVER;
  }
});

const plugin = z.strictObject({ name: z.string(), weight: opt(z.int32()) });

const pluginSet = z.strictObject({ enabled: opt(z.array(plugin)), disabled: opt(z.array(plugin)) });

const pluginsFor = (points: readonly ExtensionPoint[]) =>
  z.strictObject(
    Object.fromEntries(points.map((p) => [p, opt(pluginSet)])) as Record<
      ExtensionPoint,
      ReturnType<typeof opt<typeof pluginSet>>
    >,
  );

const pluginConfig = z.array(
  z.strictObject({ name: z.string(), args: opt(z.record(z.string(), z.unknown())) }),
);

const profile = z.strictObject({
  schedulerName: opt(z.string()),
  percentageOfNodesToScore: opt(z.int32()),
  plugins: opt(pluginsFor(EXTENSION_POINTS)),
  pluginConfig: opt(pluginConfig),
});

const leaderElection = z.strictObject({
  leaderElect: opt(z.boolean()),
  leaseDuration: opt(duration),
  renewDeadline: opt(duration),
  retryPeriod: opt(duration),
  resourceLock: opt(z.string()),
  resourceName: opt(z.string()),
  resourceNamespace: opt(z.string()),
});

const clientConnection = z.strictObject({
  kubeconfig: opt(z.string()),
  acceptContentTypes: opt(z.string()),
  contentType: opt(z.string()),
  qps: opt(z.number()),
  burst: opt(z.int32()),
});

export const schedulerConfigFileSchema = z.strictObject({
  apiVersion: z.string(),
  kind: z.string(),
  parallelism: opt(z.int32()),
  leaderElection: opt(leaderElection),
  clientConnection: opt(clientConnection),
  enableProfiling: opt(z.boolean()),
  enableContentionProfiling: opt(z.boolean()),
  percentageOfNodesToScore: opt(z.int32()),
  podInitialBackoffSeconds: opt(z.int()),
  podMaxBackoffSeconds: opt(z.int()),
  profiles: opt(z.array(profile)),
  extenders: opt(z.array(extenderSchema)),
  delayCacheUntilActive: opt(z.boolean()),
});

/**
 * The beta versions' shapes, from kube-scheduler's config/v1beta* types at their last release:
 * no per-profile percentageOfNodesToScore (v1 added it) and no delayCacheUntilActive; v1beta1 and
 * v1beta2 still carry the insecure-port addresses; v1beta1 has neither preEnqueue nor multiPoint.
 */
const betaProfile = (points: readonly ExtensionPoint[]) =>
  z.strictObject({
    schedulerName: opt(z.string()),
    plugins: opt(pluginsFor(points)),
    pluginConfig: opt(pluginConfig),
  });

const betaFile = (points: readonly ExtensionPoint[], bindAddresses: boolean) =>
  schedulerConfigFileSchema.omit({ delayCacheUntilActive: true, profiles: true }).extend({
    profiles: opt(z.array(betaProfile(points))),
    ...(bindAddresses ? { healthzBindAddress: opt(z.string()), metricsBindAddress: opt(z.string()) } : {}),
  });

const V1BETA1_POINTS = EXTENSION_POINTS.filter((p) => p !== 'preEnqueue' && p !== 'multiPoint');

/** The schema of each accepted `kubescheduler.config.k8s.io` version. */
export const VERSION_SCHEMAS = {
  v1beta1: betaFile(V1BETA1_POINTS, true),
  v1beta2: betaFile(EXTENSION_POINTS, true),
  v1beta3: betaFile(EXTENSION_POINTS, false),
  v1: schedulerConfigFileSchema,
} as const;
export type SchedulerConfigVersion = keyof typeof VERSION_SCHEMAS;

/** A beta file after structural checks: the v1 fields it shares plus the insecure-port addresses. */
export type BetaConfigFile = z.output<ReturnType<typeof betaFile>> & {
  healthzBindAddress?: string | undefined;
  metricsBindAddress?: string | undefined;
};

/** A configuration file after structural checks, before defaulting. */
export type SchedulerConfigFile = z.output<typeof schedulerConfigFileSchema>;
export type ProfileFile = NonNullable<SchedulerConfigFile['profiles']>[number];
export type PluginSetFile = z.output<typeof pluginSet>;

/** `profiles[0].plugins.filter`, the way kube and users write field paths. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out;
}

const EXPECTED: Readonly<Record<string, string>> = {
  int: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'a mapping',
  record: 'a mapping',
  array: 'a list',
};

function describe(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  if (typeof input === 'object') return 'a mapping';
  // What remains came from YAML: strings, numbers and booleans, all printable as JSON.
  return `${typeof input} ${JSON.stringify(input)}`;
}

/** One line per problem, `path: what is wrong`, with unknown fields named one by one. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((issue) => {
    const at = (path: readonly PropertyKey[], text: string) =>
      `${formatPath(path) || '(top level)'}: ${text}`;
    switch (issue.code) {
      case 'unrecognized_keys':
        return issue.keys.map((k) => at([...issue.path, k], 'unknown field'));
      case 'invalid_type':
        if (issue.input === undefined) return [at(issue.path, 'Required')];
        return [
          at(
            issue.path,
            `expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${describe(issue.input)}`,
          ),
        ];
      case 'too_big':
        return [at(issue.path, `must be at most ${String(issue.maximum)}, got ${describe(issue.input)}`)];
      case 'too_small':
        return [at(issue.path, `must be at least ${String(issue.minimum)}, got ${describe(issue.input)}`)];
      default:
        return [at(issue.path, issue.message.replace(/^Invalid input: /, ''))];
    }
  });
}
