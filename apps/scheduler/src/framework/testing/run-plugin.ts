import { CycleState } from '../cycle-state.js';
import type { FilterPlugin, Plugin, PreFilterPlugin, PreScorePlugin, ScorePlugin } from '../interface.js';
import type { NodeInfo } from '../node-info.js';
import type { MaybeStatus } from '../status.js';
import type { Pod } from '../types.js';

/** A filter result as tests compare it: undefined for success, else code and reasons. */
export type FilterResult = { code: string; reasons: readonly string[] } | undefined;

/** Runs a plugin's PreFilter (if any) and Filter the way the framework would, for one node. */
export function runFilter(
  plugin: FilterPlugin & Partial<PreFilterPlugin>,
  pod: Pod,
  nodeInfo: NodeInfo,
): FilterResult {
  const state = new CycleState();
  const pre = plugin.preFilter?.(state, pod);
  if (pre?.isSkip()) return undefined;
  if (pre && !pre.isSuccess()) return { code: pre.code, reasons: pre.reasons };
  const s: MaybeStatus = plugin.filter(state, pod, nodeInfo);
  return s ? { code: s.code, reasons: s.reasons } : undefined;
}

/**
 * Runs PreScore, Score over every node and NormalizeScore, as the framework does before weights.
 * A PreScore Skip gives undefined.
 */
export function runScore(
  plugin: ScorePlugin & Partial<PreScorePlugin> & Plugin,
  pod: Pod,
  nodes: NodeInfo[],
): number[] | undefined {
  const state = new CycleState();
  const pre = plugin.preScore?.(state, pod, nodes);
  if (pre?.isSkip()) return undefined;
  const scores = nodes.map((n) => plugin.score(state, pod, n));
  plugin.normalizeScores?.(scores, state, pod);
  return scores;
}
