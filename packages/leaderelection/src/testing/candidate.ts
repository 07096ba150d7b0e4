/** A leader election candidate wired for tests: shared in-memory store, own clock, fault switch. */
import { Duration } from '@keel/flags';
import { LeaderElector } from '../elector.js';
import type { RunResult } from '../elector-config.js';
import type { EventRecorder } from '../lock.js';
import type { MemoryObjectClient } from '../memory-object-client.js';
import { newLock } from '../new-lock.js';
import type { KubeObject, ObjectClient } from '../object-client.js';

export const LEASE_MS = 15_000;
export const RENEW_MS = 10_000;
export const RETRY_MS = 2_000;
export const NAMESPACE = 'platform-system';
export const NAME = 'platform-scheduler';
export const LEASE_PATH = `/apis/coordination.k8s.io/v1/namespaces/${NAMESPACE}/leases/${NAME}`;
export const ENDPOINTS_PATH = `/api/v1/namespaces/${NAMESPACE}/endpoints/${NAME}`;
export const CONFIGMAP_PATH = `/api/v1/namespaces/${NAMESPACE}/configmaps/${NAME}`;

export interface CandidateOptions {
  readonly lockType?: string;
  /** This candidate's clock runs this far ahead of (or, negative, behind) the test's clock. */
  readonly skewMs?: number;
  readonly releaseOnCancel?: boolean;
  /** Jitter source; 0.5 by default so retries land at a predictable 2s + 1.2s. */
  readonly random?: () => number;
}

export interface Candidate {
  readonly id: string;
  readonly elector: LeaderElector;
  readonly controller: AbortController;
  readonly result: Promise<RunResult>;
  /** `<ms since t0> <what>`: started, stopped, new-leader <id>, result <r>. */
  readonly trace: string[];
  /** `<type> <reason> <kind> <name> <message>` for each event recorded. */
  readonly events: string[];
  /** Makes every create/update of this candidate fail, as if its API server connection were cut. */
  failWrites: boolean;
  /** Thrown once by the next create/update, then cleared. */
  nextWriteError: Error | undefined;
  /** When this candidate last wrote the lock successfully (ms since t0). */
  lastWriteAt: number | undefined;
  startedAt: number | undefined;
  endedAt: number | undefined;
  leaderSignal: AbortSignal | undefined;
  skewMs: number;
}

export function startCandidate(
  store: MemoryObjectClient,
  id: string,
  t0: number,
  opts: CandidateOptions = {},
): Candidate {
  const since = () => Date.now() - t0;
  const c: Omit<Candidate, 'elector' | 'result'> = {
    id,
    controller: new AbortController(),
    trace: [],
    events: [],
    failWrites: false,
    nextWriteError: undefined,
    lastWriteAt: undefined,
    startedAt: undefined,
    endedAt: undefined,
    leaderSignal: undefined,
    skewMs: opts.skewMs ?? 0,
  };
  const write = async (op: () => Promise<KubeObject>): Promise<KubeObject> => {
    if (c.failWrites) throw new Error('dial tcp: connection refused');
    const once = c.nextWriteError;
    c.nextWriteError = undefined;
    if (once) throw once;
    const out = await op();
    c.lastWriteAt = since();
    return out;
  };
  const client: ObjectClient = {
    get: (path, o) => store.get(path, o),
    create: (path, obj, o) => write(() => store.create(path, obj, o)),
    update: (path, obj, o) => write(() => store.update(path, obj, o)),
  };
  const recorder: EventRecorder = {
    event: (subject, type, reason, message) =>
      c.events.push(`${type} ${reason} ${subject.kind} ${String(subject.metadata.name)} ${message}`),
  };
  const lock = newLock(opts.lockType ?? 'leases', NAMESPACE, NAME, id, client, recorder);
  const elector = new LeaderElector({
    lock,
    leaseDuration: Duration.fromMilliseconds(LEASE_MS),
    renewDeadline: Duration.fromMilliseconds(RENEW_MS),
    retryPeriod: Duration.fromMilliseconds(RETRY_MS),
    releaseOnCancel: opts.releaseOnCancel ?? false,
    clock: { now: () => Date.now() + c.skewMs },
    random: opts.random ?? (() => 0.5),
    callbacks: {
      onStartedLeading(signal) {
        c.startedAt = since();
        c.leaderSignal = signal;
        c.trace.push(`${since()} started`);
      },
      onStoppedLeading() {
        c.trace.push(`${since()} stopped`);
      },
      onNewLeader(leader) {
        c.trace.push(`${since()} new-leader ${leader}`);
      },
    },
  });
  const result = elector.run(c.controller.signal).then((r) => {
    c.endedAt = since();
    c.trace.push(`${since()} result ${r}`);
    return r;
  });
  return Object.assign(c, { elector, result });
}

/** Whether the candidate is acting as leader right now (its leader signal is live). */
export function acting(c: Candidate): boolean {
  return c.leaderSignal !== undefined && !c.leaderSignal.aborted;
}
