/** Cancels a timer. */
export type CancelTimer = () => void;

/**
 * Time as the queue sees it, in milliseconds. Injected so tests drive backoff and the flush loops
 * explicitly. Without `setTimeout` the queue uses the global one.
 */
export interface Clock {
  now(): number;
  setTimeout?(fn: () => void, ms: number): CancelTimer;
}

/** A real timer that does not keep the process alive on its own. */
export function realTimeout(fn: () => void, ms: number): CancelTimer {
  const t = setTimeout(fn, ms);
  // The queue's loops must not keep a process alive that has nothing else to do.
  t.unref();
  return () => clearTimeout(t);
}

export const systemClock: Clock = { now: () => Date.now(), setTimeout: realTimeout };

interface Timer {
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
}

/** A clock that moves only when told to; `advance` fires due timers in time order. */
export class FakeClock implements Clock {
  private timers: Timer[] = [];
  private seq = 0;

  constructor(private time = 0) {}

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): CancelTimer {
    const timer = { at: this.time + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Moves time forward by `ms`, firing every timer that falls due, including ones they set. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const next = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.time = Math.max(this.time, next.at);
      next.fn();
    }
    this.time = end;
  }

  pendingTimers(): number {
    return this.timers.length;
  }
}
