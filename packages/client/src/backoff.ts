/**
 * Exponential backoff with jitter for reconnecting (client-go's reflector backs off 800ms
 * doubling to 30s, with up to 100% jitter). The parameters are options so tests run fast.
 */

export interface BackoffOptions {
  /** First delay in ms. Default 800. */
  readonly initialMs?: number;
  /** Upper bound of any delay in ms. Default 30000. */
  readonly maxMs?: number;
  /** Growth per failure. Default 2. */
  readonly factor?: number;
  /** Up to this fraction of the delay is added at random. Default 1. */
  readonly jitter?: number;
}

export class Backoff {
  private failures = 0;
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly factor: number;
  private readonly jitter: number;

  constructor(
    opts: BackoffOptions = {},
    private readonly random: () => number = Math.random,
  ) {
    this.initialMs = opts.initialMs ?? 800;
    this.maxMs = opts.maxMs ?? 30_000;
    this.factor = opts.factor ?? 2;
    this.jitter = opts.jitter ?? 1;
  }

  /** The delay before the next attempt; each call counts one more failure. */
  next(): number {
    const base = Math.min(this.maxMs, this.initialMs * this.factor ** this.failures);
    this.failures++;
    return Math.min(this.maxMs, base * (1 + this.jitter * this.random()));
  }

  /** After a success the next failure starts from the initial delay again. */
  reset(): void {
    this.failures = 0;
  }
}
