import { describe, expect, it } from 'vitest';
import { formatProgress, formatSeconds, ProgressLine } from '../support/progress.js';
import { GcTrace, parseFullGcs } from './gc-trace.js';
import { parseSoakArgs } from './options.js';
import {
  csvLine,
  fullGcLines,
  judge,
  lagWindows,
  percentile,
  slope,
  summaryLines,
  type Sample,
} from './summary.js';

describe('soak flags', () => {
  it('defaults to one hour after a two-minute warm-up, sampled every 10 s', () => {
    const o = parseSoakArgs([]);
    expect(o.duration.toString()).toBe('1h0m0s');
    expect(o.warmup.toString()).toBe('2m0s');
    expect(o.interval.seconds).toBe(10);
    expect(o.maxRssGrowthPct).toBe(20);
    expect(o.scheduler).toBe(true);
    expect(o.csv).toBeUndefined();
  });

  it('takes Go durations in both flag forms', () => {
    const o = parseSoakArgs([
      '--',
      '--duration',
      '1h30m',
      '--warmup=90s',
      '--interval',
      '5s',
      '--csv=/tmp/x.csv',
    ]);
    expect(o.duration.seconds).toBe(5400);
    expect(o.warmup.seconds).toBe(90);
    expect(o.interval.seconds).toBe(5);
    expect(o.csv).toBe('/tmp/x.csv');
    expect(parseSoakArgs(['--duration', '50m', '--no-scheduler', '--rate', '80']).scheduler).toBe(false);
  });

  it('refuses bad input with the flag named and Go’s own message', () => {
    expect(() => parseSoakArgs(['--duration', '1hour'])).toThrow(
      '--duration: time: unknown unit "hour" in duration "1hour"',
    );
    expect(() => parseSoakArgs(['--duration', '60'])).toThrow(
      '--duration: time: missing unit in duration "60"',
    );
    expect(() => parseSoakArgs(['--duration', '-5m'])).toThrow('--duration: must be positive');
    expect(() => parseSoakArgs(['--duration'])).toThrow('--duration needs a value');
    expect(() => parseSoakArgs(['--rate', 'fast'])).toThrow('--rate: expected a positive number, got fast');
    expect(() => parseSoakArgs(['--max-rss-growth', '0'])).toThrow('--max-rss-growth');
    expect(() => parseSoakArgs(['--durration', '1h'])).toThrow('unknown flag "--durration"');
    expect(() => parseSoakArgs(['--duration', '2m'])).toThrow(
      '--warmup (2m0s) must be shorter than --duration (2m0s)',
    );
    expect(() => parseSoakArgs(['--duration', '2m20s'])).toThrow('leaves fewer than 3 samples');
  });
});

function sample(t: number, rssMiB: number, lag = 1): Sample {
  return {
    t,
    rssBytes: rssMiB * 1024 * 1024,
    heapUsedBytes: rssMiB * 1024 * 512,
    lagP50Ms: lag,
    lagP99Ms: lag * 10,
    lagMaxMs: lag * 20,
    reqPerS: 100,
    requests: t * 100,
    errors: 0,
    watches: 6,
    watchEvents: t,
    schedulerRssBytes: NaN,
    metricsBytes: 2048,
    heapAfterFullGcBytes: NaN,
  };
}

describe('soak summary', () => {
  it('percentile is nearest-rank and ignores non-numbers', () => {
    const v = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(v, 0.5)).toBe(50);
    expect(percentile(v, 0.99)).toBe(99);
    expect(percentile([3, NaN, 1, 2], 0.5)).toBe(2);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it('slope is the least-squares fit', () => {
    expect(
      slope([
        [0, 1],
        [1, 3],
        [2, 5],
      ]),
    ).toBeCloseTo(2);
    expect(
      slope([
        [0, 0],
        [1, 1],
        [2, 0],
        [3, 1],
      ]),
    ).toBeCloseTo(0.2);
    expect(slope([[1, 1]])).toBeNaN();
    expect(
      slope([
        [1, 1],
        [1, 2],
      ]),
    ).toBeNaN();
  });

  it('groups lag into windows by run time', () => {
    const samples = Array.from({ length: 12 }, (_, i) => sample((i + 1) * 100, 100, i + 1));
    const w = lagWindows(samples, 600);
    expect(w.map((x) => [x.fromS, x.toS, x.samples])).toEqual([
      [0, 600, 6],
      [600, 1200, 6],
    ]);
    expect(w[0]!.p50Ms).toBe(3);
    expect(w[1]!.p99Ms).toBe(120);
    expect(w[1]!.maxMs).toBe(240);
  });

  it('judges RSS from after the warm-up and fails on growth or errors', () => {
    // A warm-up climb from 50 MiB, then flat at 100: passes despite the climb.
    const flat = [sample(10, 50), sample(20, 80), ...[30, 40, 50, 60, 70].map((t) => sample(t, 100))];
    const ok = judge(flat, 30, 20, 0);
    expect(ok.failures).toEqual([]);
    expect(ok.start?.t).toBe(30);
    expect(ok.middle?.t).toBe(50);
    expect(ok.end?.t).toBe(70);
    expect(ok.rssSlopePerHour).toBeCloseTo(0);

    // A climb that levels off (V8 raising its heap limit) passes: the second half is flat.
    const levelling = [30, 40, 50, 60, 70, 80, 90, 100, 110].map((t, i) =>
      sample(t, Math.min(100 + i * 20, 160)),
    );
    const lv = judge(levelling, 30, 20, 0);
    expect(lv.rssGrowthPct).toBeCloseTo(((160 - 120) / 120) * 100);
    expect(lv.rssSecondHalfGrowthPct).toBeCloseTo(0);
    expect(lv.failures).toEqual([]);

    // Steady growth of 6 MiB a sample: 148 → 172 MiB over the second half (16%) passes 20%...
    const leaking = [30, 40, 50, 60, 70, 80, 90, 100, 110].map((t, i) => sample(t, 124 + i * 6));
    const bad = judge(leaking, 30, 20, 0);
    expect(bad.rssSecondHalfGrowthPct).toBeCloseTo(((166 - 148) / 148) * 100);
    expect(bad.failures).toEqual([]);
    // ...and fails 10%.
    expect(judge(leaking, 30, 10, 0).failures.join()).toMatch(
      /RSS grew 12\.2% in the second half .*more than --max-rss-growth 10%/,
    );
    expect(bad.rssSlopePerHour / (1024 * 1024)).toBeCloseTo(6 * 360);

    expect(judge(flat, 30, 20, 3).failures).toEqual([
      '3 request(s) failed (5xx, unexpected status or transport error)',
    ]);
    expect(judge(flat.slice(0, 3), 30, 20, 0).failures[0]).toMatch(/only 1 sample/);
  });

  it('prints a table with the start, middle and end rows and the totals', () => {
    const samples = [10, 20, 30, 40].map((t) => sample(t, 100));
    const lines = summaryLines(samples, judge(samples, 20, 20, 0), {
      seconds: 40,
      byKind: new Map([
        ['create pod', 30],
        ['list page', 10],
      ]),
    });
    const text = lines.join('\n');
    expect(text).toMatch(/^start\s+20 s\s+100\.0 MiB\s+50\.0 MiB\s+-$/m);
    expect(text).toMatch(/^end\s+40 s/m);
    expect(text).toContain('totals: 40 requests in 40 s (1.0 req/s), 0 errors');
    expect(text).toContain('create pod 30, list page 10');
    expect(csvLine(samples[0]!)).toBe(
      '10.0,104857600,52428800,1.000,10.000,20.000,100.00,1000,0,6,10,,2048,',
    );
  });
});

describe('progress line', () => {
  it('formats elapsed time Go-style and the figures given', () => {
    expect(formatSeconds(0)).toBe('0s');
    expect(formatSeconds(75.9)).toBe('1m15s');
    expect(formatSeconds(3600)).toBe('1h0m0s');
    expect(
      formatProgress({
        elapsedS: 90,
        totalS: 3600,
        reqPerS: 123.45,
        rssBytes: 200 * 1024 * 1024,
        lagMs: 4.25,
        watches: 6,
        errors: 0,
      }),
    ).toBe('[1m30s/1h0m0s 3%]  123.5 req/s  rss 200.0 MiB  lag p99 4.3 ms  watches 6  errors 0');
    expect(formatProgress({ elapsedS: 5, note: 'turn 1/3' })).toBe('[5s]  turn 1/3');
  });

  it('rewrites one line on a TTY and prints a plain line per period otherwise', () => {
    const tty: string[] = [];
    const p = new ProgressLine({ isTTY: true, write: (s) => tty.push(s) > 0 }, 60_000, () => 0);
    p.update('a');
    p.update('b');
    p.log('note');
    expect(tty).toEqual(['\ra\x1b[K', '\rb\x1b[K', '\n', 'note\n']);

    const log: string[] = [];
    let now = 0;
    const q = new ProgressLine({ isTTY: false, write: (s) => log.push(s) > 0 }, 60_000, () => now);
    q.update('first');
    now = 30_000;
    q.update('skipped');
    now = 59_990;
    q.update('second');
    now = 70_000;
    q.update('skipped too');
    q.done();
    expect(log).toEqual(['first\n', 'second\n']);
  });
});

describe('full GCs from --trace-gc', () => {
  const line = (ms: number, before: number, after: number, reduce = false) =>
    `[17659:0x380f7490]     ${ms} ms: Mark-Compact${reduce ? ' (reduce)' : ''} ${before} (103.2) -> ${after} (48.9) MB, ` +
    '54.43 / 0.00 ms  (average mu = 1.000, current mu = 1.000) finalize incremental marking via stack guard';

  it('reads the heap after each mark-compact and skips scavenges', () => {
    const text = [
      line(1769, 71.1, 15.6),
      '[17659:0x380f7490]     1800 ms: Scavenge 20.1 (48.9) -> 19.0 (48.9) MB, 1.2 / 0.0 ms  (average mu = 1.000)',
      line(3170, 99.5, 45.5, true),
    ].join('\n');
    expect(parseFullGcs(text)).toEqual([
      { atMs: 1769, beforeBytes: 71.1 * 1048576, afterBytes: 15.6 * 1048576 },
      { atMs: 3170, beforeBytes: 99.5 * 1048576, afterBytes: 45.5 * 1048576 },
    ]);
  });

  it('consumes whole lines only, keeping a partial one for the next read', () => {
    const trace = new GcTrace();
    const full = line(1000, 80, 40);
    expect(trace.lastAfterBytes).toBeNaN();
    expect(trace.consume(full.slice(0, 30))).toBe(full.slice(0, 30));
    expect(trace.consume(`${full}\n${line(2000, 90, 41).slice(0, 20)}`)).toBe(
      line(2000, 90, 41).slice(0, 20),
    );
    expect(trace.lastAfterBytes).toBe(40 * 1048576);
  });

  it('summarises the ones after the warm-up on the load clock', () => {
    // The load started 5 s into the server's life; warm-up 60 s.
    const gcs = [30_000, 125_000, 3_605_000].map((atMs, i) => ({
      atMs,
      beforeBytes: 0,
      afterBytes: (100 + i * 10) * 1048576,
    }));
    expect(fullGcLines(gcs, 5_000, 60)).toEqual([
      'heap after full GC (V8 --trace-gc, 2 mark-compacts after the warm-up): 110.0 MiB at 120 s, ' +
        '120.0 MiB at 3600 s, min 110.0 MiB, max 120.0 MiB, slope +10.3 MiB/h',
    ]);
    expect(fullGcLines(gcs.slice(0, 1), 5_000, 60)).toEqual([
      'heap after full GC: no mark-compact after the warm-up',
    ]);
  });
});
