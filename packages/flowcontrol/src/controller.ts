/**
 * The config consumer and dispatcher (upstream's apf_controller): it turns the stored FlowSchemas
 * and PriorityLevelConfigurations into a classifier and one QueueSet per limited level, and hands
 * each request either a seat or a rejection. The server's concurrency limit
 * (--max-requests-inflight plus --max-mutating-requests-inflight) is split between the levels in
 * proportion to their nominalConcurrencyShares, rounded up. Missing mandatory objects are taken
 * from the bootstrap configuration, as upstream does, so exempt and catch-all always exist.
 */
import {
  CATCH_ALL,
  EXEMPT,
  mandatoryFlowSchemas,
  mandatoryPriorityLevelConfigurations,
} from './bootstrap.js';
import { byPrecedence, matchesFlowSchema, type RequestDigest } from './match.js';
import { QueueSet, type QueueSetDump, type RejectReason, type WaitingDescription } from './queueset.js';
import { allocate, SeatDemand, SeatDemandStats } from './borrowing.js';
import { NO_OBSERVER, type FlowObserver, type FlowSeries, type SeatDemandSummary } from './observer.js';
import { hashFlow } from './shuffle-sharding.js';
import { FlowRequest, NOT_WAITING } from './flow-request.js';
import {
  DISTINGUISHER_BY_NAMESPACE,
  DISTINGUISHER_BY_USER,
  LIMIT_RESPONSE_QUEUE,
  PRIORITY_LEVEL_EXEMPT,
  type FlowSchema,
  type PriorityLevelConfiguration,
} from './types.js';

export interface Classification {
  readonly flowSchema: FlowSchema;
  readonly priorityLevel: PriorityLevelConfiguration;
  readonly exempt: boolean;
  /** The flow distinguisher: the user's name, the namespace, or ''. */
  readonly distinguisher: string;
}

interface Level {
  readonly config: PriorityLevelConfiguration;
  readonly exempt: boolean;
  /** Undefined for exempt levels. */
  readonly queues?: QueueSet;
  /** The nominal limit. */
  concurrencyLimit: number;
  readonly lower: number;
  readonly upper: number;
  /** The limit borrowing last set. */
  current: number;
  readonly demand: SeatDemand;
  readonly stats: SeatDemandStats;
  /** What an exempt level executed (its requests never wait), for the debug dumps. */
  readonly exemptCounts: { executing: number; dispatched: number };
}

/** The outcome callbacks of handle(): exactly one of execute or reject is called, once. */
export interface FlowCallbacks {
  /** Run the request; call done() when it finished. */
  readonly execute: (done: () => void) => void;
  readonly reject: (reason: RejectReason) => void;
}

/** What the request dump shows of a waiting request beyond its flow (upstream's RequestInfo). */
export interface RequestDetails extends RequestDigest {
  readonly name: string;
  readonly apiVersion: string;
}

export interface RequestDescription extends WaitingDescription {
  readonly details?: RequestDetails | undefined;
}

/** One priority level in a dump; undefined queues would print as upstream's `<none>` rows. */
export interface PriorityLevelDump {
  readonly name: string;
  readonly queues?: QueueSetDump<RequestDescription>;
}

export interface RequestHandle {
  /** Ends the request's wait (its timeout, or the client went away); false when it was not waiting. */
  cancel(reason: RejectReason): boolean;
}

const HASH_CACHE_LIMIT = 10_000;
/** The most classifications kept; the cache starts over when full (a flood of distinct users). */
const CLASSIFICATION_CACHE_LIMIT = 10_000;
/** upstream's work estimator's MaximumSeatsLimit. */
const MAX_SEATS = 10;

export class FlowController {
  private schemas: readonly FlowSchema[] = [];
  private levels = new Map<string, Level>();
  private readonly hashes = new Map<string, bigint>();
  /**
   * Classifications by everything matching reads of a request, emptied at every configuration
   * change: matching walks every schema of lower precedence first, each rule's subjects and
   * verbs, and the same few clients send nearly all requests.
   */
  private readonly classified = new Map<string, Classification>();
  /** Each schema's metric series, bound once (a schema's level is fixed by its spec). */
  private readonly series = new WeakMap<FlowSchema, FlowSeries>();

  constructor(
    private readonly serverConcurrencyLimit: number,
    private readonly observer: FlowObserver = NO_OBSERVER,
  ) {
    this.update([], []);
  }

  /** Takes the current stored configuration (all of it, each time it changes). */
  update(flowSchemas: readonly FlowSchema[], levels: readonly PriorityLevelConfiguration[]): void {
    const plcs = withMandatory(levels, mandatoryPriorityLevelConfigurations);
    const shares = (pl: PriorityLevelConfiguration): number =>
      pl.spec.type === PRIORITY_LEVEL_EXEMPT
        ? (pl.spec.exempt?.nominalConcurrencyShares ?? 0)
        : (pl.spec.limited?.nominalConcurrencyShares ?? 0);
    const total = plcs.reduce((sum, pl) => sum + shares(pl), 0);
    const next = new Map<string, Level>();
    for (const pl of plcs) {
      const name = pl.metadata.name ?? '';
      const limit = total === 0 ? 0 : Math.ceil((this.serverConcurrencyLimit * shares(pl)) / total);
      const exempt = pl.spec.type === PRIORITY_LEVEL_EXEMPT;
      const old = this.levels.get(name);
      // upstream's lendable and borrowing seats: percentages of the nominal limit, rounded; with
      // no borrowingLimitPercent a level may borrow up to the server's whole limit.
      const lendable = Math.round((limit * (lendablePercent(pl) ?? 0)) / 100);
      const blp = exempt ? undefined : pl.spec.limited?.borrowingLimitPercent;
      const borrowing = blp === undefined ? this.serverConcurrencyLimit : Math.round((limit * blp) / 100);
      const common = {
        config: pl,
        exempt,
        concurrencyLimit: limit,
        lower: limit - lendable,
        upper: limit + borrowing,
        current: old?.current ?? limit,
        demand: old?.demand ?? new SeatDemand(),
        stats: old?.stats ?? new SeatDemandStats(),
      };
      this.observer.concurrencyLimit(name, limit, common.lower, common.upper);
      if (exempt) {
        next.set(name, { ...common, exemptCounts: old?.exemptCounts ?? { executing: 0, dispatched: 0 } });
      } else {
        const lr = pl.spec.limited?.limitResponse;
        const q = lr?.type === LIMIT_RESPONSE_QUEUE ? lr.queuing : undefined;
        const qsConfig = {
          concurrencyLimit: common.current,
          queues: q?.queues ?? 0,
          handSize: q?.handSize ?? 0,
          queueLengthLimit: q?.queueLengthLimit ?? 0,
        };
        const queues = old?.queues ?? new QueueSet(qsConfig);
        queues.setConfig(qsConfig);
        next.set(name, { ...common, queues, exemptCounts: { executing: 0, dispatched: 0 } });
      }
    }
    // A level that went away rejects what still waits in it: nothing would ever dispatch it.
    for (const [name, old] of this.levels) {
      if (!next.has(name))
        old.queues?.setConfig({ concurrencyLimit: 0, queues: 0, handSize: 0, queueLengthLimit: 0 });
    }
    this.levels = next;
    this.schemas = withMandatory(flowSchemas, mandatoryFlowSchemas).sort(byPrecedence);
    this.classified.clear();
    this.adjustBorrowing();
  }

  /**
   * Deals the nominal seats out again by each level's seat demand since the last call (upstream
   * runs this every BORROWING_ADJUSTMENT_PERIOD_MS, and at every configuration change).
   */
  adjustBorrowing(): void {
    const levels = [...this.levels];
    const items = levels.map(([, l]) => {
      l.stats.update(l.demand.reset());
      // Never below what the level used lately, up to its nominal seats, nor below what it keeps.
      const lower = Math.max(l.lower, Math.min(l.concurrencyLimit, l.stats.highWatermark));
      return { lower, upper: l.upper, target: Math.max(lower, l.stats.smoothed) };
    });
    const nominalSum = levels.reduce((s, [, l]) => s + l.concurrencyLimit, 0);
    const result = allocate(nominalSum, items);
    levels.forEach(([name, l], k) => {
      const current = result ? Math.round(result.allocs[k] ?? 0) : l.current;
      l.current = current;
      l.queues?.setConcurrencyLimit(current);
      this.observer.currentLimit(name, current, items[k]?.target ?? 0, result?.fairFrac ?? 0);
      this.observer.seatDemand(name, l.stats);
    });
  }

  /** The seats each level has now, after borrowing, by name. */
  currentLimits(): Map<string, number> {
    return new Map([...this.levels].map(([name, l]) => [name, l.current]));
  }

  /** The names of the FlowSchemas whose priority level does not exist. */
  dangling(): string[] {
    return this.schemas
      .filter((fs) => !this.levels.has(fs.spec.priorityLevelConfiguration.name))
      .map((fs) => fs.metadata.name ?? '');
  }

  /** The concurrency limit of each level, by name. */
  concurrencyLimits(): Map<string, number> {
    return new Map([...this.levels].map(([name, l]) => [name, l.concurrencyLimit]));
  }

  classify(d: RequestDigest): Classification {
    const key = classificationKey(d);
    const cached = this.classified.get(key);
    if (cached) return cached;
    const c = this.match(d);
    if (this.classified.size >= CLASSIFICATION_CACHE_LIMIT) this.classified.clear();
    this.classified.set(key, c);
    return c;
  }

  private match(d: RequestDigest): Classification {
    for (const fs of this.schemas) {
      const level = this.levels.get(fs.spec.priorityLevelConfiguration.name);
      if (!level || !matchesFlowSchema(fs, d)) continue;
      return {
        flowSchema: fs,
        priorityLevel: level.config,
        exempt: level.exempt,
        distinguisher: distinguish(fs, d),
      };
    }
    // The mandatory catch-all matches every request; this is only reached for a user in no group.
    const fs = this.schemas.find((s) => s.metadata.name === CATCH_ALL) as FlowSchema;
    const level = this.levels.get(CATCH_ALL) as Level;
    return { flowSchema: fs, priorityLevel: level.config, exempt: false, distinguisher: d.user.name };
  }

  /** Every level, by name, with its queues (upstream's debug dumps read this). */
  dump(): PriorityLevelDump[] {
    return [...this.levels]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, l]) => ({
        name,
        // As upstream's exempt queue set: no queues, every request dispatched at once.
        queues: l.queues
          ? (l.queues.dump() as QueueSetDump<RequestDescription>)
          : {
              queues: [],
              waiting: 0,
              rejected: 0,
              timedOut: 0,
              cancelled: 0,
              seatsInUse: l.exemptCounts.executing,
              ...l.exemptCounts,
            },
      }));
  }

  /**
   * The most seats one request of the level may take (upstream's MaxSeatsTracker): 15% of the
   * nominal seats, at most nominal / handSize, at least 1, and never over 10.
   */
  maxSeats(c: Classification): number {
    const level = this.levels.get(c.priorityLevel.metadata.name ?? '');
    const hand = c.priorityLevel.spec.limited?.limitResponse.queuing?.handSize;
    if (!level || !hand || queueCount(c.priorityLevel) === 0) return MAX_SEATS;
    const nominal = level.concurrencyLimit;
    const own = Math.max(1, Math.min(Math.ceil(nominal * 0.15), Math.trunc(nominal / hand)));
    return Math.min(own, MAX_SEATS);
  }

  /**
   * Runs, queues or rejects a classified request that takes `seats` seats while it executes;
   * `details` are kept for the request dump.
   */
  handle(c: Classification, callbacks: FlowCallbacks, details?: RequestDetails, seats = 1): RequestHandle {
    const levelName = c.priorityLevel.metadata.name ?? '';
    const level = this.levels.get(levelName);
    let series = this.series.get(c.flowSchema);
    if (!series) {
      series = this.observer.flow(levelName, c.flowSchema.metadata.name ?? '');
      this.series.set(c.flowSchema, series);
    }
    series.estimated(seats);
    const request = new FlowRequest(callbacks, series, seats, level);
    if (!level?.queues) {
      if (level) {
        level.exemptCounts.dispatched++;
        level.exemptCounts.executing++;
        level.demand.set(level.exemptCounts.executing);
      }
      request.dispatch();
      return NOT_WAITING;
    }
    request.start(level.queues, this.flowHash(c), {
      seats,
      flowSchema: c.flowSchema.metadata.name ?? '',
      // upstream computes no distinguisher for a level of one queue: its dump shows none.
      distinguisher: queueCount(c.priorityLevel) > 1 ? c.distinguisher : '',
      arrived: request.queued,
      details,
    });
    return request;
  }

  private flowHash(c: Classification): bigint {
    const schema = c.flowSchema.metadata.name ?? '';
    const key = `${schema}\0${c.distinguisher}`;
    let hash = this.hashes.get(key);
    if (hash === undefined) {
      if (this.hashes.size >= HASH_CACHE_LIMIT) this.hashes.clear();
      hash = hashFlow(schema, c.distinguisher);
      this.hashes.set(key, hash);
    }
    return hash;
  }
}

function queueCount(pl: PriorityLevelConfiguration): number {
  const lr = pl.spec.limited?.limitResponse;
  return lr?.type === LIMIT_RESPONSE_QUEUE ? (lr.queuing?.queues ?? 0) : 0;
}

/**
 * Everything classification reads of a request, each part length-prefixed so that no two
 * requests share a key (user and group names may hold any character).
 */
function classificationKey(d: RequestDigest): string {
  let key = d.isResourceRequest
    ? `r${d.verb.length}:${d.verb}${d.apiGroup.length}:${d.apiGroup}${d.resource.length}:${d.resource}${d.subresource.length}:${d.subresource}${d.namespace.length}:${d.namespace}`
    : `n${d.verb.length}:${d.verb}${d.path.length}:${d.path}${d.namespace.length}:${d.namespace}`;
  key += `${d.user.name.length}:${d.user.name}`;
  for (const g of d.user.groups) key += `${g.length}:${g}`;
  return key;
}

function lendablePercent(pl: PriorityLevelConfiguration): number | undefined {
  return pl.spec.type === PRIORITY_LEVEL_EXEMPT
    ? pl.spec.exempt?.lendablePercent
    : pl.spec.limited?.lendablePercent;
}

function distinguish(fs: FlowSchema, d: RequestDigest): string {
  switch (fs.spec.distinguisherMethod?.type) {
    case DISTINGUISHER_BY_USER:
      return d.user.name;
    case DISTINGUISHER_BY_NAMESPACE:
      return d.namespace;
    default:
      return '';
  }
}

function withMandatory<T extends { metadata: { name?: string } }>(
  objs: readonly T[],
  mandatory: readonly T[],
): T[] {
  const names = new Set(objs.map((o) => o.metadata.name));
  return [...objs, ...mandatory.filter((m) => !names.has(m.metadata.name))];
}

export { EXEMPT, CATCH_ALL, NO_OBSERVER, type FlowObserver, type FlowSeries, type SeatDemandSummary };
