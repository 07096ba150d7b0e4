import {
  checkNonNegative,
  checkOneOf,
  checkPositive,
  type Duration,
  type FlagSection,
  checkDurationNonNegative,
} from '@keel/flags';
import {
  AUDIT_GROUP_VERSIONS,
  SUFFIX_FLAGS,
  type AuditMode,
  type AuditSinkFields,
  type AuditSinkName,
} from './audit-sink-flags.js';

export interface AuditBatchConfig {
  readonly bufferSize: number;
  readonly maxBatchSize: number;
  readonly maxBatchWait: Duration;
  /** Token bucket on batches sent; undefined when throttling is off. */
  readonly throttle: { readonly qps: number; readonly burst: number } | undefined;
}

export interface AuditSinkConfig {
  readonly mode: AuditMode;
  /** Present in batch mode only. */
  readonly batch: AuditBatchConfig | undefined;
  /** Present when truncation is enabled. */
  readonly truncate: { readonly maxBatchSize: number; readonly maxEventSize: number } | undefined;
  readonly groupVersion: string;
}

/** One sink's share of the audit options; AuditOptions owns two of them. */
export class AuditSinkOptions implements AuditSinkFields {
  mode: AuditMode;
  batchBufferSize: number;
  batchMaxSize: number;
  batchMaxWait: Duration;
  batchThrottleEnable: boolean;
  batchThrottleQps: number;
  batchThrottleBurst: number;
  truncateEnabled: boolean;
  truncateMaxBatchSize: number;
  truncateMaxEventSize: number;
  version: string;

  constructor(
    readonly sink: AuditSinkName,
    defaults: Readonly<AuditSinkFields>,
  ) {
    this.mode = defaults.mode;
    this.batchBufferSize = defaults.batchBufferSize;
    this.batchMaxSize = defaults.batchMaxSize;
    this.batchMaxWait = defaults.batchMaxWait;
    this.batchThrottleEnable = defaults.batchThrottleEnable;
    this.batchThrottleQps = defaults.batchThrottleQps;
    this.batchThrottleBurst = defaults.batchThrottleBurst;
    this.truncateEnabled = defaults.truncateEnabled;
    this.truncateMaxBatchSize = defaults.truncateMaxBatchSize;
    this.truncateMaxEventSize = defaults.truncateMaxEventSize;
    this.version = defaults.version;
  }

  addFlags(section: FlagSection): void {
    for (const flag of SUFFIX_FLAGS) flag.register(section, this, this.sink);
  }

  /**
   * Values that can never work are errors whether or not the sink is configured; the batch
   * settings must also be usable when batch mode is chosen.
   */
  validate(): string[] {
    const f = (suffix: string) => `audit-${this.sink}-${suffix}`;
    const batch = this.mode === 'batch';
    const throttled = batch && this.batchThrottleEnable;
    const inBatch = (suffix: string, value: number, when: string) =>
      value > 0 ? [] : [`--${f(suffix)} must be greater than 0 ${when}, got ${value}`];
    const errors = [
      ...(batch
        ? [
            ...inBatch('batch-buffer-size', this.batchBufferSize, 'in batch mode'),
            ...inBatch('batch-max-size', this.batchMaxSize, 'in batch mode'),
          ]
        : [
            ...checkNonNegative(f('batch-buffer-size'), this.batchBufferSize),
            ...checkNonNegative(f('batch-max-size'), this.batchMaxSize),
          ]),
      ...checkDurationNonNegative(f('batch-max-wait'), this.batchMaxWait),
      ...(throttled
        ? [
            ...inBatch('batch-throttle-qps', this.batchThrottleQps, 'when batch throttling is enabled'),
            ...inBatch('batch-throttle-burst', this.batchThrottleBurst, 'when batch throttling is enabled'),
          ]
        : [
            ...checkNonNegative(f('batch-throttle-qps'), this.batchThrottleQps),
            ...checkNonNegative(f('batch-throttle-burst'), this.batchThrottleBurst),
          ]),
      ...checkPositive(f('truncate-max-batch-size'), this.truncateMaxBatchSize),
      ...checkPositive(f('truncate-max-event-size'), this.truncateMaxEventSize),
      ...checkOneOf(f('version'), this.version, AUDIT_GROUP_VERSIONS),
    ];
    if (batch && this.batchMaxSize > this.batchBufferSize && this.batchBufferSize > 0) {
      errors.push(
        `--${f('batch-max-size')} (${this.batchMaxSize}) must not be greater than --${f('batch-buffer-size')} (${this.batchBufferSize})`,
      );
    }
    if (this.truncateMaxEventSize > 0 && this.truncateMaxBatchSize < this.truncateMaxEventSize) {
      errors.push(
        `--${f('truncate-max-batch-size')} (${this.truncateMaxBatchSize}) must not be less than ` +
          `--${f('truncate-max-event-size')} (${this.truncateMaxEventSize})`,
      );
    }
    return errors;
  }

  resolve(): AuditSinkConfig {
    return {
      mode: this.mode,
      batch:
        this.mode === 'batch'
          ? {
              bufferSize: this.batchBufferSize,
              maxBatchSize: this.batchMaxSize,
              maxBatchWait: this.batchMaxWait,
              throttle: this.batchThrottleEnable
                ? { qps: this.batchThrottleQps, burst: this.batchThrottleBurst }
                : undefined,
            }
          : undefined,
      truncate: this.truncateEnabled
        ? { maxBatchSize: this.truncateMaxBatchSize, maxEventSize: this.truncateMaxEventSize }
        : undefined,
      groupVersion: this.version,
    };
  }
}
