import {
  Duration,
  checkNonNegative,
  flagTypes as t,
  type NamedFlagSets,
  type OptionsGroup,
  checkDurationNonNegative,
} from '@keel/flags';
import { LOG_SINK_DEFAULTS, WEBHOOK_SINK_DEFAULTS } from './audit-sink-flags.js';
import { AuditSinkOptions, type AuditSinkConfig } from './audit-sink-options.js';

export const AUDIT_LOG_FORMATS = ['legacy', 'json'] as const;
export type AuditLogFormat = (typeof AUDIT_LOG_FORMATS)[number];

/** lumberjack's rotation size when --audit-log-maxsize is 0, which kube-apiserver inherits. */
export const DEFAULT_AUDIT_LOG_MAX_SIZE_MB = 100;

export interface AuditLogConfig extends AuditSinkConfig {
  /** The file written; `-` is standard output. */
  readonly path: string;
  readonly format: AuditLogFormat;
  readonly compress: boolean;
  /** 0 keeps rotated files whatever their age. */
  readonly maxAgeDays: number;
  /** 0 keeps every rotated file. */
  readonly maxBackups: number;
  readonly maxSizeMB: number;
}

export interface AuditWebhookConfig extends AuditSinkConfig {
  /** The connection-config file naming the webhook and its credentials. */
  readonly configFile: string;
  readonly initialBackoff: Duration;
}

/**
 * Without a policy file nothing is audited, as in kube-apiserver (which only logs that at -v=2):
 * the sinks are then left out rather than reported, so a sink present here is one to build.
 */
export interface AuditConfig {
  readonly policyFile: string | undefined;
  readonly log: AuditLogConfig | undefined;
  readonly webhook: AuditWebhookConfig | undefined;
}

export class AuditOptions implements OptionsGroup<{ audit?: AuditConfig }> {
  policyFile = '';
  logPath = '';
  logFormat: AuditLogFormat = 'json';
  logCompress = false;
  logMaxAge = 0;
  logMaxBackup = 0;
  logMaxSize = 0;
  webhookConfigFile = '';
  webhookInitialBackoff = Duration.parse('10s');
  readonly logSink = new AuditSinkOptions('log', LOG_SINK_DEFAULTS);
  readonly webhookSink = new AuditSinkOptions('webhook', WEBHOOK_SINK_DEFAULTS);

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Auditing');
    s.var(this, 'policyFile', {
      name: 'audit-policy-file',
      type: t.string,
      usage:
        'Path to the file that defines the audit policy configuration. Without it, no events are recorded.',
    });
    s.var(this, 'logPath', {
      name: 'audit-log-path',
      type: t.string,
      usage:
        "If set, all requests coming to the apiserver will be logged to this file. '-' means standard out.",
    });
    s.var(this, 'logFormat', {
      name: 'audit-log-format',
      type: t.enumOf(AUDIT_LOG_FORMATS),
      usage:
        'Format of saved audits. "legacy" indicates 1-line text format for each event. "json" indicates structured ' +
        `json format. Known formats are ${AUDIT_LOG_FORMATS.join(',')}.`,
    });
    s.var(this, 'logCompress', {
      name: 'audit-log-compress',
      type: t.bool,
      usage: 'If set, the rotated log files will be compressed using gzip.',
    });
    s.var(this, 'logMaxAge', {
      name: 'audit-log-maxage',
      type: t.int,
      usage:
        'The maximum number of days to retain old audit log files based on the timestamp encoded in their filename.',
    });
    s.var(this, 'logMaxBackup', {
      name: 'audit-log-maxbackup',
      type: t.int,
      usage:
        "The maximum number of old audit log files to retain. Setting a value of 0 will mean there's no restriction " +
        'on the number of files.',
    });
    s.var(this, 'logMaxSize', {
      name: 'audit-log-maxsize',
      type: t.int,
      usage:
        'The maximum size in megabytes of the audit log file before it gets rotated. ' +
        `0 means ${DEFAULT_AUDIT_LOG_MAX_SIZE_MB}.`,
    });
    this.logSink.addFlags(s);
    s.var(this, 'webhookConfigFile', {
      name: 'audit-webhook-config-file',
      type: t.string,
      usage: 'Path to a connection-config formatted file that defines the audit webhook configuration.',
    });
    s.var(this, 'webhookInitialBackoff', {
      name: 'audit-webhook-initial-backoff',
      type: t.duration,
      usage: 'The amount of time to wait before retrying the first failed request.',
    });
    this.webhookSink.addFlags(s);
  }

  validate(): string[] {
    return [
      ...checkNonNegative('audit-log-maxage', this.logMaxAge),
      ...checkNonNegative('audit-log-maxbackup', this.logMaxBackup),
      ...checkNonNegative('audit-log-maxsize', this.logMaxSize),
      ...this.logSink.validate(),
      ...checkDurationNonNegative('audit-webhook-initial-backoff', this.webhookInitialBackoff),
      ...this.webhookSink.validate(),
    ];
  }

  applyTo(config: { audit?: AuditConfig }): void {
    const audited = this.policyFile !== '';
    config.audit = {
      policyFile: audited ? this.policyFile : undefined,
      log:
        audited && this.logPath !== ''
          ? {
              ...this.logSink.resolve(),
              path: this.logPath,
              format: this.logFormat,
              compress: this.logCompress,
              maxAgeDays: this.logMaxAge,
              maxBackups: this.logMaxBackup,
              maxSizeMB: this.logMaxSize === 0 ? DEFAULT_AUDIT_LOG_MAX_SIZE_MB : this.logMaxSize,
            }
          : undefined,
      webhook:
        audited && this.webhookConfigFile !== ''
          ? {
              ...this.webhookSink.resolve(),
              configFile: this.webhookConfigFile,
              initialBackoff: this.webhookInitialBackoff,
            }
          : undefined,
    };
  }
}
