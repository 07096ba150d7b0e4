/**
 * A progress line for long runs (benches, the soak). On a terminal one line is rewritten in place
 * with `\r`; in a log file (not a TTY) a plain line is printed at most every `everyMs`, so a
 * one-hour run leaves a readable log of about 60 lines instead of thousands.
 */

export interface ProgressFigures {
  readonly elapsedS: number;
  /** Undefined when the run has no fixed length. */
  readonly totalS?: number;
  readonly reqPerS?: number;
  readonly rssBytes?: number;
  readonly heapBytes?: number;
  /** Event-loop lag, milliseconds. */
  readonly lagMs?: number;
  readonly errors?: number;
  readonly watches?: number;
  /** Free text appended at the end (e.g. the bench's current configuration). */
  readonly note?: string;
}

/** `75` → `1m15s`, `3600` → `1h0m0s` (Go's duration style, whole seconds). */
export function formatSeconds(s: number): string {
  const total = Math.max(0, Math.floor(s));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  if (h > 0) return `${h}h${m}m${sec}s`;
  if (m > 0) return `${m}m${sec}s`;
  return `${sec}s`;
}

/** Bytes as MiB with one decimal. */
export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** One line, fields left out when not given; no timing of its own, so it is testable. */
export function formatProgress(f: ProgressFigures): string {
  const parts: string[] = [];
  if (f.totalS !== undefined) {
    const pct = f.totalS > 0 ? Math.min(100, (100 * f.elapsedS) / f.totalS) : 100;
    parts.push(`[${formatSeconds(f.elapsedS)}/${formatSeconds(f.totalS)} ${pct.toFixed(0)}%]`);
  } else parts.push(`[${formatSeconds(f.elapsedS)}]`);
  if (f.reqPerS !== undefined) parts.push(`${f.reqPerS.toFixed(1)} req/s`);
  if (f.rssBytes !== undefined) parts.push(`rss ${mib(f.rssBytes)}`);
  if (f.heapBytes !== undefined) parts.push(`heap ${mib(f.heapBytes)}`);
  if (f.lagMs !== undefined) parts.push(`lag p99 ${f.lagMs.toFixed(1)} ms`);
  if (f.watches !== undefined) parts.push(`watches ${f.watches}`);
  if (f.errors !== undefined) parts.push(`errors ${f.errors}`);
  if (f.note) parts.push(f.note);
  return parts.join('  ');
}

interface Out {
  readonly isTTY?: boolean;
  write(s: string): boolean;
}

export class ProgressLine {
  private lastPlain = -Infinity;
  private shown = false;

  constructor(
    private readonly out: Out = process.stdout,
    private readonly everyMs = 60_000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Shows `f` (rewriting the line on a TTY; otherwise a new line when `everyMs` has passed). */
  update(f: ProgressFigures | string): void {
    const text = typeof f === 'string' ? f : formatProgress(f);
    if (this.out.isTTY) {
      // \x1b[K clears what a longer previous line left on the right.
      this.out.write(`\r${text}\x1b[K`);
      this.shown = true;
      return;
    }
    const t = this.now();
    // Updates come on a timer of their own: a little slack keeps "every minute" from slipping
    // to every 70 s when a 10 s tick lands a few ms short of the minute.
    if (t - this.lastPlain < this.everyMs * 0.95) return;
    this.lastPlain = t;
    this.out.write(`${text}\n`);
  }

  /** Ends the rewritten line, so the next output starts on a line of its own. */
  done(): void {
    if (this.out.isTTY && this.shown) this.out.write('\n');
    this.shown = false;
  }

  /** Prints `text` as a line of its own without breaking the progress line. */
  log(text: string): void {
    this.done();
    this.out.write(`${text}\n`);
  }
}
