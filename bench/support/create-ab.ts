/**
 * The A/B comparison several benchmarks share: Event creates against two API servers in
 * alternating turns in the same run, at c=1 and c=16. The figure is the median of the turns'
 * ratios, since a shared machine's noise moves single turns by more than the effects measured;
 * each server's CPU per request (from /proc) is printed beside it.
 */
import autocannon from 'autocannon';
import type { TestApiServer } from '@keel/testing';
import { cpuSeconds } from './process-stats.js';
import { EVENT, EVENTS_PATH } from './bench-event.js';

const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 3);
const TURNS = Number(process.env['BENCH_TURNS'] ?? 5);

interface Turn {
  readonly rps: number;
  readonly requests: number;
  readonly cpuS: number;
  readonly errors: number;
}

async function turn(server: TestApiServer, token: string, connections: number): Promise<Turn> {
  const pid = server.process.child.pid;
  const cpuBefore = cpuSeconds(pid);
  const r = await autocannon({
    url: server.url + EVENTS_PATH,
    method: 'POST',
    connections,
    duration: DURATION_S,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: EVENT,
    tlsOptions: { ca: server.ca },
  });
  return {
    rps: r.requests.average,
    requests: r.requests.total,
    cpuS: cpuSeconds(pid) - cpuBefore,
    errors: r.non2xx + r.errors + r.timeouts,
  };
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const sum = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0);
const cpuPerRequestUs = (ts: readonly Turn[]) =>
  (sum(ts.map((t) => t.cpuS)) / sum(ts.map((t) => t.requests))) * 1e6;

export interface CreateComparison {
  /** What the run is, printed first (turns, duration and method are added). */
  readonly heading: string;
  readonly baseline: { readonly server: TestApiServer; readonly label: string };
  readonly candidate: { readonly server: TestApiServer; readonly label: string };
  /** The bearer token the creates carry. */
  readonly token: string;
  /** The most the candidate may be slower, in percent (printed as the target). */
  readonly targetPercent: number;
  /** The concurrencies to compare at (default 1 and 16). */
  readonly concurrencies?: readonly number[];
  /** The store both servers use, for the heading (default "memory store"). */
  readonly store?: string;
}

/** One concurrency's figures: medians of the turns' throughput, CPU per request over all turns. */
export interface CreateComparisonResult {
  readonly connections: number;
  readonly baseline: { readonly rps: number; readonly cpuUsPerRequest: number };
  readonly candidate: { readonly rps: number; readonly cpuUsPerRequest: number };
  /** Median of the turns' candidate / baseline throughput. */
  readonly throughputRatio: number;
  /** Median of the turns' candidate / baseline CPU per request (steadier than the totals' ratio). */
  readonly cpuRatio: number;
  readonly errors: number;
}

/** Runs the comparison and prints a line per concurrency. Stopping the servers is the caller's. */
export async function compareCreates(c: CreateComparison): Promise<CreateComparisonResult[]> {
  const results: CreateComparisonResult[] = [];
  const { baseline, candidate, token } = c;
  await baseline.server.ready();
  await candidate.server.ready();
  // Warm both up first, so neither pays for JIT compilation and first allocations in the figures.
  await Promise.all([turn(baseline.server, token, 16), turn(candidate.server, token, 16)]);
  console.log(
    `${c.heading}, ${TURNS} alternating turns of ${DURATION_S}s, ${c.store ?? 'memory store'}, HTTPS + bearer token ` +
      `(median of the turns' ratios; server CPU per request):`,
  );
  for (const connections of c.concurrencies ?? [1, 16]) {
    const off: Turn[] = [];
    const on: Turn[] = [];
    for (let i = 0; i < TURNS; i++) {
      // Who goes first alternates too, so drift over the run falls on both.
      if (i % 2 === 0) {
        off.push(await turn(baseline.server, token, connections));
        on.push(await turn(candidate.server, token, connections));
      } else {
        on.push(await turn(candidate.server, token, connections));
        off.push(await turn(baseline.server, token, connections));
      }
    }
    const ratio = median(on.map((t, i) => t.rps / (off[i] as Turn).rps));
    const perRequest = (t: Turn) => t.cpuS / t.requests;
    const cpuRatio = median(on.map((t, i) => perRequest(t) / perRequest(off[i] as Turn)));
    const errors = sum([...off, ...on].map((t) => t.errors));
    const side = (label: string, ts: Turn[]) =>
      `${label} ${median(ts.map((t) => t.rps))
        .toFixed(0)
        .padStart(6)} req/s (${cpuPerRequestUs(ts).toFixed(0)} us CPU/req)`;
    console.log(
      `  c=${String(connections).padEnd(3)} ${side(baseline.label, off)}   ${side(candidate.label, on)}` +
        `   = ${ratio.toFixed(2)}x (${((1 - ratio) * 100).toFixed(1)}% slower; target <= ${c.targetPercent}%)` +
        (errors ? `  (${errors} errors)` : ''),
    );
    results.push({
      connections,
      baseline: { rps: median(off.map((t) => t.rps)), cpuUsPerRequest: cpuPerRequestUs(off) },
      candidate: { rps: median(on.map((t) => t.rps)), cpuUsPerRequest: cpuPerRequestUs(on) },
      throughputRatio: ratio,
      cpuRatio,
      errors,
    });
  }
  return results;
}
