import { Duration, flagTypes as t, type FlagSection, type FlagType } from '@keel/flags';

/**
 * The option family both audit sinks share: `--audit-log-<suffix>` and `--audit-webhook-<suffix>`
 * are declared once, in SUFFIX_FLAGS, and differ only in their defaults.
 */

export const AUDIT_MODES = ['blocking', 'batch', 'blocking-strict'] as const;
export type AuditMode = (typeof AUDIT_MODES)[number];
export type AuditSinkName = 'log' | 'webhook';

/** The default event version (the spec's `audit.<domain>/v1`). */
export const AUDIT_GROUP_VERSION = 'audit.k8s.io/v1';
/** v1beta1 adds the deprecated `timestamp` and `metadata.creationTimestamp` for older consumers. */
export const AUDIT_GROUP_VERSIONS = [AUDIT_GROUP_VERSION, 'audit.k8s.io/v1beta1'] as const;

/** What the user can set per sink, one field per suffix. */
export interface AuditSinkFields {
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
}

const COMMON_DEFAULTS = {
  batchBufferSize: 10000,
  truncateEnabled: false,
  truncateMaxBatchSize: 10 * 1024 * 1024,
  truncateMaxEventSize: 100 * 1024,
  version: AUDIT_GROUP_VERSION,
};

/** Batching buys a log file nothing, so its batch settings stay "unset" (zero) unless batch mode is chosen. */
export const LOG_SINK_DEFAULTS: Readonly<AuditSinkFields> = {
  ...COMMON_DEFAULTS,
  mode: 'blocking',
  batchMaxSize: 1,
  batchMaxWait: Duration.zero,
  batchThrottleEnable: false,
  batchThrottleQps: 0,
  batchThrottleBurst: 0,
};

export const WEBHOOK_SINK_DEFAULTS: Readonly<AuditSinkFields> = {
  ...COMMON_DEFAULTS,
  mode: 'batch',
  batchMaxSize: 400,
  batchMaxWait: Duration.parse('30s'),
  batchThrottleEnable: true,
  batchThrottleQps: 10,
  batchThrottleBurst: 15,
};

export interface SuffixFlag {
  register(section: FlagSection, target: AuditSinkFields, sink: AuditSinkName): void;
}

/** Ties a suffix to its field with the field's own type, so the table stays type-checked. */
function suffixFlag<K extends keyof AuditSinkFields>(
  suffix: string,
  key: K,
  type: FlagType<AuditSinkFields[K]>,
  usage: (sink: AuditSinkName) => string,
): SuffixFlag {
  return {
    register: (section, target, sink) =>
      section.var(target, key, { name: `audit-${sink}-${suffix}`, type, usage: usage(sink) }),
  };
}

const BATCH_ONLY = 'Only used in batch mode.';

export const SUFFIX_FLAGS: readonly SuffixFlag[] = [
  suffixFlag(
    'batch-buffer-size',
    'batchBufferSize',
    t.int,
    () => `The size of the buffer to store events before batching and writing. ${BATCH_ONLY}`,
  ),
  suffixFlag('batch-max-size', 'batchMaxSize', t.int, () => `The maximum size of a batch. ${BATCH_ONLY}`),
  suffixFlag(
    'batch-max-wait',
    'batchMaxWait',
    t.duration,
    () =>
      `The amount of time to wait before force writing the batch that hadn't reached the max size. ${BATCH_ONLY}`,
  ),
  suffixFlag(
    'batch-throttle-burst',
    'batchThrottleBurst',
    t.int,
    () =>
      `Maximum number of requests sent at the same moment if ThrottleQPS was not utilized before. ${BATCH_ONLY}`,
  ),
  suffixFlag(
    'batch-throttle-enable',
    'batchThrottleEnable',
    t.bool,
    () => `Whether batching throttling is enabled. ${BATCH_ONLY}`,
  ),
  suffixFlag(
    'batch-throttle-qps',
    'batchThrottleQps',
    t.float,
    () => `Maximum average number of batches per second. ${BATCH_ONLY}`,
  ),
  suffixFlag(
    'mode',
    'mode',
    t.enumOf(AUDIT_MODES),
    () =>
      'Strategy for sending audit events. Blocking indicates sending events should block server responses. ' +
      'Batch causes the backend to buffer and write events asynchronously. Blocking-strict is blocking, and also ' +
      'fails the request when the event cannot be recorded at the request-received stage. ' +
      `Known modes are ${AUDIT_MODES.join(',')}.`,
  ),
  suffixFlag(
    'truncate-enabled',
    'truncateEnabled',
    t.bool,
    () => 'Whether event and batch truncating is enabled.',
  ),
  suffixFlag(
    'truncate-max-batch-size',
    'truncateMaxBatchSize',
    t.int,
    () =>
      'Maximum size of the batch sent to the underlying backend. Actual serialized size can be several hundreds of ' +
      'bytes greater. If a batch exceeds this limit, it is split into several batches of smaller size.',
  ),
  suffixFlag(
    'truncate-max-event-size',
    'truncateMaxEventSize',
    t.int,
    () =>
      'Maximum size of the audit event sent to the underlying backend. If the size of an event is greater than this ' +
      "number, first request and response are removed, and if this doesn't reduce the size enough, event is discarded.",
  ),
  suffixFlag(
    'version',
    'version',
    t.string,
    (sink) => `API group and version used for serializing audit events written to ${sink}.`,
  ),
];
