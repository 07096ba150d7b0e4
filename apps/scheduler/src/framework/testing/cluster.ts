import { SchedulerCache } from '../../cache/cache.js';
import type { Snapshot } from '../../cache/snapshot.js';
import { CycleState } from '../cycle-state.js';
import type { FilterPlugin, PreFilterPlugin, PreScorePlugin, ScorePlugin } from '../interface.js';
import type { NodeInfo } from '../node-info.js';
import type { LabelSelectorSpec, Node, Pod, PodAffinityTerm } from '../types.js';
import type { FilterResult } from './run-plugin.js';

/** A cache holding `nodes` and the assigned `pods` (each with `spec.nodeName`), and its snapshot. */
export function makeSnapshot(nodes: readonly Node[], pods: readonly Pod[] = []): Snapshot {
  const cache = new SchedulerCache();
  for (const n of nodes) cache.addNode(n);
  for (const p of pods) cache.addPod(p);
  return cache.snapshot();
}

/**
 * Runs PreFilter once and Filter on every node of the snapshot, as a scheduling cycle does; a
 * PreFilter Skip passes every node, a PreFilter rejection is reported for every node.
 */
export function filterAll(
  plugin: FilterPlugin & PreFilterPlugin,
  pod: Pod,
  snapshot: Snapshot,
): Record<string, FilterResult> {
  const state = new CycleState();
  state.snapshot = snapshot;
  const pre = plugin.preFilter(state, pod);
  const out: Record<string, FilterResult> = {};
  for (const info of snapshot.nodeInfos) {
    if (pre?.isSkip()) out[info.name] = undefined;
    else if (pre && !pre.isSuccess()) out[info.name] = { code: pre.code, reasons: pre.reasons };
    else {
      const s = plugin.filter(state, pod, info);
      out[info.name] = s ? { code: s.code, reasons: s.reasons } : undefined;
    }
  }
  return out;
}

/**
 * PreScore over `feasible` (every node by default), Score and NormalizeScore; undefined when
 * PreScore skips. Scores by node name.
 */
export function scoreAll(
  plugin: ScorePlugin & Partial<PreScorePlugin>,
  pod: Pod,
  snapshot: Snapshot,
  feasible: readonly NodeInfo[] = snapshot.nodeInfos,
): Record<string, number> | undefined {
  const state = new CycleState();
  state.snapshot = snapshot;
  const pre = plugin.preScore?.(state, pod, feasible);
  if (pre?.isSkip()) return undefined;
  if (pre) throw pre.asError();
  const scores = feasible.map((n) => plugin.score(state, pod, n));
  plugin.normalizeScores?.(scores, state, pod);
  return Object.fromEntries(feasible.map((n, i) => [n.name, scores[i] as number]));
}

/** A node with exactly these labels (no hostname label unless given). */
export function labelledNode(name: string, labels: Readonly<Record<string, string>>): Node {
  return {
    metadata: { name, labels },
    status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
  };
}

export const inExpr = (key: string, ...values: string[]): LabelSelectorSpec => ({
  matchExpressions: [{ key, operator: 'In', values }],
});

export const term = (
  topologyKey: string,
  labelSelector: LabelSelectorSpec | null,
  more: Partial<PodAffinityTerm> = {},
): PodAffinityTerm => ({ topologyKey, ...(labelSelector ? { labelSelector } : {}), ...more });
