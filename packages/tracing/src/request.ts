import type { IncomingHttpHeaders } from 'node:http';
import type { Attributes, Link, Span } from '@opentelemetry/api';
import { tracingApi } from './spans.js';

export interface RequestSpan {
  readonly span: Span;
  /** Runs the rest of the request with the span as the active one, so store calls nest under it. */
  readonly run: <T>(fn: () => T) => T;
}

/**
 * A request's server span, as otelhttp starts it in upstream's tracing filter: the caller's W3C
 * trace context is its parent only when the caller is trusted (system:masters or
 * system:monitoring); anyone else's becomes a link, so an arbitrary client cannot make the server
 * record (or join) traces it chooses.
 */
export function startRequestSpan(
  name: string,
  headers: IncomingHttpHeaders,
  trusted: boolean,
  attributes: Attributes,
): RequestSpan {
  const { context, propagation, ROOT_CONTEXT, SpanKind, trace } = tracingApi();
  const incoming = propagation.extract(ROOT_CONTEXT, headers);
  const remote = trace.getSpanContext(incoming);
  const parent = trusted ? incoming : ROOT_CONTEXT;
  const links: Link[] = !trusted && remote ? [{ context: remote }] : [];
  const span = trace.getTracer('keel').startSpan(name, { kind: SpanKind.SERVER, attributes, links }, parent);
  const active = trace.setSpan(parent, span);
  return { span, run: (fn) => context.with(active, fn) };
}
