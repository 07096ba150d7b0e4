import type { AuditMetrics } from '@keel/audit';
import type { CounterChild, CounterMetric, MetricsRegistry } from '@keel/metrics';

/** The audit's counters under kube-apiserver's names (k8s.io/apiserver/pkg/audit/metrics.go). */
export class ServerAuditMetrics implements AuditMetrics {
  private readonly events: CounterChild;
  private readonly errors: CounterMetric<'plugin'>;
  private readonly errorsByPlugin = new Map<string, CounterChild>();
  private readonly rejected: CounterChild;

  constructor(r: MetricsRegistry) {
    this.events = r
      .counter({
        name: 'apiserver_audit_event_total',
        help: 'Counter of audit events generated and sent to the audit backend.',
      })
      .child({});
    this.errors = r.counter({
      name: 'apiserver_audit_error_total',
      help: 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
      labelNames: ['plugin'],
    });
    this.rejected = r
      .counter({
        name: 'apiserver_audit_requests_rejected_total',
        help: 'Counter of apiserver requests rejected due to an error in audit logging backend.',
      })
      .child({});
  }

  eventSent(): void {
    this.events.inc();
  }

  pluginError(plugin: string, count: number): void {
    let child = this.errorsByPlugin.get(plugin);
    if (!child) {
      child = this.errors.child({ plugin });
      this.errorsByPlugin.set(plugin, child);
    }
    child.inc(count);
  }

  /** A request refused because its RequestReceived event could not be recorded (blocking-strict). */
  requestRejected(): void {
    this.rejected.inc();
  }
}
