/**
 * The PodScheduled=False condition the scheduler writes after a failed attempt (kube's updatePod
 * with podutil.UpdatePodCondition and util.PatchPodStatus): a strategic merge patch to
 * `pods/<name>/status`, sent only when the condition actually changes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { formatTime, microTimeFromDate, type StatusReason } from '@keel/apimachinery';
import { NetworkError, type RestClient } from '@keel/client';
import type { Pod } from '../framework/types.js';

export interface PodCondition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
  readonly lastProbeTime?: string | null;
  readonly lastTransitionTime?: string | null;
}

export const POD_SCHEDULED = 'PodScheduled';

function conditionsOf(pod: Pod): PodCondition[] {
  const c = pod.status?.['conditions'];
  return Array.isArray(c) ? (c as PodCondition[]).filter((x) => typeof x?.type === 'string') : [];
}

/**
 * The status patch that sets PodScheduled=False with `reason` and `message`, or undefined when the
 * pod already carries exactly that condition. The transition time is kept while the status stays
 * False, as UpdatePodCondition does. The body is what client-go's two-way merge patch produces
 * for the status alone: the changed condition, plus the list order when other conditions exist.
 */
export function podScheduledFalsePatch(
  pod: Pod,
  reason: string,
  message: string,
  nowMs: number,
  nominatedNodeName?: string,
): Record<string, unknown> | undefined {
  const conditions = conditionsOf(pod);
  const old = conditions.find((c) => c.type === POD_SCHEDULED);
  const now = formatTime(microTimeFromDate(new Date(nowMs)));
  const lastTransitionTime = old && old.status === 'False' ? (old.lastTransitionTime ?? null) : now;
  const condition: PodCondition = {
    type: POD_SCHEDULED,
    status: 'False',
    reason,
    message,
    lastProbeTime: null,
    lastTransitionTime,
  };
  const conditionSame =
    old !== undefined &&
    old.status === condition.status &&
    (old.reason ?? '') === reason &&
    (old.message ?? '') === message &&
    (old.lastProbeTime ?? null) === null;
  // kube's updatePod: the nominated node is written only when set (or cleared) and different.
  const current = pod.status?.['nominatedNodeName'];
  const nnnChanged = nominatedNodeName !== undefined && nominatedNodeName !== (current ?? '');
  if (conditionSame && !nnnChanged) return undefined;
  const status: Record<string, unknown> = {};
  if (!conditionSame) {
    status['conditions'] = [condition];
    if (conditions.length > 0) {
      const order = old ? conditions : [...conditions, condition];
      status['$setElementOrder/conditions'] = order.map((c) => ({ type: c.type }));
    }
  }
  if (nnnChanged) status['nominatedNodeName'] = nominatedNodeName === '' ? null : nominatedNodeName;
  return { status };
}

export function podStatusPath(pod: Pod): string {
  const { name = '', namespace = '' } = pod.metadata;
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/status`;
}

const RETRIABLE: ReadonlySet<StatusReason | undefined> = new Set<StatusReason | undefined>([
  'InternalError',
  'ServiceUnavailable',
]);

/** kube's Retriable: server errors and lost connections are worth another try. */
function retriable(err: unknown): boolean {
  if (err instanceof NetworkError) return true;
  const reason = (err as { reason?: StatusReason } | undefined)?.reason;
  return RETRIABLE.has(reason);
}

/**
 * Patches PodScheduled=False (and a nominated node, if given) onto the pod; resolves false when
 * nothing needed writing.
 */
export async function patchPodScheduledFalse(
  client: Pick<RestClient, 'patch'>,
  pod: Pod,
  reason: string,
  message: string,
  nowMs = Date.now(),
  nominatedNodeName?: string,
): Promise<boolean> {
  const patch = podScheduledFalsePatch(pod, reason, message, nowMs, nominatedNodeName);
  if (!patch) return false;
  await patchPodStatus(client, pod, patch);
  return true;
}

/**
 * A strategic merge patch to the pod's status, retried as client-go's retry.DefaultBackoff does
 * (4 tries, 10 ms growing fivefold) on server errors and lost connections.
 */
export async function patchPodStatus(
  client: Pick<RestClient, 'patch'>,
  pod: Pod,
  patch: Record<string, unknown>,
): Promise<void> {
  let delay = 10;
  for (let attempt = 1; ; attempt++) {
    try {
      await client.patch<void>(podStatusPath(pod), 'strategic', patch, { discardBody: true });
      return;
    } catch (err) {
      if (attempt >= 4 || !retriable(err)) throw err;
      await sleep(delay * (1 + Math.random() * 0.1));
      delay *= 5;
    }
  }
}
