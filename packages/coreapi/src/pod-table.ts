/**
 * The server-side Table for Pods (pkg/printers/internalversion printPod): Name, Ready, Status,
 * Restarts, Age, and the wide IP, Node, Nominated Node and Readiness Gates columns.
 */
import { parseMicroTime, TimeParseError } from '@keel/apimachinery';
import { ageColumn, column, nameColumn, since, type TableColumn } from '@keel/resource';
import type { Container, ContainerStatus, Pod } from './pod-types.js';

export const podTableColumns: readonly TableColumn[] = [
  nameColumn,
  column('Ready', 'The aggregate readiness state of this pod for accepting traffic.'),
  column('Status', 'The aggregate status of the containers in this pod.'),
  column('Restarts', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
  ageColumn,
  column('IP', 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', 1),
  column('Node', 'NodeName is a request to schedule this pod onto a specific node. If it is non-empty, the scheduler simply schedules this pod onto that node, assuming that it fits resource requirements.', 1),
  column(
    'Nominated Node',
    'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.',
    1,
  ),
  column(
    'Readiness Gates',
    'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates',
    1,
  ),
];

/** The later of two timestamps (Go's Time.Before on the restart dates). */
function later(a: string | undefined, b: string | undefined): string | undefined {
  if (!b) return a;
  if (!a) return b;
  const [ta, tb] = [parseMicroTime(a), parseMicroTime(b)];
  if (ta instanceof TimeParseError || tb instanceof TimeParseError) return a;
  return ta.seconds < tb.seconds || (ta.seconds === tb.seconds && ta.micros < tb.micros) ? b : a;
}

const isRestartable = (c: Container | undefined): boolean => c?.restartPolicy === 'Always';

interface Tally {
  restarts: number;
  lastRestart: string | undefined;
}

function count(t: Tally, s: ContainerStatus): void {
  t.restarts += s.restartCount ?? 0;
  t.lastRestart = later(t.lastRestart, s.lastState?.terminated?.finishedAt);
}

/** The init container part of printPod: returns the reason when initialisation is not done. */
function initReason(pod: Pod, all: Tally, sidecars: Tally, ready: { n: number }): string | undefined {
  const inits = new Map((pod.spec?.initContainers ?? []).map((c) => [c.name ?? '', c]));
  const total = pod.spec?.initContainers?.length ?? 0;
  const statuses = pod.status?.initContainerStatuses ?? [];
  for (const [i, s] of statuses.entries()) {
    count(all, s);
    const restartable = isRestartable(inits.get(s.name ?? ''));
    if (restartable) count(sidecars, s);
    const term = s.state?.terminated;
    if (term && (term.exitCode ?? 0) === 0) continue;
    if (restartable && s.started === true) {
      if (s.ready) ready.n++;
      continue;
    }
    if (term) {
      if (term.reason) return `Init:${term.reason}`;
      return term.signal ? `Init:Signal:${term.signal}` : `Init:ExitCode:${term.exitCode ?? 0}`;
    }
    const waiting = s.state?.waiting?.reason ?? '';
    if (waiting !== '' && waiting !== 'PodInitializing') return `Init:${waiting}`;
    return `Init:${i}/${total}`;
  }
  return undefined;
}

const hasCondition = (pod: Pod, type: string, status = 'True'): boolean =>
  (pod.status?.conditions ?? []).some((c) => c.type === type && c.status === status);

export function podTableRow(pod: Pod, now: Date): unknown[] {
  const spec = pod.spec ?? {};
  const status = pod.status ?? {};
  const total = (spec.containers?.length ?? 0) + (spec.initContainers ?? []).filter(isRestartable).length;
  let reason = status.reason || (status.phase ?? '');
  if ((status.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) reason = 'SchedulingGated';
  const all: Tally = { restarts: 0, lastRestart: undefined };
  const sidecars: Tally = { restarts: 0, lastRestart: undefined };
  const ready = { n: 0 };
  const init = initReason(pod, all, sidecars, ready);
  let tally = all;
  if (init === undefined || hasCondition(pod, 'Initialized')) {
    if (init !== undefined) reason = init;
    tally = sidecars;
    let hasRunning = false;
    for (const s of [...(status.containerStatuses ?? [])].reverse()) {
      count(tally, s);
      const term = s.state?.terminated;
      if (s.state?.waiting?.reason) reason = s.state.waiting.reason;
      else if (term?.reason) reason = term.reason;
      else if (term) reason = term.signal ? `Signal:${term.signal}` : `ExitCode:${term.exitCode ?? 0}`;
      else if (s.ready && s.state?.running) {
        hasRunning = true;
        ready.n++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = hasCondition(pod, 'Ready') ? 'Running' : 'NotReady';
  } else {
    reason = init;
  }
  const terminal = status.phase === 'Succeeded' || status.phase === 'Failed';
  if (pod.metadata.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && !terminal) reason = 'Terminating';
  const restarts = tally.restarts !== 0 && tally.lastRestart ? `${tally.restarts} (${since(tally.lastRestart, now)} ago)` : String(tally.restarts);
  const gates = spec.readinessGates ?? [];
  const gatesCell = gates.length === 0 ? '<none>' : `${gates.filter((g) => (status.conditions ?? []).find((c) => c.type === g.conditionType)?.status === 'True').length}/${gates.length}`;
  return [
    pod.metadata.name ?? '',
    `${ready.n}/${total}`,
    reason,
    restarts,
    since(pod.metadata.creationTimestamp, now),
    status.podIPs?.[0]?.ip || '<none>',
    spec.nodeName || '<none>',
    status.nominatedNodeName || '<none>',
    gatesCell,
  ];
}

/** The row conditions printPod adds for finished pods (kubectl hides Completed rows with them). */
export function podRowConditions(pod: Pod): { type: string; status: string; reason: string; message: string }[] {
  if (pod.status?.phase === 'Succeeded') return [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
  if (pod.status?.phase === 'Failed') return [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];
  return [];
}
