import type { BetaConfigFile, PluginSetFile, ProfileFile } from './config-schema.js';

type BetaProfile = NonNullable<BetaConfigFile['profiles']>[number];
type PluginEntry = NonNullable<PluginSetFile['enabled']>[number];
type PluginConfigFile = NonNullable<ProfileFile['pluginConfig']>[number];

/** Plugins of older kube-schedulers that Keel does not run, and what to use instead. */
export const REMOVED_PLUGINS: Readonly<Record<string, string>> = {
  NodeLabel:
    'kube-scheduler removed this plugin in v1beta2 (1.22) and Keel does not implement it; use node affinity',
  ServiceAffinity:
    'kube-scheduler removed this plugin in v1beta2 (1.22) and Keel does not implement it; use inter-pod affinity',
  NodePreferAvoidPods:
    'kube-scheduler removed this plugin in 1.24 and Keel does not implement it; use taints',
  RequestedToCapacityRatio: "Keel's NodeResourcesFit has no RequestedToCapacityRatio scoring strategy",
  SelectorSpread:
    'Keel does not implement this plugin; PodTopologySpread (defaultingType System) spreads pods by default',
};

/** v1beta1's resource scoring plugins, which v1beta2 folded into NodeResourcesFit's scoringStrategy. */
const STRATEGY_PLUGINS: Readonly<Record<string, 'LeastAllocated' | 'MostAllocated'>> = {
  NodeResourcesLeastAllocated: 'LeastAllocated',
  NodeResourcesMostAllocated: 'MostAllocated',
};
const FIT = 'NodeResourcesFit';

const isStrategy = (name: string) => Object.hasOwn(STRATEGY_PLUGINS, name);

function convertSet(set: PluginSetFile, point: string, path: string, errors: string[]): PluginSetFile {
  const enabled = (set.enabled ?? []).map((p, j): PluginEntry => {
    const at = `${path}.enabled[${j}].name ${JSON.stringify(p.name)}`;
    const why = Object.hasOwn(REMOVED_PLUGINS, p.name) ? REMOVED_PLUGINS[p.name] : undefined;
    if (why) errors.push(`${at}: ${why}`);
    else if (isStrategy(p.name) && point !== 'score') errors.push(`${at}: is a score plugin only`);
    else if (p.name === FIT && point === 'score')
      errors.push(
        `${at}: does not score in v1beta1; enable NodeResourcesLeastAllocated or NodeResourcesMostAllocated`,
      );
    return isStrategy(p.name) ? { ...p, name: FIT } : p;
  });
  // Disabling a plugin Keel never runs changes nothing; NodeResourcesFit had no score in v1beta1.
  const disabled = (set.disabled ?? [])
    .filter((p) => !Object.hasOwn(REMOVED_PLUGINS, p.name) && !(point === 'score' && p.name === FIT))
    .map((p) => (isStrategy(p.name) ? { name: FIT } : p));
  return {
    ...(set.enabled ? { enabled } : {}),
    ...(set.disabled ? { disabled } : {}),
  };
}

/**
 * Which resource strategy scores: LeastAllocated is a v1beta1 default; enabling MostAllocated
 * alongside it would need two NodeResourcesFit scores, which Keel cannot run.
 */
function scoringStrategy(p: BetaProfile, i: number, errors: string[]): 'LeastAllocated' | 'MostAllocated' {
  const score = p.plugins?.score;
  const off = new Set((score?.disabled ?? []).map((d) => d.name));
  const enabled = score?.enabled ?? [];
  const leastOn =
    enabled.some((e) => e.name === 'NodeResourcesLeastAllocated') ||
    !(off.has('*') || off.has('NodeResourcesLeastAllocated'));
  const most = enabled.findIndex((e) => e.name === 'NodeResourcesMostAllocated');
  if (most === -1) return 'LeastAllocated';
  if (leastOn) {
    errors.push(
      `profiles[${i}].plugins.score.enabled[${most}].name "NodeResourcesMostAllocated": cannot score together with NodeResourcesLeastAllocated (Keel runs both as NodeResourcesFit's scoringStrategy); disable NodeResourcesLeastAllocated in score`,
    );
  }
  return 'MostAllocated';
}

const withoutTypeMeta = (args: Readonly<Record<string, unknown>>) => {
  const { apiVersion: _v, kind: _k, ...rest } = args;
  return rest;
};

/**
 * v1beta1 pluginConfig in v1 terms: the scoring strategy's args move into NodeResourcesFitArgs,
 * and PodTopologySpreadArgs with defaultConstraints but no defaultingType keep v1beta1's `List`.
 */
function convertPluginConfig(
  p: BetaProfile,
  i: number,
  strategy: 'LeastAllocated' | 'MostAllocated',
  errors: string[],
): PluginConfigFile[] {
  const out: PluginConfigFile[] = [];
  let fitIndex = -1;
  let resources: unknown;
  (p.pluginConfig ?? []).forEach((c, j) => {
    const path = `profiles[${i}].pluginConfig[${j}]`;
    const args = c.args ?? {};
    const why = Object.hasOwn(REMOVED_PLUGINS, c.name) ? REMOVED_PLUGINS[c.name] : undefined;
    if (why) {
      errors.push(`${path}.name ${JSON.stringify(c.name)}: ${why}`);
    } else if (isStrategy(c.name)) {
      for (const key of Object.keys(withoutTypeMeta(args)))
        if (key !== 'resources') errors.push(`${path}.args.${key}: unknown field`);
      if (STRATEGY_PLUGINS[c.name] === strategy && args.resources !== undefined) resources = args.resources;
    } else if (c.name === FIT) {
      if (args.scoringStrategy !== undefined)
        errors.push(
          `${path}.args.scoringStrategy: unknown field (v1beta1 scores with NodeResourcesLeastAllocated or NodeResourcesMostAllocated)`,
        );
      fitIndex = out.length;
      out.push(c);
    } else if (
      c.name === 'PodTopologySpread' &&
      args.defaultingType === undefined &&
      Array.isArray(args.defaultConstraints) &&
      args.defaultConstraints.length > 0
    ) {
      out.push({ name: c.name, args: { ...args, defaultingType: 'List' } });
    } else {
      out.push(c);
    }
  });
  if (strategy === 'LeastAllocated' && resources === undefined) return out;
  const fitArgs = fitIndex === -1 ? {} : withoutTypeMeta(out[fitIndex]?.args ?? {});
  const merged: PluginConfigFile = {
    name: FIT,
    args: {
      ...fitArgs,
      scoringStrategy: { type: strategy, ...(resources === undefined ? {} : { resources }) },
    },
  };
  if (fitIndex === -1) out.push(merged);
  else out[fitIndex] = merged;
  return out;
}

/** One v1beta1 profile in v1 terms; problems Keel cannot convert are pushed to `errors`. */
export function convertV1beta1Profile(p: BetaProfile, i: number, errors: string[]): ProfileFile {
  const strategy = scoringStrategy(p, i, errors);
  const plugins = p.plugins
    ? Object.fromEntries(
        Object.entries(p.plugins).map(([point, set]) => [
          point,
          set === undefined ? undefined : convertSet(set, point, `profiles[${i}].plugins.${point}`, errors),
        ]),
      )
    : undefined;
  const pluginConfig = convertPluginConfig(p, i, strategy, errors);
  return {
    ...(p.schedulerName === undefined ? {} : { schedulerName: p.schedulerName }),
    ...(plugins ? { plugins } : {}),
    ...(p.pluginConfig || pluginConfig.length > 0 ? { pluginConfig } : {}),
  };
}
