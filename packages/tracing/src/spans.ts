import type * as OtelApi from '@opentelemetry/api';

/**
 * The OpenTelemetry API, once startTracing has loaded it. Without --tracing-config-file it is
 * never imported (its import alone costs start-up tens of milliseconds), and a span site costs
 * one check of this variable.
 */
let api: typeof OtelApi | undefined;

export function setTracingApi(loaded: typeof OtelApi | undefined): void {
  api = loaded;
}

export function tracingEnabled(): boolean {
  return api !== undefined;
}

/** The loaded API; only for code that runs when tracing is on. */
export function tracingApi(): typeof OtelApi {
  if (!api) throw new Error('tracing has not been started');
  return api;
}

/**
 * Runs `fn` inside a child span of the current one (a store call within a request's span), and
 * ends it when `fn` settles, marking a rejection as an error. Without tracing it only runs `fn`.
 */
export function inSpan<T>(name: string, attributes: OtelApi.Attributes, fn: () => Promise<T>): Promise<T> {
  if (!api) return fn();
  const { SpanStatusCode } = api;
  return api.trace.getTracer('keel').startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      span.recordException(err instanceof Error ? err : message);
      span.setStatus({ code: SpanStatusCode.ERROR, message });
      throw err;
    } finally {
      span.end();
    }
  });
}
