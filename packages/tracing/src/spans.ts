import { SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';

/**
 * The one switch every span site reads: without --tracing-config-file no tracer is set up and a
 * span site costs a boolean check, not a call into the OpenTelemetry API's no-op tracer.
 */
let enabled = false;

export function setTracingEnabled(on: boolean): void {
  enabled = on;
}

export function tracingEnabled(): boolean {
  return enabled;
}

const tracer = () => trace.getTracer('keel');

/**
 * Runs `fn` inside a child span of the current one (a store call within a request's span), and
 * ends it when `fn` settles, marking a rejection as an error. Without tracing it only runs `fn`.
 */
export function inSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>): Promise<T> {
  if (!enabled) return fn();
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn();
    } catch (err) {
      span.recordException(err instanceof Error ? err : String(err));
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: err instanceof Error ? err.message : String(err),
      });
      throw err;
    } finally {
      span.end();
    }
  });
}
