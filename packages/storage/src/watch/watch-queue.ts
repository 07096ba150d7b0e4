import { StorageError } from '../errors.js';
import type { WatchEvent, WatchSink } from '../storage.js';

/**
 * A bounded single-consumer queue behind one watcher's async iterator. Producers never wait:
 * a watcher whose consumer falls `capacity` events behind is terminated with an ERROR event
 * (code Timeout) instead of buffering without bound, so one slow client cannot hold the
 * store's memory or delay the others. The client then re-watches from the last resourceVersion
 * it received, which Kubernetes' cacher also forces on unresponsive watchers.
 * With a sink (`drainTo`) the events go to it synchronously instead, and wait here only while the
 * sink is not ready: the same buffer, bounded the same way.
 */
export class WatchQueue<T> implements AsyncIterableIterator<WatchEvent<T>> {
  private readonly items: WatchEvent<T>[] = [];
  private head = 0;
  private waiter: ((r: IteratorResult<WatchEvent<T>>) => void) | undefined;
  private ended = false;
  /** Set once an ERROR was queued or end() was called: nothing more is accepted. */
  private closedForInput = false;
  private sink: WatchSink<T> | undefined;
  /** The sink said it takes no more until its ready() resolves. */
  private paused = false;
  private sinkDone: { resolve: () => void; reject: (err: unknown) => void } | undefined;

  constructor(
    private readonly capacity: number,
    private readonly onDone: () => void,
  ) {}

  get closed(): boolean {
    return this.closedForInput;
  }

  /** Queues an event; returns false when the queue is closed (the caller may stop producing). */
  push(event: WatchEvent<T>): boolean {
    if (this.closedForInput) return false;
    if (this.items.length - this.head >= this.capacity) {
      this.fail(
        new StorageError(
          'Timeout',
          `watcher fell ${this.capacity} events behind and was closed; watch again from the last resourceVersion received`,
        ),
        true,
      );
      return false;
    }
    this.deliver(event);
    return true;
  }

  /** Ends the stream with one ERROR event. `dropBacklog` discards what the consumer has not read. */
  fail(error: StorageError, dropBacklog = false): void {
    if (this.closedForInput) return;
    if (dropBacklog) {
      this.items.length = 0;
      this.head = 0;
    }
    this.closedForInput = true;
    this.deliver({ type: 'ERROR', error });
    this.onDone();
  }

  /** Ends the stream after the queued events (abort, store closing). */
  end(): void {
    if (this.closedForInput) return;
    this.closedForInput = true;
    this.onDone();
    if (this.sink) this.flush();
    else if (this.head >= this.items.length) this.finish();
  }

  /**
   * Hands every event from now on to `sink` as it comes (the queued ones first); resolves once
   * the stream has ended and the sink has taken its last event, rejects if the sink threw.
   */
  drainTo(sink: WatchSink<T>): Promise<void> {
    this.sink = sink;
    return new Promise((resolve, reject) => {
      this.sinkDone = { resolve, reject };
      this.flush();
    });
  }

  private flush(): void {
    const sink = this.sink!;
    while (!this.paused && this.head < this.items.length) {
      const event = this.items[this.head++] as WatchEvent<T>;
      this.offer(sink, event);
    }
    if (this.head >= this.items.length) {
      this.items.length = 0;
      this.head = 0;
      if (this.closedForInput && !this.ended) {
        this.ended = true;
        this.sinkDone?.resolve();
      }
    }
  }

  private offer(sink: WatchSink<T>, event: WatchEvent<T>): void {
    let more: boolean;
    try {
      more = sink.put(event);
    } catch (err) {
      this.items.length = 0;
      this.head = 0;
      this.closedForInput = true;
      this.ended = true;
      this.onDone();
      this.sinkDone?.reject(err);
      return;
    }
    // Nothing is left to wait for once the last event (an ERROR, or the end) has been taken.
    if (more || this.ended || (this.closedForInput && this.head >= this.items.length)) return;
    this.paused = true;
    void sink.ready().then(() => {
      this.paused = false;
      if (!this.ended) this.flush();
    });
  }

  private deliver(event: WatchEvent<T>): void {
    const sink = this.sink;
    if (sink) {
      if (this.ended) return;
      if (this.paused || this.head < this.items.length) this.items.push(event);
      else this.offer(sink, event);
      if (this.closedForInput && !this.paused) this.flush();
      return;
    }
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      waiter({ value: event, done: false });
      return;
    }
    this.items.push(event);
  }

  private finish(): void {
    this.ended = true;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<WatchEvent<T>>> {
    if (this.head < this.items.length) {
      const value = this.items[this.head++] as WatchEvent<T>;
      if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items.splice(0, this.head);
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.ended || this.closedForInput) {
      this.ended = true;
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve) => (this.waiter = resolve));
  }

  /** The consumer stopped early (`break` in for-await): unsubscribe. */
  return(): Promise<IteratorResult<WatchEvent<T>>> {
    this.items.length = 0;
    this.head = 0;
    this.end();
    this.finish();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
