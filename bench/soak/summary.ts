/** The soak's figures from its samples: pure functions, so they are tested without a server. */
import { mib } from '../support/progress.js';
import type { FullGc } from './gc-trace.js';

export interface Sample {
  /** Seconds since the load started. */
  readonly t: number;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  /** The server's event-loop delay percentiles over the interval since the previous sample. */
  readonly lagP50Ms: number;
  readonly lagP99Ms: number;
  readonly lagMaxMs: number;
  readonly reqPerS: number;
  readonly requests: number;
  readonly errors: number;
  readonly watches: number;
  readonly watchEvents: number;
  /** keel-scheduler's RSS; NaN without one. */
  readonly schedulerRssBytes: number;
  /** Size of the server's /metrics text: series that pile up (a label per namespace) show here. */
  readonly metricsBytes: number;
  /** The server's heap after its latest full GC (--trace-gc); NaN before the first. */
  readonly heapAfterFullGcBytes: number;
}

/** Nearest-rank percentile (q in 0..1) of `values`; NaN for none. */
export function percentile(values: readonly number[], q: number): number {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const rank = Math.max(1, Math.ceil(q * v.length));
  return v[Math.min(rank, v.length) - 1]!;
}

/** Least-squares slope of y over x (y units per x unit); NaN with fewer than two distinct x. */
export function slope(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? NaN : num / den;
}

export interface LagWindow {
  readonly fromS: number;
  readonly toS: number;
  readonly samples: number;
  /** Median of the samples' p50 lag. */
  readonly p50Ms: number;
  /** Nearest-rank 99th percentile of the samples' p99 lag. */
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly reqPerS: number;
  /** The lowest heap used of the window: close to the live heap after a full GC. */
  readonly minHeapBytes: number;
}

/** Samples grouped by `windowS` of run time (the last window may be shorter). */
export function lagWindows(samples: readonly Sample[], windowS: number): LagWindow[] {
  const groups = new Map<number, Sample[]>();
  for (const s of samples) {
    // A sample at exactly t = 600 closes the first window: it measured the interval before it.
    const k = Math.max(0, Math.ceil(s.t / windowS) - 1);
    groups.set(k, [...(groups.get(k) ?? []), s]);
  }
  return [...groups.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([k, g]) => ({
      fromS: k * windowS,
      toS: Math.min((k + 1) * windowS, Math.max(...g.map((s) => s.t))),
      samples: g.length,
      p50Ms: percentile(
        g.map((s) => s.lagP50Ms),
        0.5,
      ),
      p99Ms: percentile(
        g.map((s) => s.lagP99Ms),
        0.99,
      ),
      maxMs: Math.max(...g.map((s) => s.lagMaxMs)),
      reqPerS: g.reduce((a, s) => a + s.reqPerS, 0) / g.length,
      minHeapBytes: Math.min(...g.map((s) => s.heapUsedBytes)),
    }));
}

export interface Verdict {
  readonly warm: readonly Sample[];
  readonly start: Sample | undefined;
  readonly middle: Sample | undefined;
  readonly end: Sample | undefined;
  /** Median RSS of three samples at the start, middle and end after the warm-up (one is noisy). */
  readonly rssStart: number;
  readonly rssMiddle: number;
  readonly rssEnd: number;
  /** Start to end after the warm-up. */
  readonly rssGrowthPct: number;
  /** Middle to end: the judged figure (see judge). */
  readonly rssSecondHalfGrowthPct: number;
  /** Least squares over the samples after the warm-up, bytes per hour. */
  readonly rssSlopePerHour: number;
  readonly heapSlopePerHour: number;
  readonly failures: readonly string[];
}

const growth = (from: number, to: number) => (100 * (to - from)) / from;

/**
 * Fails on any error, and on RSS growth over `maxRssGrowthPct` in the second half of the judged
 * samples. Not from the warm-up's end: V8 raises its heap limit for some minutes under a new load
 * (the heap's peaks climb while its troughs, the live data, stay), and RSS follows the peaks, so
 * the first half over-states; a leak keeps growing and shows in the second half as well.
 */
export function judge(
  samples: readonly Sample[],
  warmupS: number,
  maxRssGrowthPct: number,
  errors: number,
): Verdict {
  const warm = samples.filter((s) => s.t >= warmupS);
  const mid = Math.floor((warm.length - 1) / 2);
  const start = warm[0];
  const middle = warm[mid];
  const end = warm[warm.length - 1];
  const medianRss = (from: number, to: number) =>
    percentile(
      warm.slice(Math.max(0, from), to).map((s) => s.rssBytes),
      0.5,
    );
  const rssStart = medianRss(0, 3);
  const rssMiddle = medianRss(mid - 1, mid + 2);
  const rssEnd = medianRss(warm.length - 3, warm.length);
  const rssGrowthPct = growth(rssStart, rssEnd);
  const rssSecondHalfGrowthPct = growth(rssMiddle, rssEnd);
  const perHour = (pick: (s: Sample) => number) => slope(warm.map((s) => [s.t, pick(s)])) * 3600;
  const failures: string[] = [];
  if (errors > 0) failures.push(`${errors} request(s) failed (5xx, unexpected status or transport error)`);
  if (warm.length < 3) failures.push(`only ${warm.length} sample(s) after the warm-up: nothing to judge`);
  else if (rssSecondHalfGrowthPct > maxRssGrowthPct)
    failures.push(
      `server RSS grew ${rssSecondHalfGrowthPct.toFixed(1)}% in the second half of the run ` +
        `(${mib(rssMiddle)} → ${mib(rssEnd)}), more than --max-rss-growth ${maxRssGrowthPct}%`,
    );
  return {
    warm,
    start,
    middle,
    end,
    rssStart,
    rssMiddle,
    rssEnd,
    rssGrowthPct,
    rssSecondHalfGrowthPct,
    rssSlopePerHour: perHour((s) => s.rssBytes),
    heapSlopePerHour: perHour((s) => s.heapUsedBytes),
    failures,
  };
}

const ms = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : '-');
const signedMib = (b: number): string =>
  Number.isFinite(b) ? `${b >= 0 ? '+' : ''}${(b / 1024 / 1024).toFixed(1)} MiB/h` : '-';

/** The end-of-run table as lines of text. */
export function summaryLines(
  samples: readonly Sample[],
  v: Verdict,
  totals: { readonly seconds: number; readonly byKind: ReadonlyMap<string, number> },
  windowS = 600,
): string[] {
  const out: string[] = [];
  const row = (label: string, s: Sample | undefined) =>
    s
      ? `${label.padEnd(8)}${`${s.t.toFixed(0)} s`.padStart(8)}${mib(s.rssBytes).padStart(12)}` +
        `${mib(s.heapUsedBytes).padStart(12)}${(Number.isFinite(s.schedulerRssBytes) ? mib(s.schedulerRssBytes) : '-').padStart(14)}`
      : `${label.padEnd(8)}       -`;
  out.push('server memory (after the warm-up)');
  out.push('        at          RSS   heap used  scheduler RSS');
  out.push(row('start', v.start), row('middle', v.middle), row('end', v.end));
  const pct = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)}%` : '-');
  out.push(
    `RSS growth (median of 3 samples each): start to end ${pct(v.rssGrowthPct)}, ` +
      `middle to end ${pct(v.rssSecondHalfGrowthPct)} (judged)`,
  );
  out.push(
    `least-squares slope: RSS ${signedMib(v.rssSlopePerHour)}, heap used ${signedMib(v.heapSlopePerHour)}`,
  );
  const first = samples[0];
  const final = samples[samples.length - 1];
  if (first && final)
    out.push(
      `/metrics text: ${(first.metricsBytes / 1024).toFixed(0)} KiB first, ${(final.metricsBytes / 1024).toFixed(0)} KiB last`,
    );
  out.push('');
  out.push(`server event-loop lag per ${windowS / 60}-minute window (from ${samples.length} samples)`);
  out.push('window              samples  req/s    p50 lag    p99 lag    max lag    min heap');
  for (const w of lagWindows(samples, windowS))
    out.push(
      `${`${(w.fromS / 60).toFixed(0)}-${(w.toS / 60).toFixed(0)} min`.padEnd(20)}${String(w.samples).padStart(7)}` +
        `${w.reqPerS.toFixed(1).padStart(7)}${ms(w.p50Ms).padStart(11)}${ms(w.p99Ms).padStart(11)}${ms(w.maxMs).padStart(11)}` +
        mib(w.minHeapBytes).padStart(12),
    );
  out.push('');
  const all = [...totals.byKind.values()].reduce((a, b) => a + b, 0);
  const last = samples[samples.length - 1];
  out.push(
    `totals: ${all} requests in ${totals.seconds.toFixed(0)} s (${(all / Math.max(1, totals.seconds)).toFixed(1)} req/s), ` +
      `${last?.errors ?? 0} errors, ${last?.watchEvents ?? 0} watch events`,
  );
  out.push(
    '  ' +
      [...totals.byKind.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(', '),
  );
  return out;
}

export const CSV_HEADER =
  't_s,rss_bytes,heap_used_bytes,lag_p50_ms,lag_p99_ms,lag_max_ms,req_per_s,requests,errors,watches,watch_events,scheduler_rss_bytes,metrics_bytes,heap_after_full_gc_bytes';

export function csvLine(s: Sample): string {
  return [
    s.t.toFixed(1),
    s.rssBytes,
    s.heapUsedBytes,
    s.lagP50Ms.toFixed(3),
    s.lagP99Ms.toFixed(3),
    s.lagMaxMs.toFixed(3),
    s.reqPerS.toFixed(2),
    s.requests,
    s.errors,
    s.watches,
    s.watchEvents,
    Number.isFinite(s.schedulerRssBytes) ? s.schedulerRssBytes : '',
    s.metricsBytes,
    Number.isFinite(s.heapAfterFullGcBytes) ? s.heapAfterFullGcBytes : '',
  ].join(',');
}

/**
 * The heap after each full GC past the warm-up: first, last, and the least-squares slope, the
 * clearest sign of a leak (the live data), though only printed. `serverT0Ms` is the load's start
 * on the server's clock.
 */
export function fullGcLines(gcs: readonly FullGc[], serverT0Ms: number, warmupS: number): string[] {
  const after = gcs
    .map((g) => ({ t: (g.atMs - serverT0Ms) / 1000, bytes: g.afterBytes }))
    .filter((g) => g.t >= warmupS);
  if (after.length === 0) return ['heap after full GC: no mark-compact after the warm-up'];
  const first = after[0]!;
  const last = after[after.length - 1]!;
  const perHour = slope(after.map((g) => [g.t, g.bytes])) * 3600;
  return [
    `heap after full GC (V8 --trace-gc, ${after.length} mark-compacts after the warm-up): ` +
      `${mib(first.bytes)} at ${first.t.toFixed(0)} s, ${mib(last.bytes)} at ${last.t.toFixed(0)} s, ` +
      `min ${mib(Math.min(...after.map((g) => g.bytes)))}, max ${mib(Math.max(...after.map((g) => g.bytes)))}, ` +
      `slope ${signedMib(perHour)}`,
  ];
}
