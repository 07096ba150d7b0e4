import {
  Duration,
  checkNonNegative,
  checkPositive,
  flagTypes as t,
  type NamedFlagSets,
  type OptionsGroup,
  checkDurationPositive,
} from '@keel/flags';

/** Request concurrency, timeouts and throttling (the spec's "Limits" table). */
export interface LimitsConfig {
  /** Cap on non-mutating requests in flight; 0 disables it (without priority and fairness). */
  readonly maxRequestsInflight: number;
  /** Cap on mutating requests in flight; 0 disables it (without priority and fairness). */
  readonly maxMutatingRequestsInflight: number;
  readonly requestTimeout: Duration;
  /** Watches pick a random timeout between this and twice this. */
  readonly minRequestTimeoutSeconds: number;
  /** Per-connection throttle for long-running requests; 0 is off. */
  readonly maxConnectionBytesPerSec: number;
}

/** What the cross-option rule needs from the features options. */
export interface PriorityAndFairnessSwitch {
  readonly enablePriorityAndFairness: boolean;
}

/**
 * With priority and fairness on, the two caps are summed into the server's total concurrency,
 * which must be positive. Negative caps are reported by LimitsOptions.validate, so they are skipped here.
 */
export function validateInflightWithPriorityAndFairness(
  limits: Pick<LimitsOptions, 'maxRequestsInflight' | 'maxMutatingRequestsInflight'>,
  features: PriorityAndFairnessSwitch,
): string[] {
  const { maxRequestsInflight: reads, maxMutatingRequestsInflight: writes } = limits;
  if (!features.enablePriorityAndFairness || reads < 0 || writes < 0 || reads + writes > 0) return [];
  return [
    `--max-requests-inflight and --max-mutating-requests-inflight sum to ${reads + writes}; ` +
      'with --enable-priority-and-fairness they must sum to a positive number',
  ];
}

export class LimitsOptions implements OptionsGroup<{ limits?: LimitsConfig }> {
  maxRequestsInflight = 400;
  maxMutatingRequestsInflight = 200;
  requestTimeout = Duration.parse('1m');
  minRequestTimeout = 1800;
  maxConnectionBytesPerSec = 0;

  /** `features` is read at validate time, after the command line has been parsed into it. */
  constructor(private readonly features: PriorityAndFairnessSwitch) {}

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Generic');
    s.var(this, 'maxRequestsInflight', {
      name: 'max-requests-inflight',
      type: t.int,
      usage:
        "This and --max-mutating-requests-inflight are summed to determine the server's total concurrency limit " +
        '(which must be positive) if --enable-priority-and-fairness is true. Otherwise, this flag limits the maximum ' +
        'number of non-mutating requests in flight, or a zero value disables the limit completely.',
    });
    s.var(this, 'maxMutatingRequestsInflight', {
      name: 'max-mutating-requests-inflight',
      type: t.int,
      usage:
        "This and --max-requests-inflight are summed to determine the server's total concurrency limit " +
        '(which must be positive) if --enable-priority-and-fairness is true. Otherwise, this flag limits the maximum ' +
        'number of mutating requests in flight, or a zero value disables the limit completely.',
    });
    s.var(this, 'requestTimeout', {
      name: 'request-timeout',
      type: t.duration,
      usage:
        'An optional field indicating the duration a handler must keep a request open before timing it out. This is ' +
        'the default request timeout for requests but may be overridden by flags such as --min-request-timeout for ' +
        'specific types of requests.',
    });
    s.var(this, 'minRequestTimeout', {
      name: 'min-request-timeout',
      type: t.int,
      usage:
        'An optional field indicating the minimum number of seconds a handler must keep a request open before timing ' +
        'it out. Currently only honored by the watch request handler, which picks a randomized value above this ' +
        'number as the connection timeout, to spread out load.',
    });
    s.var(this, 'maxConnectionBytesPerSec', {
      name: 'max-connection-bytes-per-sec',
      type: t.int,
      usage:
        'If non-zero, throttle each user connection to this number of bytes/sec. Currently only applies to ' +
        'long-running requests.',
    });
  }

  validate(): string[] {
    return [
      ...checkNonNegative('max-requests-inflight', this.maxRequestsInflight),
      ...checkNonNegative('max-mutating-requests-inflight', this.maxMutatingRequestsInflight),
      ...validateInflightWithPriorityAndFairness(this, this.features),
      ...checkDurationPositive('request-timeout', this.requestTimeout),
      ...checkPositive('min-request-timeout', this.minRequestTimeout),
      ...checkNonNegative('max-connection-bytes-per-sec', this.maxConnectionBytesPerSec),
    ];
  }

  applyTo(config: { limits?: LimitsConfig }): void {
    config.limits = {
      maxRequestsInflight: this.maxRequestsInflight,
      maxMutatingRequestsInflight: this.maxMutatingRequestsInflight,
      requestTimeout: this.requestTimeout,
      minRequestTimeoutSeconds: this.minRequestTimeout,
      maxConnectionBytesPerSec: this.maxConnectionBytesPerSec,
    };
  }
}
