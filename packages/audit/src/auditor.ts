/** The audit of a whole server: the policy, the sinks, and one RequestAudit per audited request. */
import { nowInstant } from './clock.js';
import { noAuditMetrics, type AuditMetrics } from './metrics.js';
import { evaluatePolicy } from './policy-checker.js';
import type { Policy } from './policy.js';
import { RequestAudit, type RequestMetadata } from './request-audit.js';
import type { Sink } from './sink.js';
import type { RequestAttributes } from './types.js';

export class Auditor {
  constructor(
    readonly policy: Policy,
    private readonly sink: Sink,
    private readonly metrics: AuditMetrics = noAuditMetrics,
  ) {}

  /**
   * The request's audit, or undefined when the policy says None. `metadata` is only called for
   * audited requests, so unaudited ones cost a policy check and nothing more.
   */
  begin(
    attrs: RequestAttributes,
    metadata: () => Omit<RequestMetadata, 'received'>,
  ): RequestAudit | undefined {
    const received = nowInstant();
    const decision = evaluatePolicy(this.policy, attrs);
    if (decision.level === 'None') return undefined;
    return new RequestAudit({ ...metadata(), received }, decision, this.sink, this.metrics);
  }

  /** Delivers everything buffered; called once the server stopped taking requests. */
  shutdown(): Promise<void> {
    return this.sink.shutdown();
  }
}
