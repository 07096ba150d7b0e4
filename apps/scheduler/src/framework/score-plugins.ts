/**
 * The PreScore and Score extension points of one profile (kube's RunPreScorePlugins and
 * RunScorePlugins), apart from the Framework that holds the plugin lists.
 */
import type { CycleState } from './cycle-state.js';
import { MAX_NODE_SCORE, MIN_NODE_SCORE, type PreScorePlugin, type ScorePlugin } from './interface.js';
import { PLUGIN_METRICS_NODES_PER_CYCLE, type FrameworkRecorder } from './metrics-recorder.js';
import type { NodeInfo } from './node-info.js';
import { Status, type MaybeStatus } from './status.js';
import type { Pod } from './types.js';

export interface WeightedScorePlugin {
  readonly plugin: ScorePlugin;
  readonly weight: number;
}

export type ScoreOutcome =
  { readonly ok: true; readonly totals: number[] } | { readonly ok: false; readonly status: Status };

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** PreScore: Skip marks the plugin's Score as skipped; anything else unsuccessful is an error. */
export function runPreScores(
  plugins: readonly PreScorePlugin[],
  metrics: FrameworkRecorder,
  state: CycleState,
  pod: Pod,
  nodes: readonly NodeInfo[],
): MaybeStatus {
  for (const pl of plugins) {
    let s: MaybeStatus;
    const t = state.recordPluginMetrics ? performance.now() : 0;
    try {
      s = pl.preScore(state, pod, nodes);
    } catch (err) {
      s = Status.fromError(err);
    }
    if (t !== 0) metrics.observePlugin(pl.name, 'PreScore', s, t);
    if (!s || s.isSuccess()) continue;
    if (s.isSkip()) {
      state.skipScorePlugins.add(pl.name);
      continue;
    }
    return Status.fromError(
      new Error(`running PreScore plugin ${JSON.stringify(pl.name)}: ${s.message()}`),
    ).withPlugin(pl.name);
  }
  return undefined;
}

/**
 * Each score plugin scores every node, normalizes its scores, which must then be integers in
 * 0..100, and contributes score × weight to each node's total.
 */
export function runScores(
  plugins: readonly WeightedScorePlugin[],
  metrics: FrameworkRecorder,
  state: CycleState,
  pod: Pod,
  nodes: readonly NodeInfo[],
): ScoreOutcome {
  const sampled = state.recordPluginMetrics;
  const totals = new Array<number>(nodes.length).fill(0);
  for (const { plugin: pl, weight } of plugins) {
    if (state.skipScorePlugins.has(pl.name)) continue;
    const scores = new Array<number>(nodes.length);
    try {
      if (!sampled) {
        for (let i = 0; i < nodes.length; i++) scores[i] = pl.score(state, pod, nodes[i] as NodeInfo);
      } else {
        const timed = Math.min(nodes.length, PLUGIN_METRICS_NODES_PER_CYCLE);
        for (let i = 0; i < timed; i++) {
          const t = performance.now();
          scores[i] = pl.score(state, pod, nodes[i] as NodeInfo);
          metrics.observePlugin(pl.name, 'Score', undefined, t);
        }
        for (let i = timed; i < nodes.length; i++) scores[i] = pl.score(state, pod, nodes[i] as NodeInfo);
      }
    } catch (err) {
      return {
        ok: false,
        status: Status.fromError(
          new Error(
            `running Score plugins: plugin ${JSON.stringify(pl.name)} failed with: ${errorText(err)}`,
          ),
        ).withPlugin(pl.name),
      };
    }
    const t = sampled ? performance.now() : 0;
    try {
      pl.normalizeScores?.(scores, state, pod);
    } catch (err) {
      return {
        ok: false,
        status: Status.fromError(
          new Error(
            `running Normalize on Score plugins: plugin ${JSON.stringify(pl.name)} failed with: ${errorText(err)}`,
          ),
        ).withPlugin(pl.name),
      };
    }
    if (sampled && pl.normalizeScores)
      metrics.observePlugin(pl.name, 'ScoreExtensionNormalize', undefined, t);
    for (let i = 0; i < nodes.length; i++) {
      const s = scores[i] as number;
      if (!Number.isInteger(s) || s < MIN_NODE_SCORE || s > MAX_NODE_SCORE) {
        const msg = `running Normalize on Score plugins: plugin ${JSON.stringify(pl.name)} returns an invalid score ${s}, it should in the range of [${MIN_NODE_SCORE}, ${MAX_NODE_SCORE}] after normalizing`;
        return { ok: false, status: Status.fromError(new Error(msg)).withPlugin(pl.name) };
      }
      totals[i] = (totals[i] as number) + s * weight;
    }
  }
  return { ok: true, totals };
}
