import type { CounterMetric, GaugeMetric, HistogramMetric, MetricsConfig } from '@keel/metrics';
import { MetricsRegistry } from '@keel/metrics';
import { ServerAdmissionMetrics } from './admission-metrics.js';
import { ServerAuditMetrics } from './audit-metrics.js';
import { FlowControlMetrics } from './flowcontrol-metrics.js';
import { WatchEventMetrics } from './watch-metrics.js';

/** The labels of one request, named as kube-apiserver's so existing dashboards and alerts work. */
export type RequestLabel =
  'verb' | 'dry_run' | 'group' | 'version' | 'resource' | 'subresource' | 'scope' | 'component';

/** kube-apiserver's apiserver_request_duration_seconds buckets. */
const REQUEST_DURATION_BUCKETS = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
];

const REQUEST_LABELS: readonly RequestLabel[] = [
  'verb',
  'dry_run',
  'group',
  'version',
  'resource',
  'subresource',
  'scope',
  'component',
];

/** What the in-flight filter counts, read at each scrape. */
export interface InFlightCounts {
  readonly readOnly: number;
  readonly mutating: number;
  /** Waiting in priority and fairness queues; the in-flight limits never queue. */
  readonly readOnlyWaiting: number;
  readonly mutatingWaiting: number;
}

/** The API server's metrics; GET /metrics renders them. */
export class ApiServerMetrics {
  readonly registry: MetricsRegistry;
  readonly requests: CounterMetric<RequestLabel | 'code'>;
  readonly requestDuration: HistogramMetric<RequestLabel>;
  readonly longRunning: GaugeMetric<RequestLabel>;
  readonly storageObjects: GaugeMetric<'resource'>;
  readonly storageDbSize: GaugeMetric<'endpoint'>;
  readonly audit: ServerAuditMetrics;
  readonly admission: ServerAdmissionMetrics;
  readonly watchEvents: WatchEventMetrics;
  readonly flowControl: FlowControlMetrics;
  /** The stored object counts apiserver_storage_objects shows, by its label: APF's work estimates read them. */
  readonly objectCounts = new Map<string, number>();
  private inFlight: () => InFlightCounts = () => ({
    readOnly: 0,
    mutating: 0,
    readOnlyWaiting: 0,
    mutatingWaiting: 0,
  });

  constructor(config: MetricsConfig) {
    const r = (this.registry = new MetricsRegistry(config));
    this.requests = r.counter({
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      labelNames: [...REQUEST_LABELS, 'code'],
    });
    this.requestDuration = r.histogram({
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      labelNames: REQUEST_LABELS,
      buckets: REQUEST_DURATION_BUCKETS,
    });
    this.longRunning = r.gauge({
      name: 'apiserver_longrunning_requests',
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      labelNames: REQUEST_LABELS,
    });
    const inFlight = r.gauge({
      name: 'apiserver_current_inflight_requests',
      help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      labelNames: ['request_kind'],
      collect: () => {
        const now = this.inFlight();
        inFlight.set({ request_kind: 'readOnly' }, now.readOnly);
        inFlight.set({ request_kind: 'mutating' }, now.mutating);
      },
    });
    const inQueue = r.gauge({
      name: 'apiserver_current_inqueue_requests',
      help: 'Maximal number of queued requests in this apiserver per request kind in last second.',
      labelNames: ['request_kind'],
      collect: () => {
        const now = this.inFlight();
        inQueue.set({ request_kind: 'readOnly' }, now.readOnlyWaiting);
        inQueue.set({ request_kind: 'mutating' }, now.mutatingWaiting);
      },
    });
    this.storageObjects = r.gauge({
      name: 'apiserver_storage_objects',
      help: 'Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
      labelNames: ['resource'],
    });
    this.storageDbSize = r.gauge({
      name: 'apiserver_storage_db_total_size_in_bytes',
      help: 'Total size of the storage database file physically allocated in bytes.',
      labelNames: ['endpoint'],
    });
    this.audit = new ServerAuditMetrics(r);
    this.admission = new ServerAdmissionMetrics(r);
    this.watchEvents = new WatchEventMetrics(r);
    this.flowControl = new FlowControlMetrics(r);
  }

  /**
   * Where apiserver_current_inflight_requests and apiserver_current_inqueue_requests read the
   * limiting filter's counts (the in-flight limits or priority and fairness, whichever runs).
   */
  setInFlightSource(source: () => InFlightCounts): void {
    this.inFlight = source;
  }
}
