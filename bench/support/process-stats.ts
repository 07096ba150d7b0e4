/** Process CPU time from /proc and Prometheus histograms from a /metrics text. */
import { readFileSync } from 'node:fs';

// /proc/<pid>/stat counts CPU time in clock ticks, 100 per second on Linux.
const TICKS_PER_S = 100;

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICKS_PER_S;
  } catch {
    return NaN;
  }
}

export interface Histogram {
  readonly count: number;
  readonly sum: number;
  /** Cumulative counts by upper bound, ascending. */
  readonly buckets: [number, number][];
}

export function histogram(text: string, name: string, labels: string): Histogram {
  const buckets: [number, number][] = [];
  let count = 0;
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || !line.includes(labels)) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (line.startsWith(`${name}_bucket`)) {
      const le = /le="([^"]+)"/.exec(line)?.[1] ?? '+Inf';
      buckets.push([le === '+Inf' ? Infinity : Number(le), value]);
    } else if (line.startsWith(`${name}_count`)) count = value;
    else if (line.startsWith(`${name}_sum`)) sum = value;
  }
  return { count, sum, buckets: buckets.sort((a, b) => a[0] - b[0]) };
}

export function minus(a: Histogram, b: Histogram): Histogram {
  return {
    count: a.count - b.count,
    sum: a.sum - b.sum,
    buckets: a.buckets.map(([le, c]) => [le, c - (b.buckets.find(([l]) => l === le)?.[1] ?? 0)]),
  };
}

/** The upper bound of the bucket holding quantile `q`. */
export function quantileBound(h: Histogram, q: number): number {
  return h.buckets.find(([, c]) => c >= q * h.count)?.[0] ?? NaN;
}
