/** `pnpm soak` flags, parsed without side effects so the parsing is testable. */
import { Duration } from '@keel/flags';

export interface SoakOptions {
  readonly duration: Duration;
  /** Samples before the end of the warm-up are shown but not judged. */
  readonly warmup: Duration;
  readonly interval: Duration;
  /** Total request rate the load aims at (requests per second, watches not counted). */
  readonly rate: number;
  /** RSS growth from the end of the warm-up to the end, in percent, that fails the run. */
  readonly maxRssGrowthPct: number;
  readonly csv: string | undefined;
  readonly scheduler: boolean;
}

export const USAGE = `usage: pnpm soak [--duration 1h] [--warmup 2m] [--interval 10s] [--rate 120]
                 [--max-rss-growth 20] [--csv FILE] [--no-scheduler]
  --duration        how long the load runs (Go duration: 1h, 50m, 90s); default 1h
  --warmup          load before the start figures are taken; default 2m
  --interval        sampling period; default 10s
  --rate            total requests per second the load aims at; default 120
  --max-rss-growth  percent RSS growth after the warm-up that fails the run; default 20
  --csv FILE        also writes every sample to FILE
  --no-scheduler    no keel-scheduler (pods then all stay unbound)`;

function duration(flag: string, text: string | undefined): Duration {
  if (text === undefined) throw new Error(`${flag} needs a value`);
  let d: Duration;
  try {
    d = Duration.parse(text);
  } catch (err) {
    throw new Error(`${flag}: ${(err as Error).message}`);
  }
  if (d.nanoseconds <= 0n) throw new Error(`${flag}: must be positive, got ${text}`);
  return d;
}

function positive(flag: string, text: string | undefined): number {
  const n = Number(text);
  if (text === undefined || text === '' || !Number.isFinite(n) || n <= 0)
    throw new Error(`${flag}: expected a positive number, got ${text === undefined ? 'nothing' : text}`);
  return n;
}

/** Parses `--flag value` and `--flag=value`; throws an Error naming the flag on bad input. */
export function parseSoakArgs(argv: readonly string[]): SoakOptions {
  let durationV = Duration.parse('1h');
  let warmup = Duration.parse('2m');
  let interval = Duration.parse('10s');
  let rate = 120;
  let maxRssGrowthPct = 20;
  let csv: string | undefined;
  let scheduler = true;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    // pnpm passes a lone `--` through when the user writes `pnpm soak -- --duration 3m`.
    if (arg === '--') continue;
    const eq = arg.indexOf('=');
    const flag = eq >= 0 ? arg.slice(0, eq) : arg;
    const value = (): string | undefined => (eq >= 0 ? arg.slice(eq + 1) : argv[++i]);
    switch (flag) {
      case '--duration':
        durationV = duration(flag, value());
        break;
      case '--warmup':
        warmup = duration(flag, value());
        break;
      case '--interval':
        interval = duration(flag, value());
        break;
      case '--rate':
        rate = positive(flag, value());
        break;
      case '--max-rss-growth':
        maxRssGrowthPct = positive(flag, value());
        break;
      case '--csv': {
        const v = value();
        if (!v) throw new Error('--csv needs a file name');
        csv = v;
        break;
      }
      case '--no-scheduler':
        if (eq >= 0) throw new Error('--no-scheduler takes no value');
        scheduler = false;
        break;
      default:
        throw new Error(`unknown flag ${JSON.stringify(arg)}`);
    }
  }
  if (warmup.compare(durationV) >= 0)
    throw new Error(
      `--warmup (${warmup.toString()}) must be shorter than --duration (${durationV.toString()})`,
    );
  // At least three judged samples, or "start", "middle" and "end" say nothing.
  if (interval.nanoseconds * 3n > durationV.nanoseconds - warmup.nanoseconds)
    throw new Error(
      `--interval (${interval.toString()}) leaves fewer than 3 samples after --warmup (${warmup.toString()}) ` +
        `in --duration (${durationV.toString()})`,
    );
  return { duration: durationV, warmup, interval, rate, maxRssGrowthPct, csv, scheduler };
}
