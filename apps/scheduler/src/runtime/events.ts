/**
 * Events the scheduler writes: client-go's events.k8s.io/v1 broadcaster (tools/events) for the
 * scheduling events, with its isomorphic-event series, and the legacy core/v1 recorder that
 * kube-scheduler hands to leader election. Recording never blocks or throws: writes run in the
 * background, failures are logged, and `flush` waits for what is in flight before the process exits.
 */
import { hostname as osHostname } from 'node:os';
import { formatMicroTime, formatTime, isNotFound, microTimeFromDate } from '@keel/apimachinery';
import type { RestClient } from '@keel/client';
import type { EventRecorder as LockEventRecorder, EventSubject } from '@keel/leaderelection';
import type { Logger } from '@keel/log';

export type EventType = 'Normal' | 'Warning';

/** core/v1 ObjectReference, as reference.GetReference fills it. */
export interface ObjectReference {
  readonly kind: string;
  readonly apiVersion: string;
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
}

export interface EventSeries {
  count: number;
  lastObservedTime: string;
}

/** An events.k8s.io/v1 Event as the recorder builds it. */
export interface EventV1 {
  readonly apiVersion: 'events.k8s.io/v1';
  readonly kind: 'Event';
  readonly metadata: { readonly name: string; readonly namespace: string };
  readonly eventTime: string;
  series?: EventSeries;
  readonly reportingController: string;
  readonly reportingInstance: string;
  readonly action: string;
  readonly reason: string;
  readonly regarding: ObjectReference;
  /** A second object the event concerns (the preemptor, on a victim's Preempted event). */
  readonly related?: ObjectReference;
  readonly note: string;
  readonly type: EventType;
}

/** client-go's note limit (1 kB); longer notes are cut with `...` as the scheduler's truncateMessage does. */
export const MAX_NOTE_BYTES = 1024;

export function truncateNote(note: string): string {
  if (Buffer.byteLength(note) <= MAX_NOTE_BYTES) return note;
  const suffix = '...';
  let cut = Buffer.from(note)
    .subarray(0, MAX_NOTE_BYTES - suffix.length)
    .toString('utf8');
  // A multi-byte character cut in half decodes to U+FFFD; drop it.
  cut = cut.replace(/\uFFFD$/, '');
  return cut + suffix;
}

/**
 * Unique, increasing nanoseconds since the epoch for event names (`<object>.<hex nanos>`): the
 * wall clock at start plus the monotonic clock, bumped when two calls land on the same value.
 */
export function nanoClock(): () => bigint {
  const baseWall = BigInt(Date.now()) * 1_000_000n;
  const baseMono = process.hrtime.bigint();
  let last = 0n;
  return () => {
    let n = baseWall + (process.hrtime.bigint() - baseMono);
    if (n <= last) n = last + 1n;
    last = n;
    return n;
  };
}

export interface EventClock {
  /** Milliseconds since the epoch. */
  now(): number;
  nanos(): bigint;
}

const systemEventClock = (): EventClock => ({ now: () => Date.now(), nanos: nanoClock() });

const microTime = (ms: number) => formatMicroTime(microTimeFromDate(new Date(ms))) ?? '';

type Sink = Pick<RestClient, 'create' | 'patch'>;

/** client-go's broadcaster queue length: past it, new events are dropped (DropIfChannelFull). */
const MAX_PENDING_WRITES = 1_000;
/**
 * client-go drops such events silently. Keel says so, but once per interval with the count: a
 * server that falls behind drops events by the thousand, and a line for each would flood the log
 * (and cost the scheduler a few percent of its CPU) just when the control plane is under load.
 */
export const DROP_WARNING_INTERVAL_MS = 10_000;

/** Tracks background writes so shutdown can wait for them. */
class Pending {
  private readonly writes = new Set<Promise<void>>();
  /** Events dropped since the last warning, and when that was (ms; -Infinity: never). */
  private dropped = 0;
  private warnedAt = -Infinity;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  /** Starts the write, or drops it when that many are already pending (the server hangs). */
  run(write: () => Promise<void>, what: string): void {
    if (this.writes.size >= MAX_PENDING_WRITES) {
      this.drop(what);
      return;
    }
    const p = write().finally(() => this.writes.delete(p));
    this.writes.add(p);
  }

  private drop(what: string): void {
    this.dropped++;
    const now = this.now();
    if (now - this.warnedAt < DROP_WARNING_INTERVAL_MS) return;
    this.logger.warning('Events dropped: too many event writes pending', {
      dropped: this.dropped,
      pending: MAX_PENDING_WRITES,
      event: what,
    });
    this.dropped = 0;
    this.warnedAt = now;
  }

  async flush(timeoutMs: number): Promise<void> {
    if (this.writes.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.allSettled([...this.writes]), timeout]);
    clearTimeout(timer);
  }
}

interface CacheEntry {
  readonly event: EventV1;
  /** When the event or its last repeat was seen (ms). */
  lastSeen: number;
}

export interface EventBroadcasterOptions {
  readonly client: Sink;
  readonly logger: Logger;
  readonly hostname?: string;
  readonly clock?: EventClock;
  /** client-go's finishTime: a series not repeated for this long is closed (6 min). */
  readonly finishMs?: number;
  /** client-go's refreshTime: how often open series get their count written (30 min). */
  readonly refreshMs?: number;
}

/** A recorder for one reporting controller (a scheduler profile). */
export interface Recorder {
  eventf(
    regarding: ObjectReference,
    type: EventType,
    reason: string,
    action: string,
    note: string,
    related?: ObjectReference,
  ): void;
}

/**
 * client-go's events.k8s.io/v1 EventBroadcaster. The first occurrence of an event is created; an
 * identical one (same object, reason, action, note, type and reporter) within six minutes makes it
 * a series: the second occurrence patches `series` {count: 2} onto it, later ones count in memory
 * and are written every refresh period and when the series closes.
 */
export class EventBroadcaster {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly pending: Pending;
  private readonly clock: EventClock;
  private readonly host: string;
  private readonly finishMs: number;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly opts: EventBroadcasterOptions) {
    this.clock = opts.clock ?? systemEventClock();
    this.host = opts.hostname ?? osHostname();
    this.finishMs = opts.finishMs ?? 6 * 60_000;
    this.pending = new Pending(opts.logger, () => this.clock.now());
  }

  /** Starts the refresh and finish loops (timers that do not keep the process alive). */
  start(): void {
    if (this.timers.length > 0) return;
    const every = (ms: number, fn: () => void) => {
      const t = setInterval(fn, ms);
      t.unref();
      this.timers.push(t);
    };
    every(this.opts.refreshMs ?? 30 * 60_000, () => this.refreshSeries());
    every(this.finishMs, () => this.finishSeries());
  }

  newRecorder(reportingController: string): Recorder {
    return {
      eventf: (regarding, type, reason, action, note, related) =>
        this.record(reportingController, regarding, type, reason, action, note, related),
    };
  }

  private record(
    controller: string,
    regarding: ObjectReference,
    type: EventType,
    reason: string,
    action: string,
    note: string,
    related?: ObjectReference,
  ): void {
    const now = this.clock.now();
    const event: EventV1 = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: {
        name: `${regarding.name}.${this.clock.nanos().toString(16)}`,
        namespace: regarding.namespace || 'default',
      },
      eventTime: microTime(now),
      reportingController: controller,
      reportingInstance: `${controller}-${this.host}`,
      action,
      reason,
      regarding,
      ...(related ? { related } : {}),
      note: truncateNote(note),
      type,
    };
    const key = JSON.stringify([
      regarding.kind,
      regarding.namespace,
      regarding.name,
      regarding.uid,
      reason,
      action,
      event.note,
      type,
      controller,
      event.reportingInstance,
    ]);
    const cached = this.cache.get(key);
    if (cached && now - cached.lastSeen < this.finishMs) {
      cached.lastSeen = now;
      const first = cached.event.series === undefined;
      cached.event.series = {
        count: (cached.event.series?.count ?? 1) + 1,
        lastObservedTime: microTime(now),
      };
      if (first) this.write(cached.event);
      return;
    }
    this.cache.set(key, { event, lastSeen: now });
    this.write(event);
  }

  /** Writes open series' counts (client-go's refreshExistingEventSeries). */
  refreshSeries(): void {
    for (const entry of this.cache.values()) if (entry.event.series) this.write(entry.event);
  }

  /** Closes series and forgets events not seen for the finish time (client-go's finishSeries). */
  finishSeries(): void {
    const now = this.clock.now();
    for (const [key, entry] of this.cache) {
      if (now - entry.lastSeen < this.finishMs) continue;
      if (entry.event.series) this.write(entry.event);
      this.cache.delete(key);
    }
  }

  /** Creates the event, or patches its series; a series whose event is gone is created anew. */
  private write(event: EventV1): void {
    // A snapshot: later repeats change the cached object while this write is in flight.
    const ev = structuredClone(event);
    const { namespace, name } = ev.metadata;
    const collection = `/apis/events.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/events`;
    this.pending.run(async () => {
      try {
        if (ev.series) {
          try {
            await this.opts.client.patch<void>(
              `${collection}/${encodeURIComponent(name)}`,
              'strategic',
              { series: ev.series },
              { discardBody: true },
            );
            return;
          } catch (err) {
            if (!isNotFound(err)) throw err;
          }
        }
        await this.opts.client.create<void>(collection, ev, { discardBody: true });
      } catch (err) {
        this.opts.logger.error('Server rejected event (will not retry!)', {
          event: `${namespace}/${name}`,
          reason: ev.reason,
          err,
        });
      }
    }, `${namespace}/${name}`);
  }

  /** Waits (at most `timeoutMs`) for event writes in flight. */
  flush(timeoutMs = 2_000): Promise<void> {
    return this.pending.flush(timeoutMs);
  }

  /** Stops the loops; call `flush` to wait for writes. */
  close(): void {
    for (const t of this.timers.splice(0)) clearInterval(t);
  }
}

/**
 * The legacy core/v1 recorder kube-scheduler gives leader election
 * (DeprecatedNewLegacyRecorder): `source.component` is the first profile's scheduler name,
 * `eventTime` is null and the timestamps are whole seconds.
 */
export class LegacyEventRecorder implements LockEventRecorder {
  private readonly pending: Pending;
  private readonly clock: EventClock;

  constructor(
    private readonly client: Pick<RestClient, 'create'>,
    private readonly component: string,
    private readonly logger: Logger,
    clock?: EventClock,
  ) {
    this.clock = clock ?? systemEventClock();
    this.pending = new Pending(logger, () => this.clock.now());
  }

  event(subject: EventSubject, type: EventType, reason: string, message: string): void {
    const meta = subject.metadata;
    const str = (k: string) => {
      const v = meta[k];
      return typeof v === 'string' ? v : undefined;
    };
    const name = str('name') ?? '';
    const namespace = str('namespace') || 'default';
    const involvedObject: ObjectReference = {
      kind: subject.kind,
      apiVersion: subject.apiVersion,
      name,
      namespace,
      ...(str('uid') ? { uid: str('uid') } : {}),
      ...(str('resourceVersion') ? { resourceVersion: str('resourceVersion') } : {}),
    };
    const now = formatTime(microTimeFromDate(new Date(this.clock.now())));
    const event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${name}.${this.clock.nanos().toString(16)}`, namespace },
      involvedObject,
      reason,
      message,
      source: { component: this.component },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: this.component,
      reportingInstance: '',
    };
    this.pending.run(async () => {
      try {
        await this.client.create<void>(`/api/v1/namespaces/${encodeURIComponent(namespace)}/events`, event, {
          discardBody: true,
        });
      } catch (err) {
        this.logger.error('Server rejected event (will not retry!)', {
          event: `${namespace}/${event.metadata.name}`,
          reason,
          err,
        });
      }
    }, `${namespace}/${event.metadata.name}`);
  }

  flush(timeoutMs = 2_000): Promise<void> {
    return this.pending.flush(timeoutMs);
  }
}
