/**
 * One priority level's queues (upstream's fairqueuing/queueset): the executing requests occupy at
 * most `concurrencyLimit` seats (a request takes the seats its work estimate says, one for most);
 * the others wait in the queues their flows are shuffle-sharded to, and freed seats go to the
 * head of the queue with the smallest virtual start time, once enough are free for it. Every
 * dispatched request advances its queue's virtual start by its seats, and an idle queue that
 * becomes busy starts at the current virtual time, so queues with waiting requests are served in
 * turn however many requests each holds (start-time fair queuing charged in seats, not upstream's
 * seat-seconds: a flow that floods only grows its own queues). With no queues (limitResponse
 * Reject) a request that does not fit is rejected at once.
 */
import { dealHand } from './shuffle-sharding.js';

export interface QueueSetConfig {
  readonly concurrencyLimit: number;
  /** 0: no queuing (limitResponse Reject). */
  readonly queues: number;
  readonly handSize: number;
  readonly queueLengthLimit: number;
}

/** Why a request was not served, as upstream's apiserver_flowcontrol_rejected_requests_total says. */
export type RejectReason = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

export interface RequestCallbacks {
  /** The request may execute now; call the returned ticket's finish() when it is done. */
  readonly dispatch: () => void;
  readonly reject: (reason: RejectReason) => void;
  /**
   * The request heads the fair order but its seats are not free, so nothing is dispatched now
   * (upstream's apiserver_flowcontrol_request_dispatch_no_accommodation_total counts these).
   */
  readonly notAccommodated?: () => void;
  /**
   * The request joined a queue, now `queueLength` long with it (upstream's
   * apiserver_flowcontrol_request_queue_length_after_enqueue); not called without queues.
   */
  readonly enqueued?: (queueLength: number) => void;
}

/** What the debug dumps show of a waiting request; the queue set only stores it. */
export interface WaitingDescription {
  /** The seats the request occupies while it executes (its work estimate). */
  readonly seats: number;
  readonly flowSchema: string;
  readonly distinguisher: string;
  /** ms since the epoch. */
  readonly arrived: number;
}

/** One queue in a dump: its waiting requests in order, and its share of the executing ones. */
export interface QueueDump<D extends WaitingDescription = WaitingDescription> {
  readonly waiting: readonly D[];
  readonly executing: number;
  readonly seatsInUse: number;
  /** The virtual start time of the queue's next dispatch (one unit per dispatched request). */
  readonly nextDispatch: number;
}

/** A queue set's state and counts since it was created (upstream's QueueSetDump). */
export interface QueueSetDump<D extends WaitingDescription = WaitingDescription> {
  readonly queues: readonly QueueDump<D>[];
  readonly waiting: number;
  readonly executing: number;
  readonly seatsInUse: number;
  readonly dispatched: number;
  readonly rejected: number;
  readonly timedOut: number;
  readonly cancelled: number;
}

interface Waiting {
  readonly hash: bigint;
  readonly callbacks: RequestCallbacks;
  readonly description: WaitingDescription | undefined;
  readonly seats: number;
  queue: Queue;
  state: 'waiting' | 'executing' | 'done';
}

class Queue {
  readonly requests: Waiting[] = [];
  head = 0;
  executing = 0;
  seatsInUse = 0;
  virtualStart = 0;
  get length(): number {
    return this.requests.length - this.head;
  }
  shift(): Waiting | undefined {
    const w = this.requests[this.head];
    if (!w) return undefined;
    this.requests[this.head++] = undefined as unknown as Waiting;
    if (this.head > 64 && this.head * 2 > this.requests.length) {
      this.requests.splice(0, this.head);
      this.head = 0;
    }
    return w;
  }
  remove(w: Waiting): boolean {
    const i = this.requests.indexOf(w, this.head);
    if (i === -1) return false;
    this.requests.splice(i, 1);
    return true;
  }
}

/** A request's handle: finish() after it executed, cancel() when it stops waiting. */
export interface Ticket {
  finish(): void;
  /** Takes a waiting request out of its queue and rejects it with `reason`; false when not waiting. */
  cancel(reason: RejectReason): boolean;
}

const HAND_CACHE_LIMIT = 10_000;

export class QueueSet {
  private queues: Queue[] = [];
  private config: QueueSetConfig;
  private virtualTime = 0;
  private executingCount = 0;
  private seatsInUseCount = 0;
  private waitingSeatsCount = 0;
  private waitingCount = 0;
  /** Where the search for the next queue starts, so ties go round the queues. */
  private robin = 0;
  /** Each flow's hand, dealt once per configuration (BigInt arithmetic is not free). */
  private readonly hands = new Map<bigint, number[]>();
  private readonly totals = { dispatched: 0, rejected: 0, timedOut: 0, cancelled: 0 };

  constructor(config: QueueSetConfig) {
    this.config = config;
    this.queues = Array.from({ length: config.queues }, () => new Queue());
  }

  get executing(): number {
    return this.executingCount;
  }
  get seatsInUse(): number {
    return this.seatsInUseCount;
  }
  /** Seats asked for by the waiting requests: with seatsInUse, the level's seat demand. */
  get waitingSeats(): number {
    return this.waitingSeatsCount;
  }
  get waiting(): number {
    return this.waitingCount;
  }
  get concurrencyLimit(): number {
    return this.config.concurrencyLimit;
  }

  /** Takes a new configuration: waiting requests are dealt into the new queues, then seats freed by a higher limit are filled. */
  setConfig(config: QueueSetConfig): void {
    const old = this.config;
    this.config = config;
    if (old.queues !== config.queues || old.handSize !== config.handSize) {
      this.hands.clear();
      const waiting = this.queues.flatMap((q) => q.requests.slice(q.head));
      this.queues = Array.from({ length: config.queues }, () => new Queue());
      for (const w of waiting) {
        if (config.queues === 0) {
          this.waitingCount--;
          this.waitingSeatsCount -= w.seats;
          w.state = 'done';
          this.reject(w.callbacks, 'concurrency-limit');
          continue;
        }
        const q = this.queues[this.chooseQueue(w.hash)] as Queue;
        w.queue = q;
        if (q.length === 0 && q.executing === 0) q.virtualStart = Math.max(q.virtualStart, this.virtualTime);
        q.requests.push(w);
      }
    }
    this.dispatchWaiting();
  }

  /** A new seat limit (borrowing moved seats): seats it frees are filled at once. */
  setConcurrencyLimit(concurrencyLimit: number): void {
    this.config = { ...this.config, concurrencyLimit };
    this.dispatchWaiting();
  }

  /** Starts or queues one request of the flow with hash `hash`; the callbacks say what became of it. */
  start(hash: bigint, callbacks: RequestCallbacks, description?: WaitingDescription): Ticket {
    const { queues } = this.config;
    const seats = Math.max(1, description?.seats ?? 1);
    if (queues === 0) {
      const w: Waiting = { hash, callbacks, description, seats, queue: NO_QUEUE, state: 'done' };
      if (this.canAccommodate(seats)) this.execute(w);
      else this.reject(callbacks, 'concurrency-limit');
      return this.ticket(w);
    }
    const index = this.chooseQueue(hash);
    const q = this.queues[index] as Queue;
    const w: Waiting = { hash, callbacks, description, seats, queue: q, state: 'waiting' };
    if (q.length >= this.config.queueLengthLimit) {
      w.state = 'done';
      this.reject(callbacks, 'queue-full');
      return this.ticket(w);
    }
    if (q.length === 0 && q.executing === 0) q.virtualStart = Math.max(q.virtualStart, this.virtualTime);
    if (this.waitingCount === 0 && this.canAccommodate(seats)) {
      // Nothing else waits, so this request is what dispatchWaiting() would pick next: dispatch
      // it the same way without queueing it and scanning every queue for the lowest start.
      this.robin = (index + 1) % this.queues.length;
      this.virtualTime = Math.max(this.virtualTime, q.virtualStart);
      q.virtualStart += seats;
      // Upstream enqueues it and dispatches it at once: it saw the queue one longer.
      callbacks.enqueued?.(q.length + 1);
      this.execute(w);
      return this.ticket(w);
    }
    q.requests.push(w);
    this.waitingCount++;
    this.waitingSeatsCount += seats;
    callbacks.enqueued?.(q.length);
    this.dispatchWaiting();
    return this.ticket(w);
  }

  private ticket(w: Waiting): Ticket {
    return {
      finish: () => {
        if (w.state !== 'executing') return;
        w.state = 'done';
        this.executingCount--;
        this.seatsInUseCount -= w.seats;
        w.queue.executing--;
        w.queue.seatsInUse -= w.seats;
        this.dispatchWaiting();
      },
      cancel: (reason) => {
        if (w.state !== 'waiting') return false;
        w.queue.remove(w);
        this.waitingCount--;
        this.waitingSeatsCount -= w.seats;
        w.state = 'done';
        this.reject(w.callbacks, reason);
        return true;
      },
    };
  }

  private reject(callbacks: RequestCallbacks, reason: RejectReason): void {
    if (reason === 'time-out') this.totals.timedOut++;
    else if (reason === 'cancelled') this.totals.cancelled++;
    else this.totals.rejected++;
    callbacks.reject(reason);
  }

  /** The queues and counts, for /debug/api_priority_and_fairness. */
  dump(): QueueSetDump {
    return {
      queues: this.queues.map((q) => ({
        waiting: q.requests
          .slice(q.head)
          .map((w) => w.description ?? { seats: w.seats, flowSchema: '', distinguisher: '', arrived: 0 }),
        executing: q.executing,
        seatsInUse: q.seatsInUse,
        nextDispatch: q.virtualStart,
      })),
      waiting: this.waitingCount,
      executing: this.executingCount,
      seatsInUse: this.seatsInUseCount,
      ...this.totals,
    };
  }

  /** The index of the least loaded queue of the flow's hand (waiting plus executing), the first dealt on ties. */
  private chooseQueue(hash: bigint): number {
    let hand = this.hands.get(hash);
    if (!hand) {
      if (this.hands.size >= HAND_CACHE_LIMIT) this.hands.clear();
      hand = dealHand(hash, this.queues.length, Math.min(this.config.handSize, this.queues.length));
      this.hands.set(hash, hand);
    }
    let best: Queue | undefined;
    let bestIndex = 0;
    for (const i of hand) {
      const q = this.queues[i];
      if (q && (!best || q.length + q.executing < best.length + best.executing)) {
        best = q;
        bestIndex = i;
      }
    }
    return bestIndex;
  }

  /**
   * upstream's canAccommodateSeats: the seats are free, or the request is wider than the whole
   * limit and nothing executes (it would never fit otherwise).
   */
  private canAccommodate(seats: number): boolean {
    const limit = this.config.concurrencyLimit;
    if (seats > limit) return this.executingCount === 0;
    return this.seatsInUseCount + seats <= limit;
  }

  /** Dispatches the heads of the queues in virtual start order while their seats are free. */
  private dispatchWaiting(): void {
    while (this.waitingCount > 0) {
      const q = this.nextQueue();
      const head = q?.requests[q.head];
      if (!q || !head) return;
      // The next request in fair order waits for its seats; narrower ones behind it wait too.
      if (!this.canAccommodate(head.seats)) {
        head.callbacks.notAccommodated?.();
        return;
      }
      q.shift();
      this.waitingCount--;
      this.waitingSeatsCount -= head.seats;
      this.virtualTime = Math.max(this.virtualTime, q.virtualStart);
      // Work is charged by seats: a wide request advances its queue further.
      q.virtualStart += head.seats;
      this.execute(head);
    }
  }

  private execute(w: Waiting): void {
    this.totals.dispatched++;
    w.state = 'executing';
    this.executingCount++;
    this.seatsInUseCount += w.seats;
    w.queue.executing++;
    w.queue.seatsInUse += w.seats;
    w.callbacks.dispatch();
  }

  private nextQueue(): Queue | undefined {
    let best: Queue | undefined;
    let bestIndex = 0;
    const n = this.queues.length;
    for (let k = 0; k < n; k++) {
      const i = (this.robin + k) % n;
      const q = this.queues[i] as Queue;
      if (q.length > 0 && (!best || q.virtualStart < best.virtualStart)) {
        best = q;
        bestIndex = i;
      }
    }
    if (best) this.robin = (bestIndex + 1) % n;
    return best;
  }
}

/** The queue a request of a level without queues counts its execution against. */
const NO_QUEUE = new Queue();
