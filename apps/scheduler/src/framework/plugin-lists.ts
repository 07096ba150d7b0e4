import type { PluginSet, SchedulerProfile } from '../options/index.js';
import type { FrameworkHandle, Plugin } from './interface.js';
import type { Registry } from './registry.js';

/**
 * The extension points a profile configures, in kube's getExtensionPoints order (which decides
 * which error a broken profile reports first), with the interface name kube's errors use and the
 * method that tells whether a plugin implements it.
 */
export const POINTS = [
  { point: 'preFilter', type: 'PreFilterPlugin', method: 'preFilter' },
  { point: 'filter', type: 'FilterPlugin', method: 'filter' },
  { point: 'postFilter', type: 'PostFilterPlugin', method: 'postFilter' },
  { point: 'reserve', type: 'ReservePlugin', method: 'reserve' },
  { point: 'preScore', type: 'PreScorePlugin', method: 'preScore' },
  { point: 'score', type: 'ScorePlugin', method: 'score' },
  { point: 'preBind', type: 'PreBindPlugin', method: 'preBind' },
  { point: 'bind', type: 'BindPlugin', method: 'bind' },
  { point: 'postBind', type: 'PostBindPlugin', method: 'postBind' },
  { point: 'permit', type: 'PermitPlugin', method: 'permit' },
  { point: 'preEnqueue', type: 'PreEnqueuePlugin', method: 'preEnqueue' },
  { point: 'queueSort', type: 'QueueSortPlugin', method: 'less' },
] as const;

export type PointName = (typeof POINTS)[number]['point'];

export interface PluginLists {
  /** Plugin instances per extension point, in the order they run. */
  readonly points: Readonly<Record<PointName, readonly Plugin[]>>;
  /** Score weight per score plugin name (never 0). */
  readonly weights: ReadonlyMap<string, number>;
}

function implementsPoint(p: Plugin, method: string): boolean {
  return typeof (p as unknown as Record<string, unknown>)[method] === 'function';
}

function instantiate(
  profile: SchedulerProfile,
  registry: Registry,
  handle: FrameworkHandle,
): Map<string, Plugin> {
  const needed = new Set<string>();
  for (const set of Object.values(profile.plugins)) for (const p of set.enabled) needed.add(p.name);
  const args = new Map(profile.pluginConfig.map((c) => [c.name, c.args]));
  const instances = new Map<string, Plugin>();
  for (const name of needed) {
    const factory = registry.get(name);
    if (!factory) continue;
    const plugin = factory(args.get(name) ?? {}, handle);
    // Statuses and weights are keyed by name; a factory answering to another name is a bug.
    if (plugin.name !== name)
      throw new Error(`plugin ${JSON.stringify(name)} reports its name as ${JSON.stringify(plugin.name)}`);
    instances.set(name, plugin);
  }
  return instances;
}

function explicitList(
  set: PluginSet,
  type: string,
  method: string,
  instances: Map<string, Plugin>,
): string[] {
  const names: string[] = [];
  for (const { name } of set.enabled) {
    const p = instances.get(name);
    if (!p) throw new Error(`${type} ${JSON.stringify(name)} does not exist`);
    if (!implementsPoint(p, method))
      throw new Error(`plugin ${JSON.stringify(name)} does not extend ${type} plugin`);
    if (names.includes(name))
      throw new Error(`plugin ${JSON.stringify(name)} already registered as ${JSON.stringify(type)}`);
    names.push(name);
  }
  return names;
}

/**
 * kube's expandMultiPointPlugins: a multiPoint plugin joins every point it implements unless that
 * point disables it (or everything with `*`). A plugin the point also enables explicitly keeps the
 * explicit entry. Order: explicit entries that override a multiPoint one, then the multiPoint ones,
 * then the remaining explicit ones.
 */
function expand(
  explicit: string[],
  set: PluginSet,
  multiPoint: PluginSet,
  type: string,
  method: string,
  instances: Map<string, Plugin>,
): string[] {
  const disabled = new Set(set.disabled.map((p) => p.name));
  if (disabled.has('*')) return explicit;
  const overrides = new Set<string>();
  const fromMulti: string[] = [];
  for (const { name } of multiPoint.enabled) {
    const p = instances.get(name);
    if (!p) throw new Error(`${type} ${JSON.stringify(name)} does not exist`);
    if (!implementsPoint(p, method) || disabled.has(name)) continue;
    if (explicit.includes(name)) {
      overrides.add(name);
      continue;
    }
    if (fromMulti.includes(name))
      throw new Error(`plugin ${JSON.stringify(name)} already registered as ${JSON.stringify(type)}`);
    fromMulti.push(name);
  }
  return [
    ...explicit.filter((n) => overrides.has(n)),
    ...fromMulti,
    ...explicit.filter((n) => !overrides.has(n)),
  ];
}

/** Resolves a defaulted profile into plugin instances per extension point (kube's NewFramework). */
export function buildPluginLists(
  profile: SchedulerProfile,
  registry: Registry,
  handle: FrameworkHandle,
): PluginLists {
  const instances = instantiate(profile, registry, handle);
  const multiPoint = profile.plugins.multiPoint;
  const points = {} as Record<PointName, Plugin[]>;
  for (const { point, type, method } of POINTS) {
    const set = profile.plugins[point];
    let names = explicitList(set, type, method, instances);
    if (multiPoint.enabled.length > 0) names = expand(names, set, multiPoint, type, method, instances);
    points[point] = names.map((n) => instances.get(n) as Plugin);
  }
  // Explicit score weights win over multiPoint ones; 0 (unset in kube's files) means 1.
  const weights = new Map<string, number>();
  for (const { name, weight } of [...profile.plugins.score.enabled, ...multiPoint.enabled]) {
    const p = instances.get(name);
    if (!p || !implementsPoint(p, 'score') || weights.has(name)) continue;
    weights.set(name, weight || 1);
  }
  return { points, weights };
}
