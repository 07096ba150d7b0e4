/**
 * The blocking modes: the request waits for the write. `blocking` logs a failed write and
 * carries on; `blocking-strict` reports it, which fails the request at the RequestReceived stage.
 */
import type { Backend, ErrorLog, Sink } from './sink.js';
import type { AuditEvent } from './types.js';

export class BlockingSink implements Sink {
  constructor(
    private readonly backend: Backend,
    private readonly strict: boolean,
    private readonly logger: ErrorLog,
    private readonly sinkName: string,
  ) {}

  async process(events: readonly AuditEvent[]): Promise<boolean> {
    try {
      await this.backend.write(events);
      return true;
    } catch (err) {
      this.logger.error('Failed to write audit events', {
        sink: this.sinkName,
        auditID: events[0]?.auditID ?? '',
        err,
      });
      return !this.strict;
    }
  }

  shutdown(): Promise<void> {
    return this.backend.close();
  }
}
