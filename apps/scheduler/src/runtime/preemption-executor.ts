/**
 * What a preemption does through the API server once DefaultPreemption chose a node (kube's
 * prepareCandidate and PreemptPod): lower-priority pods nominated to that node lose their
 * nomination; each victim gets the DisruptionTarget condition, is deleted (a plain DELETE, so its
 * grace period applies) and gets a `Preempted` event. It runs in the background, as kube's
 * asynchronous preemption does; the preemptor waits in the queue for the victims' deletion: until
 * the writes are over and the scheduler's cache no longer holds a victim as running (kube retries
 * it on the last victim's delete event, not on the API server's answer).
 */
import { formatTime, microTimeFromDate } from '@keel/apimachinery';
import type { RestClient } from '@keel/client';
import type { Logger } from '@keel/log';
import type {
  PodDisruptionBudget,
  PreemptionHandle,
  PreemptionPlan,
} from '../framework/preemption-handle.js';
import { podName, type Pod } from '../framework/types.js';
import { nominatedNodeName } from '../scheduling/nominator.js';
import { schedulerNameOf } from '../scheduling/pod-filters.js';
import type { Recorder } from './events.js';
import { podReference } from './pod-reference.js';
import { patchPodStatus, type PodCondition } from './pod-condition.js';

export const DISRUPTION_TARGET = 'DisruptionTarget';
export const PREEMPTION_BY_SCHEDULER = 'PreemptionByScheduler';

export interface PreemptionExecutorDeps {
  readonly client: Pick<RestClient, 'patch' | 'delete'>;
  /** The event recorder of the preemptor's profile. */
  recorder(profile: string): Recorder | undefined;
  readonly logger: Logger;
  /** The PDB informer's objects. */
  podDisruptionBudgets(): readonly PodDisruptionBudget[];
  readonly now?: () => number;
  /**
   * Whether the scheduler's cache still holds `victim` as a running pod (neither removed nor
   * terminating); without it, a preemption ends with its writes.
   */
  victimInCache?(victim: Pod): boolean;
  /** How long a preemption waits, after its writes, for its victims to leave the cache. */
  readonly victimWaitMs?: number;
  /** A preemption is over (writes done or failed, victims gone): the preemptor may be retried. */
  onDone?(preemptor: Pod): void;
}

/** A watch that misses a deletion must not hold the preemptor back for good. */
const VICTIM_WAIT_MS = 10_000;

const isNotFound = (err: unknown) => (err as { reason?: string } | undefined)?.reason === 'NotFound';

function podPath(pod: Pod): string {
  const { name = '', namespace = '' } = pod.metadata;
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`;
}

/**
 * The status patch that adds DisruptionTarget=True (PreemptionByScheduler) to the victim, or
 * undefined when it already has exactly that (kube's UpdatePodCondition).
 */
export function disruptionTargetPatch(
  victim: Pod,
  schedulerName: string,
  nowMs: number,
): Record<string, unknown> | undefined {
  const raw = victim.status?.['conditions'];
  const conditions = Array.isArray(raw) ? (raw as PodCondition[]) : [];
  const old = conditions.find((c) => c?.type === DISRUPTION_TARGET);
  const message = `${schedulerName}: preempting to accommodate a higher priority pod`;
  if (old?.status === 'True' && old.reason === PREEMPTION_BY_SCHEDULER && old.message === message)
    return undefined;
  const condition: PodCondition = {
    type: DISRUPTION_TARGET,
    status: 'True',
    reason: PREEMPTION_BY_SCHEDULER,
    message,
    lastProbeTime: null,
    lastTransitionTime:
      old?.status === 'True'
        ? (old.lastTransitionTime ?? null)
        : formatTime(microTimeFromDate(new Date(nowMs))),
  };
  const status: Record<string, unknown> = { conditions: [condition] };
  if (conditions.length > 0) {
    const order = old ? conditions : [...conditions, condition];
    status['$setElementOrder/conditions'] = order.map((c) => ({ type: c.type }));
  }
  return { status };
}

export class PreemptionExecutor implements PreemptionHandle {
  private readonly running = new Set<Promise<void>>();
  /** Preemptors (by UID) whose victims are still being deleted, and how many runs each has. */
  private readonly preempting = new Map<string, number>();
  private readonly now: () => number;
  /** Victims (by UID) deleted but still in the cache, and what to call once they all left it. */
  private readonly awaited = new Map<string, () => void>();
  private settling = false;

  constructor(private readonly deps: PreemptionExecutorDeps) {
    this.now = deps.now ?? Date.now;
  }

  podDisruptionBudgets(): readonly PodDisruptionBudget[] {
    return this.deps.podDisruptionBudgets();
  }

  /**
   * Whether the pod's preemption is still deleting its victims (kube's IsPodRunningPreemption):
   * the queue holds it back meanwhile, so it is not retried against victims still in the cache
   * and does not preempt a second node for itself.
   */
  isPreempting(pod: Pod): boolean {
    return this.preempting.has(pod.metadata.uid ?? '');
  }

  execute(plan: PreemptionPlan): void {
    const uid = plan.preemptor.metadata.uid ?? '';
    this.preempting.set(uid, (this.preempting.get(uid) ?? 0) + 1);
    const p = this.run(plan)
      .catch((err: unknown) =>
        this.deps.logger.error('Preemption failed', {
          preemptor: podName(plan.preemptor),
          node: plan.nodeName,
          err,
        }),
      )
      .finally(() => {
        const left = (this.preempting.get(uid) ?? 1) - 1;
        if (left > 0) this.preempting.set(uid, left);
        else this.preempting.delete(uid);
        if (left > 0) return;
        try {
          this.deps.onDone?.(plan.preemptor);
        } catch (err) {
          this.deps.logger.error('Requeueing the preemptor failed', {
            preemptor: podName(plan.preemptor),
            err,
          });
        }
      });
    this.running.add(p);
    void p.finally(() => this.running.delete(p));
  }

  /**
   * The scheduler's cache saw `pod` change or go: a victim a preemption waits for counts as gone
   * once the cache no longer holds it running.
   */
  podChanged(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    const gone = this.awaited.get(uid);
    if (!gone || this.deps.victimInCache?.(pod)) return;
    this.awaited.delete(uid);
    gone();
  }

  /**
   * Resolves once every preemption started so far has finished its writes. Shutting down, nothing
   * waits for the cache any more: no preemptor will be retried.
   */
  async settle(): Promise<void> {
    this.settling = true;
    for (const gone of [...this.awaited.values()]) gone();
    this.awaited.clear();
    await Promise.allSettled([...this.running]);
  }

  private async run(plan: PreemptionPlan): Promise<void> {
    const { logger } = this.deps;
    const victims = plan.victims.filter((v) => !v.metadata.deletionTimestamp);
    const results = await Promise.allSettled(victims.map((v) => this.preemptPod(plan, v)));
    for (const r of results) if (r.status === 'rejected') throw r.reason;
    await this.victimsGone(victims);
    // kube clears these after the victims: they may no longer fit, and losing the nomination
    // sends them back to the active queue.
    for (const p of plan.nominatedToClear) {
      if (nominatedNodeName(p) === '') continue;
      try {
        await patchPodStatus(this.deps.client, p, { status: { nominatedNodeName: null } });
      } catch (err) {
        logger.error("Cannot clear 'NominatedNodeName' field", { pod: podName(p), err });
      }
    }
  }

  /** Resolves once none of `victims` is in the cache as a running pod (or the wait is over). */
  private async victimsGone(victims: readonly Pod[]): Promise<void> {
    const deps = this.deps;
    const left = deps.victimInCache && !this.settling ? victims.filter((v) => deps.victimInCache?.(v)) : [];
    if (left.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      let count = left.length;
      const done = () => {
        for (const v of left) this.awaited.delete(v.metadata.uid ?? '');
        resolve();
      };
      for (const v of left) this.awaited.set(v.metadata.uid ?? '', () => --count === 0 && done());
      timer = setTimeout(done, this.deps.victimWaitMs ?? VICTIM_WAIT_MS);
      timer.unref();
    });
    clearTimeout(timer);
  }

  private async preemptPod(plan: PreemptionPlan, victim: Pod): Promise<void> {
    const { client, logger } = this.deps;
    const { preemptor, nodeName } = plan;
    const patch = disruptionTargetPatch(victim, schedulerNameOf(preemptor), this.now());
    try {
      if (patch) await patchPodStatus(client, victim, patch);
      await client.delete<void>(podPath(victim), { discardBody: true });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      logger.v(2).info('Victim Pod is already deleted', {
        preemptor: podName(preemptor),
        victim: podName(victim),
        node: nodeName,
      });
      return;
    }
    logger.v(2).info('Preemptor Pod preempted victim Pod', {
      preemptor: podName(preemptor),
      victim: podName(victim),
      node: nodeName,
    });
    this.deps
      .recorder(schedulerNameOf(preemptor))
      ?.eventf(
        podReference(victim),
        'Normal',
        'Preempted',
        'Preempting',
        `Preempted by pod ${preemptor.metadata.uid ?? ''} on node ${nodeName}`,
        podReference(preemptor),
      );
  }
}
