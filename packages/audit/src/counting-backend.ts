/** Counts the events a backend could not write under its plugin name (kube's HandlePluginError). */
import type { AuditMetrics } from './metrics.js';
import type { Backend } from './sink.js';
import type { AuditEvent } from './types.js';

export class CountingBackend implements Backend {
  constructor(
    private readonly delegate: Backend,
    private readonly plugin: string,
    private readonly metrics: AuditMetrics,
  ) {}

  write(events: readonly AuditEvent[]): Promise<void> {
    return this.delegate.write(events).catch((err: unknown) => {
      this.metrics.pluginError(this.plugin, events.length);
      throw err;
    });
  }

  close(): Promise<void> {
    return this.delegate.close();
  }
}
