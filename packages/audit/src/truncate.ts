/**
 * Truncation (--audit-*-truncate-*): an event over maxEventSize loses its request and response
 * objects (and says so in the `audit.k8s.io/truncated` annotation); if it is still too big it is
 * dropped. Events are then written in batches of at most maxBatchSize serialized bytes.
 */
import { encodeEvent } from './encode.js';
import type { AuditMetrics } from './metrics.js';
import type { Backend, ErrorLog } from './sink.js';
import { levelAtLeast, type AuditEvent, type AuditVersion } from './types.js';

/** The plugin kube names for an event truncation could not save. */
const TRUNCATE_PLUGIN = 'truncate';

export interface TruncateOptions {
  readonly maxEventSize: number;
  readonly maxBatchSize: number;
}

export class TruncatingBackend implements Backend {
  constructor(
    private readonly delegate: Backend,
    private readonly opts: TruncateOptions,
    private readonly version: AuditVersion,
    private readonly logger: ErrorLog,
    private readonly metrics: AuditMetrics,
    private readonly sinkName: string,
  ) {}

  private size(ev: AuditEvent): number {
    return Buffer.byteLength(encodeEvent(ev, this.version));
  }

  async write(events: readonly AuditEvent[]): Promise<void> {
    const batches: AuditEvent[][] = [];
    let batch: AuditEvent[] = [];
    let batchSize = 0;
    for (const original of events) {
      let ev = original;
      let size = this.size(ev);
      if (size > this.opts.maxEventSize && levelAtLeast(ev.level, 'Request')) {
        const { requestObject: _req, responseObject: _resp, ...rest } = ev;
        ev = { ...rest, annotations: { ...ev.annotations, 'audit.k8s.io/truncated': 'true' } };
        size = this.size(ev);
      }
      if (size > this.opts.maxEventSize) {
        this.logger.error('Dropped an audit event: it is too large even after truncating', {
          sink: this.sinkName,
          auditID: ev.auditID,
          stage: ev.stage,
          size,
        });
        this.metrics.pluginError(TRUNCATE_PLUGIN, 1);
        continue;
      }
      if (batch.length > 0 && batchSize + size > this.opts.maxBatchSize) {
        batches.push(batch);
        batch = [];
        batchSize = 0;
      }
      batch.push(ev);
      batchSize += size;
    }
    if (batch.length > 0) batches.push(batch);
    for (const b of batches) await this.delegate.write(b);
  }

  close(): Promise<void> {
    return this.delegate.close();
  }
}
