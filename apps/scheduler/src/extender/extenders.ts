/**
 * The configured extenders as one scheduling cycle uses them (kube's findNodesThatPassExtenders,
 * the extender half of prioritizeNodes, extendersBinding, and the preemption evaluator's
 * callExtenders).
 */
import type { Logger } from '@keel/log';
import type { Snapshot } from '../cache/snapshot.js';
import { MAX_NODE_SCORE } from '../framework/interface.js';
import type { NodeInfo } from '../framework/node-info.js';
import { Status } from '../framework/status.js';
import type { Pod } from '../framework/types.js';
import type { Extender } from '../options/extender-config.js';
import type { PluginConfig, SchedulerProfile } from '../options/config-types.js';
import { HTTPExtender } from './http-extender.js';
import { MAX_EXTENDER_PRIORITY, type Victims } from './wire.js';

/**
 * kube's framework.ExtenderName: the "plugin" a pod is unschedulable by when an extender filtered
 * nodes out. Extenders declare no events, so any cluster event may help such a pod.
 */
export const EXTENDER_NAME = 'Extender';

/** kube's scaling: an extender's 0..10 times its weight, into the framework's 0..100 range. */
export function extenderNodeScore(score: number, weight: number): number {
  return score * weight * Math.trunc(MAX_NODE_SCORE / MAX_EXTENDER_PRIORITY);
}

export interface ExtenderFilterPass {
  readonly feasible: NodeInfo[];
  /** Nodes the extenders rejected, with an Unschedulable(AndUnresolvable) status each. */
  readonly rejected: ReadonlyMap<string, Status>;
}

export type ExtenderBindResult = { readonly bound: false } | { readonly bound: true; readonly error?: Error };

const errorOf = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

export class Extenders {
  /** Non-ignorable extenders first, then the ignorable ones, each group in configuration order. */
  readonly list: readonly HTTPExtender[];

  constructor(
    list: readonly HTTPExtender[],
    private readonly logger?: Logger,
  ) {
    this.list = [...list.filter((e) => !e.ignorable), ...list.filter((e) => e.ignorable)];
  }

  /**
   * Builds every configured extender; throws `extenders[i]: <reason>` when one cannot be made
   * (unreadable TLS files, a CA together with `insecure`).
   */
  static fromConfig(configs: readonly Extender[], logger?: Logger): Extenders {
    const built: HTTPExtender[] = [];
    try {
      configs.forEach((c, i) => {
        try {
          built.push(new HTTPExtender(c));
        } catch (err) {
          throw new Error(`extenders[${i}]: ${errorOf(err).message}`, { cause: err });
        }
      });
    } catch (err) {
      for (const e of built) e.close();
      throw err;
    }
    return new Extenders(built, logger);
  }

  get size(): number {
    return this.list.length;
  }

  /**
   * Runs the interested filtering extenders one after the other over the nodes the plugins kept,
   * each seeing what the previous left. An ignorable extender's failure is logged and skipped;
   * any other failure throws, with the extender's own error text, and fails the cycle.
   */
  async filter(pod: Pod, nodes: readonly NodeInfo[]): Promise<ExtenderFilterPass> {
    let feasible = [...nodes];
    const rejected = new Map<string, Status>();
    for (const ext of this.list) {
      if (feasible.length === 0) break;
      if (!ext.isInterested(pod)) continue;
      let out;
      try {
        out = await ext.filter(pod, feasible);
      } catch (err) {
        if (!ext.ignorable) throw errorOf(err);
        this.logger?.info('Skipping extender as it returned error and has ignorable flag set', {
          extender: ext.name,
          err: errorOf(err),
        });
        continue;
      }
      for (const [node, msg] of out.failedAndUnresolvableNodes) rejected.set(node, Status.unresolvable(msg));
      for (const [node, msg] of out.failedNodes) {
        if (!out.failedAndUnresolvableNodes.has(node)) rejected.set(node, Status.unschedulable(msg));
      }
      feasible = out.feasible;
    }
    return { feasible, rejected };
  }

  /**
   * Each interested extender's scores, scaled and weighted, summed by node. The calls run
   * concurrently, and a failing one only contributes nothing (kube ignores prioritize errors, even
   * of non-ignorable extenders).
   */
  async scores(pod: Pod, nodes: readonly NodeInfo[]): Promise<Map<string, number>> {
    const totals = new Map<string, number>();
    await Promise.all(
      this.list
        .filter((e) => e.isInterested(pod))
        .map(async (ext) => {
          let result;
          try {
            result = await ext.prioritize(pod, nodes);
          } catch (err) {
            this.logger
              ?.v(5)
              .info("Failed to run extender's priority function. No score given by this extender.", {
                err: errorOf(err),
                extender: ext.name,
              });
            return;
          }
          for (const { host, score } of result.scores)
            totals.set(host, (totals.get(host) ?? 0) + extenderNodeScore(score, result.weight));
        }),
    );
    return totals;
  }

  /**
   * kube's extendersBinding: the first interested binding extender binds instead of the bind
   * plugins. An ignorable one that fails passes the turn on; `bound: false` means no extender
   * took the pod and the bind plugins should run.
   */
  async bind(pod: Pod, node: string): Promise<ExtenderBindResult> {
    for (const ext of this.list) {
      if (!ext.isBinder() || !ext.isInterested(pod)) continue;
      const m = pod.metadata;
      try {
        await ext.bind({ podName: m.name ?? '', podNamespace: m.namespace ?? '', podUID: m.uid ?? '', node });
        return { bound: true };
      } catch (err) {
        if (!ext.ignorable) return { bound: true, error: errorOf(err) };
        this.logger?.info('Skipping extender in bind as it returned error and has ignorable flag set', {
          extender: ext.name,
          err: errorOf(err),
        });
      }
    }
    return { bound: false };
  }

  /**
   * For DefaultPreemption (kube's Evaluator.callExtenders). `victims` is the candidate victims by
   * node, one entry per candidate node; every interested extender with a preempt verb may narrow
   * it, in turn, and the result is the candidates that remain. Failures of ignorable extenders
   * (and nodes they leave without victims) are skipped; any other failure throws, and the caller
   * should fail PostFilter with `Status.fromError(err)` as kube does. `snapshot` resolves the pod
   * UIDs extenders answer with; pass the cycle's snapshot.
   */
  async preempt(
    pod: Pod,
    victims: ReadonlyMap<string, Victims>,
    snapshot: Pick<Snapshot, 'get'>,
  ): Promise<Map<string, Victims>> {
    let current = new Map(victims);
    if (current.size === 0) return current;
    for (const ext of this.list) {
      if (!ext.supportsPreemption() || !ext.isInterested(pod)) continue;
      let next: Map<string, Victims>;
      try {
        next = await ext.processPreemption(pod, current, snapshot);
      } catch (err) {
        if (!ext.ignorable) throw errorOf(err);
        this.logger?.info('Skipped extender as it returned error and has ignorable flag set', {
          extender: ext.name,
          err: errorOf(err),
        });
        continue;
      }
      for (const [node, v] of next) {
        if (v.pods.length > 0) continue;
        if (!ext.ignorable)
          throw new Error(`expected at least one victim pod on node ${JSON.stringify(node)}`);
        next.delete(node);
        this.logger?.info("Ignored node for which the extender didn't report victims", {
          node,
          extender: ext.name,
        });
      }
      current = next;
      if (current.size === 0) break;
    }
    return current;
  }

  close(): void {
    for (const e of this.list) e.close();
  }
}

/**
 * Managed resources marked `ignoredByScheduler` become NodeResourcesFit's `ignoredResources` in
 * every profile, replacing what the profile set there, as kube-scheduler does when it builds its
 * extenders.
 */
export function withExtenderIgnoredResources(
  profiles: readonly SchedulerProfile[],
  extenders: readonly Extender[],
): SchedulerProfile[] {
  const ignored = extenders.flatMap((e) =>
    e.managedResources.filter((r) => r.ignoredByScheduler).map((r) => r.name),
  );
  if (ignored.length === 0) return [...profiles];
  return profiles.map((p) => {
    const has = p.pluginConfig.some((c) => c.name === 'NodeResourcesFit');
    const pluginConfig: PluginConfig[] = has
      ? p.pluginConfig.map((c) =>
          c.name === 'NodeResourcesFit' ? { ...c, args: { ...c.args, ignoredResources: ignored } } : c,
        )
      : [...p.pluginConfig, { name: 'NodeResourcesFit', args: { ignoredResources: ignored } }];
    return { ...p, pluginConfig };
  });
}
