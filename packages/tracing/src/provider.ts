import type { TracingConfig } from './config.js';
import { setTracingApi } from './spans.js';

export interface TracingIdentity {
  /** `service.name`: upstream's API server reports `apiserver`. */
  readonly serviceName: string;
  /** `service.instance.id`: which server of several sent the span. */
  readonly instanceId: string;
  readonly hostname: string;
}

/**
 * Sets up the OpenTelemetry SDK as upstream's API server does: parent-based sampling over a
 * trace-ID ratio of samplingRatePerMillion, batched export over OTLP/gRPC to the endpoint, W3C
 * trace context propagation. The SDK is loaded only here, so a server without tracing never
 * pays for importing it. Returns the function that flushes and stops it at shutdown.
 */
export async function startTracing(config: TracingConfig, id: TracingIdentity): Promise<() => Promise<void>> {
  const [api, { NodeTracerProvider }, base, { OTLPTraceExporter }, { resourceFromAttributes }, core] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-grpc'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/core'),
    ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      'service.name': id.serviceName,
      'service.instance.id': id.instanceId,
      'host.name': id.hostname,
    }),
    sampler: new base.ParentBasedSampler({
      root: new base.TraceIdRatioBasedSampler(config.samplingRatePerMillion / 1_000_000),
    }),
    spanProcessors: [
      new base.BatchSpanProcessor(new OTLPTraceExporter({ url: `http://${config.endpoint}` })),
    ],
  });
  provider.register({
    propagator: new core.CompositePropagator({
      propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
    }),
  });
  setTracingApi(api);
  return async () => {
    setTracingApi(undefined);
    await provider.shutdown();
    api.context.disable();
    api.propagation.disable();
  };
}
