import type { Dial } from '@keel/egress';
import {
  Auditor,
  buildSinks,
  loadPolicyFile,
  type AuditMetrics,
  type AuditVersion,
  type ErrorLog,
  type SinkOptions,
} from '@keel/audit';
import type { AuditConfig } from '../options/audit-options.js';
import type { AuditSinkConfig } from '../options/audit-sink-options.js';

const MB = 1024 * 1024;

function sinkOptions(c: AuditSinkConfig): SinkOptions {
  return {
    mode: c.mode,
    batch: c.batch && {
      bufferSize: c.batch.bufferSize,
      maxBatchSize: c.batch.maxBatchSize,
      maxBatchWaitMs: c.batch.maxBatchWait.milliseconds,
      throttle: c.batch.throttle,
    },
    truncate: c.truncate,
    // The options accept only the versions the package writes.
    version: c.groupVersion as AuditVersion,
  };
}

/**
 * The policy and sinks of the audit options, read at start-up so a bad file stops the server
 * with one line (PolicyError, AuditConfigError). undefined when nothing is audited: no policy
 * file, or no sink to write to, as in kube-apiserver.
 */
export function buildAuditor(
  config: AuditConfig | undefined,
  log: ErrorLog,
  metrics: AuditMetrics,
  /** The controlplane egress tunnel for the webhook sink. */
  dial?: Dial,
): Auditor | undefined {
  if (!config?.policyFile) return undefined;
  const policy = loadPolicyFile(config.policyFile);
  const sink = buildSinks(
    {
      log: config.log && {
        ...sinkOptions(config.log),
        path: config.log.path,
        format: config.log.format,
        rotation: {
          maxSizeBytes: config.log.maxSizeMB * MB,
          maxBackups: config.log.maxBackups,
          maxAgeDays: config.log.maxAgeDays,
          compress: config.log.compress,
        },
      },
      webhook: config.webhook && {
        ...sinkOptions(config.webhook),
        configFile: config.webhook.configFile,
        initialBackoffMs: config.webhook.initialBackoff.milliseconds,
        dial,
      },
    },
    log,
    metrics,
  );
  return sink ? new Auditor(policy, sink, metrics) : undefined;
}
