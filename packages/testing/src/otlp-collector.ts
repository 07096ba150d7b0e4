import {
  Server,
  ServerCredentials,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import protobuf from 'protobufjs';

/** One received span, decoded to what tests look at. */
export interface CollectedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** '' for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  readonly links: readonly { readonly traceId: string; readonly spanId: string }[];
  /** The resource attributes of the batch the span came in (service.name, ...). */
  readonly resource: Readonly<Record<string, string | number | boolean>>;
}

// The fields of OTLP's trace export request that the tests read (opentelemetry-proto, trace/v1).
const root = protobuf.Root.fromJSON({
  nested: {
    otlp: {
      nested: {
        Request: { fields: { resourceSpans: { rule: 'repeated', type: 'ResourceSpans', id: 1 } } },
        ResourceSpans: {
          fields: {
            resource: { type: 'Resource', id: 1 },
            scopeSpans: { rule: 'repeated', type: 'ScopeSpans', id: 2 },
          },
        },
        Resource: { fields: { attributes: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
        ScopeSpans: { fields: { spans: { rule: 'repeated', type: 'Span', id: 2 } } },
        Span: {
          fields: {
            traceId: { type: 'bytes', id: 1 },
            spanId: { type: 'bytes', id: 2 },
            parentSpanId: { type: 'bytes', id: 4 },
            name: { type: 'string', id: 5 },
            kind: { type: 'int32', id: 6 },
            attributes: { rule: 'repeated', type: 'KeyValue', id: 9 },
            links: { rule: 'repeated', type: 'Link', id: 13 },
          },
        },
        Link: { fields: { traceId: { type: 'bytes', id: 1 }, spanId: { type: 'bytes', id: 2 } } },
        KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } },
        AnyValue: {
          oneofs: { value: { oneof: ['stringValue', 'boolValue', 'intValue', 'doubleValue'] } },
          fields: {
            stringValue: { type: 'string', id: 1 },
            boolValue: { type: 'bool', id: 2 },
            intValue: { type: 'int64', id: 3 },
            doubleValue: { type: 'double', id: 4 },
          },
        },
      },
    },
  },
});
const Request = root.lookupType('otlp.Request');

interface DecodedKeyValue {
  key: string;
  value?: { stringValue?: string; boolValue?: boolean; intValue?: number | string; doubleValue?: number };
}
interface DecodedSpan {
  traceId?: Uint8Array;
  spanId?: Uint8Array;
  parentSpanId?: Uint8Array;
  name?: string;
  kind?: number;
  attributes?: DecodedKeyValue[];
  links?: { traceId?: Uint8Array; spanId?: Uint8Array }[];
}
interface DecodedRequest {
  resourceSpans?: {
    resource?: { attributes?: DecodedKeyValue[] };
    scopeSpans?: { spans?: DecodedSpan[] }[];
  }[];
}

const hex = (b: Uint8Array | undefined) => Buffer.from(b ?? []).toString('hex');

function attributes(kvs: DecodedKeyValue[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of kvs ?? []) {
    const v = value?.stringValue ?? value?.boolValue ?? value?.doubleValue ?? value?.intValue;
    if (v !== undefined) out[key] = typeof v === 'string' && value?.intValue !== undefined ? Number(v) : v;
  }
  return out;
}

/**
 * A real OTLP/gRPC trace receiver on loopback, as a collector would run: it takes the
 * TraceService/Export calls of an OpenTelemetry exporter and keeps the spans for the test.
 */
export class TestOtlpCollector {
  private constructor(
    private readonly server: Server,
    /** host:port, as a TracingConfiguration's endpoint. */
    readonly endpoint: string,
    /** Every span received so far, in arrival order. */
    readonly spans: readonly CollectedSpan[],
  ) {}

  static async start(): Promise<TestOtlpCollector> {
    const server = new Server();
    const spans: CollectedSpan[] = [];
    const service: ServiceDefinition = {
      Export: {
        path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
        requestStream: false,
        responseStream: false,
        requestSerialize: (b: Buffer) => b,
        requestDeserialize: (b: Buffer) => b,
        // An empty ExportTraceServiceResponse: full success.
        responseSerialize: () => Buffer.alloc(0),
        responseDeserialize: (b: Buffer) => b,
      },
    };
    const impl: UntypedServiceImplementation = {
      Export: (call: { request: Buffer }, callback: (err: null, res: object) => void) => {
        const req = Request.toObject(Request.decode(call.request), { longs: String }) as DecodedRequest;
        for (const rs of req.resourceSpans ?? []) {
          const resource = attributes(rs.resource?.attributes);
          for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? []) {
              spans.push({
                traceId: hex(s.traceId),
                spanId: hex(s.spanId),
                parentSpanId: hex(s.parentSpanId),
                name: s.name ?? '',
                kind: s.kind ?? 0,
                attributes: attributes(s.attributes),
                links: (s.links ?? []).map((l) => ({ traceId: hex(l.traceId), spanId: hex(l.spanId) })),
                resource,
              });
            }
          }
        }
        callback(null, {});
      },
    };
    server.addService(service, impl);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) =>
        err ? reject(err) : resolve(p),
      ),
    );
    return new TestOtlpCollector(server, `127.0.0.1:${port}`, spans);
  }

  /** Resolves once a span satisfies `match`, polling what has arrived. */
  async waitFor(match: (s: CollectedSpan) => boolean, timeoutMs = 15_000): Promise<CollectedSpan> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.spans.find(match);
      if (found) return found;
      if (Date.now() > deadline) {
        throw new Error(
          `no matching span in ${timeoutMs} ms; got ${this.spans.map((s) => s.name).join(', ') || 'none'}`,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.tryShutdown(() => resolve()));
  }
}
