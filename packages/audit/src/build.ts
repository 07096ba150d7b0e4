/** Builds the sinks the audit options describe: backend, then truncation, then the mode. */
import { ConnectionConfigError, type Dialer } from '@keel/client';
import { BatchSink, type BatchOptions } from './batch.js';
import { BlockingSink } from './blocking.js';
import { CountingBackend } from './counting-backend.js';
import { LogBackend, type LogFormat } from './log-backend.js';
import { noAuditMetrics, type AuditMetrics } from './metrics.js';
import type { RotationOptions } from './rotating-file.js';
import { UnionSink, type Backend, type ErrorLog, type Sink } from './sink.js';
import { TruncatingBackend, type TruncateOptions } from './truncate.js';
import type { AuditVersion } from './types.js';
import { WebhookBackend } from './webhook-backend.js';

export type AuditMode = 'blocking' | 'blocking-strict' | 'batch';

export interface SinkOptions {
  readonly mode: AuditMode;
  /** Required in batch mode. */
  readonly batch: BatchOptions | undefined;
  /** Present when truncation is enabled. */
  readonly truncate: TruncateOptions | undefined;
  readonly version: AuditVersion;
}

export interface LogSinkOptions extends SinkOptions {
  readonly path: string;
  readonly format: LogFormat;
  readonly rotation: RotationOptions;
}

export interface WebhookSinkOptions extends SinkOptions {
  readonly configFile: string;
  readonly initialBackoffMs: number;
  /** The controlplane egress tunnel (--egress-selector-config-file); undefined: directly. */
  readonly dial?: Dialer | undefined;
}

/** A sink that cannot be built: one line for the start-up error. */
export class AuditConfigError extends Error {
  override readonly name = 'AuditConfigError';
}

function withMode(
  backend: Backend,
  opts: SinkOptions,
  logger: ErrorLog,
  metrics: AuditMetrics,
  name: string,
): Sink {
  // Counted below truncation, so a failure counts the events of the one batch that failed.
  const counted = new CountingBackend(backend, name, metrics);
  const inner = opts.truncate
    ? new TruncatingBackend(counted, opts.truncate, opts.version, logger, metrics, name)
    : counted;
  if (opts.mode === 'batch') {
    if (!opts.batch) throw new AuditConfigError(`audit ${name} sink: batch mode needs batch settings`);
    return new BatchSink(inner, opts.batch, logger, metrics, name);
  }
  return new BlockingSink(inner, opts.mode === 'blocking-strict', logger, name);
}

/** undefined when neither sink is configured. */
export function buildSinks(
  cfg: { readonly log: LogSinkOptions | undefined; readonly webhook: WebhookSinkOptions | undefined },
  logger: ErrorLog,
  metrics: AuditMetrics = noAuditMetrics,
): Sink | undefined {
  const sinks: Sink[] = [];
  if (cfg.log) {
    let backend: LogBackend;
    try {
      backend = new LogBackend(cfg.log);
    } catch (err) {
      throw new AuditConfigError(
        `--audit-log-path: cannot open ${cfg.log.path} for writing: ${(err as Error).message}`,
      );
    }
    sinks.push(withMode(backend, cfg.log, logger, metrics, 'log'));
  }
  if (cfg.webhook) {
    let backend: WebhookBackend;
    try {
      backend = new WebhookBackend(cfg.webhook);
    } catch (err) {
      if (err instanceof ConnectionConfigError)
        throw new AuditConfigError(`--audit-webhook-config-file: ${err.message}`);
      throw err;
    }
    sinks.push(withMode(backend, cfg.webhook, logger, metrics, 'webhook'));
  }
  if (sinks.length === 0) return undefined;
  return sinks.length === 1 ? sinks[0] : new UnionSink(sinks);
}
