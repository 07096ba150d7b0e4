import type { CounterMetric, HistogramMetric, MetricsRegistry } from '@keel/metrics';

type ResourceLabel = 'group' | 'version' | 'resource';

/** kube's ExponentialBuckets(1024, 2.0, 8): 1 KiB to 128 KiB. */
const WATCH_EVENT_SIZE_BUCKETS = [1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072];

/** What one watch reports for every event it sends. */
export interface WatchEventRecorder {
  /** One event written, `bytes` long as framed on the wire. */
  sent(bytes: number): void;
}

/**
 * apiserver_watch_events_total and apiserver_watch_events_sizes, one series pair per resource,
 * looked up once when a watch opens (kube's handler does the same) so events cost no lookup.
 */
export class WatchEventMetrics {
  private readonly events: CounterMetric<ResourceLabel>;
  private readonly sizes: HistogramMetric<ResourceLabel>;
  private readonly byResource = new Map<string, WatchEventRecorder>();

  constructor(r: MetricsRegistry) {
    this.events = r.counter({
      name: 'apiserver_watch_events_total',
      help: 'Number of events sent in watch clients',
      labelNames: ['group', 'version', 'resource'],
    });
    this.sizes = r.histogram({
      name: 'apiserver_watch_events_sizes',
      help: 'Watch event size distribution in bytes',
      labelNames: ['group', 'version', 'resource'],
      buckets: WATCH_EVENT_SIZE_BUCKETS,
    });
  }

  forResource(group: string, version: string, resource: string): WatchEventRecorder {
    const key = `${group}/${version}/${resource}`;
    let recorder = this.byResource.get(key);
    if (!recorder) {
      const labels = { group, version, resource };
      const count = this.events.child(labels);
      const size = this.sizes.child(labels);
      recorder = {
        sent: (bytes) => {
          count.inc();
          size.observe(bytes);
        },
      };
      this.byResource.set(key, recorder);
    }
    return recorder;
  }
}
