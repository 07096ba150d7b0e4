/**
 * client-go's token bucket (golang.org/x/time/rate underneath): `burst` tokens to start with,
 * refilled at `qps` per second up to `burst`; a request takes one or is refused, never waits.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  tryAccept(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.qps);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * The buckets of one limit type by key, at most `size` of them: the least recently used key
 * loses its bucket (and so starts full again), as upstream's LRU cache. A Map keeps insertion
 * order, so re-inserting on use is all an LRU needs here.
 */
export class BucketCache {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly size: number,
    private readonly create: () => TokenBucket,
  ) {}

  get(key: string): TokenBucket {
    let bucket = this.buckets.get(key);
    if (bucket) this.buckets.delete(key);
    else bucket = this.create();
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.size) {
      const oldest = this.buckets.keys().next();
      if (!oldest.done) this.buckets.delete(oldest.value);
    }
    return bucket;
  }
}
