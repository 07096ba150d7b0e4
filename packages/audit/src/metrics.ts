/**
 * What the audit reports to the server's metrics. The package knows no registry: the server
 * passes an implementation that keeps kube's names (apiserver_audit_event_total,
 * apiserver_audit_error_total).
 */
export interface AuditMetrics {
  /** An event was handed to the sinks: one per stage that is not omitted. */
  eventSent(): void;
  /**
   * `count` events were lost, by the plugin that lost them in kube's words: the backend that
   * could not write them (`log`, `webhook`), a full batch buffer (`buffered`), or truncation
   * that could not make them small enough (`truncate`).
   */
  pluginError(plugin: string, count: number): void;
}

/** For callers that keep no metrics (tests, tools). */
export const noAuditMetrics: AuditMetrics = {
  eventSent: () => undefined,
  pluginError: () => undefined,
};
