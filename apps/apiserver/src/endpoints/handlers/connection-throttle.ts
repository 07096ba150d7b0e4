import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A byte budget refilled at `rate` per second, holding at most one second's worth. A write larger
 * than what is left runs it into debt, which later writes wait out, so the average never exceeds
 * the rate (as the flowrate writer upstream wraps throttled connections in) and an event larger
 * than a second's worth is still sent whole.
 */
class ByteBudget {
  private available: number;
  private last = performance.now();

  constructor(private readonly rate: number) {
    this.available = rate;
  }

  /** Takes `bytes`; resolves to how many milliseconds to wait before sending them. */
  take(bytes: number): number {
    const now = performance.now();
    this.available = Math.min(this.rate, this.available + ((now - this.last) * this.rate) / 1000);
    this.last = now;
    this.available -= bytes;
    return this.available >= 0 ? 0 : (-this.available / this.rate) * 1000;
  }
}

/** One budget per connection: every watch multiplexed over it shares it. */
const budgets = new WeakMap<object, ByteBudget>();

function connectionOf(req: IncomingMessage): object {
  // An HTTP/2 stream's socket is a per-request view of the session's; the session is the connection.
  const session = (req as { stream?: { session?: object } }).stream?.session;
  return session ?? req.socket;
}

/**
 * --max-connection-bytes-per-sec for a long-running response: returns a function to await before
 * each write of `bytes`, or undefined when the limit is off (0).
 */
export function connectionThrottle(
  req: IncomingMessage,
  bytesPerSec: number,
): ((bytes: number, signal: AbortSignal) => Promise<void>) | undefined {
  if (bytesPerSec <= 0) return undefined;
  const conn = connectionOf(req);
  let budget = budgets.get(conn);
  if (!budget) {
    budget = new ByteBudget(bytesPerSec);
    budgets.set(conn, budget);
  }
  const b = budget;
  return async (bytes, signal) => {
    const wait = b.take(bytes);
    if (wait > 0) await sleep(wait, undefined, { signal }).catch(() => undefined);
  };
}
