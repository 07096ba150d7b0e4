/**
 * The heap after each full GC, from V8's `--trace-gc` lines on the server's stdout (its logs go
 * to stderr). Sampled heap-used figures land anywhere in a GC cycle and V8 lets garbage pile up
 * for minutes between mark-compacts; the heap right after a mark-compact is the live data, so a
 * leak is a rising line through these points.
 */

export interface FullGc {
  /** Milliseconds since the process started, as V8 prints them. */
  readonly atMs: number;
  readonly beforeBytes: number;
  readonly afterBytes: number;
}

// [pid:0x…]   10586 ms: Mark-Compact 98.2 (120.5) -> 60.1 (110.3) MB, …  ("(reduce)" when V8
// shrinks the heap under memory pressure).
const MARK_COMPACT =
  /(\d+(?:\.\d+)?) ms: Mark-Compact(?: \(reduce\))? ([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/;
const MB = 1024 * 1024;

export function parseFullGcs(text: string): FullGc[] {
  const out: FullGc[] = [];
  for (const line of text.split('\n')) {
    const m = MARK_COMPACT.exec(line);
    if (m) out.push({ atMs: Number(m[1]), beforeBytes: Number(m[2]) * MB, afterBytes: Number(m[3]) * MB });
  }
  return out;
}

/** Reads a daemon's stdout as it grows, consuming whole lines only. */
export class GcTrace {
  readonly gcs: FullGc[] = [];

  /** Takes the complete lines of `stdout` and returns what is left (a partial last line). */
  consume(stdout: string): string {
    const nl = stdout.lastIndexOf('\n');
    if (nl < 0) return stdout;
    this.gcs.push(...parseFullGcs(stdout.slice(0, nl)));
    return stdout.slice(nl + 1);
  }

  /** The heap after the latest full GC; NaN before the first. */
  get lastAfterBytes(): number {
    return this.gcs[this.gcs.length - 1]?.afterBytes ?? NaN;
  }
}
