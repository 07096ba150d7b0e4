import { StorageError } from '../errors.js';
import type { WatchEvent } from '../storage.js';

/**
 * A bounded single-consumer queue behind one watcher's async iterator. Producers never wait:
 * a watcher whose consumer falls `capacity` events behind is terminated with an ERROR event
 * (code Timeout) instead of buffering without bound, so one slow client cannot hold the
 * store's memory or delay the others. The client then re-watches from the last resourceVersion
 * it received, which Kubernetes' cacher also forces on unresponsive watchers.
 */
export class WatchQueue<T> implements AsyncIterableIterator<WatchEvent<T>> {
  private readonly items: WatchEvent<T>[] = [];
  private head = 0;
  private waiter: ((r: IteratorResult<WatchEvent<T>>) => void) | undefined;
  private ended = false;
  /** Set once an ERROR was queued or end() was called: nothing more is accepted. */
  private closedForInput = false;

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
    this.deliver({ type: 'ERROR', error });
    this.closedForInput = true;
    this.onDone();
  }

  /** Ends the stream after the queued events (abort, store closing). */
  end(): void {
    if (this.closedForInput) return;
    this.closedForInput = true;
    this.onDone();
    if (this.head >= this.items.length) this.finish();
  }

  private deliver(event: WatchEvent<T>): void {
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
