import type { FlowObserver, RejectReason } from '@keel/flowcontrol';
import type {
  CounterChild,
  CounterMetric,
  GaugeMetric,
  HistogramChild,
  HistogramMetric,
  MetricsRegistry,
} from '@keel/metrics';

type FlowLabel = 'priority_level' | 'flow_schema';

/** upstream's queue wait and execution buckets (seconds). */
const DURATION_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];

interface Series {
  readonly dispatched: CounterChild;
  readonly waitDispatched: HistogramChild;
  readonly execution: HistogramChild;
  readonly seats: HistogramChild;
  waiting: number;
  executing: number;
  readonly labels: { priority_level: string; flow_schema: string };
}

/**
 * The apiserver_flowcontrol_* metrics, upstream's names and labels. The per-request series are
 * looked up once per schema and level; the two gauges are counted in memory and read at each
 * scrape, so a request costs no label hashing for them.
 */
export class FlowControlMetrics implements FlowObserver {
  private readonly rejectedTotal: CounterMetric<FlowLabel | 'reason'>;
  private readonly dispatchedTotal: CounterMetric<FlowLabel>;
  private readonly waitDuration: HistogramMetric<FlowLabel | 'execute'>;
  private readonly executionSeconds: HistogramMetric<FlowLabel | 'type'>;
  private readonly workEstimatedSeats: HistogramMetric<FlowLabel>;
  private readonly limits: GaugeMetric<'priority_level'>;
  private readonly lowerLimits: GaugeMetric<'priority_level'>;
  private readonly upperLimits: GaugeMetric<'priority_level'>;
  private readonly currentLimits: GaugeMetric<'priority_level'>;
  private readonly targets: GaugeMetric<'priority_level'>;
  private readonly fairFrac: GaugeMetric<never>;
  private readonly series = new Map<string, Series>();

  constructor(r: MetricsRegistry) {
    this.rejectedTotal = r.counter({
      name: 'apiserver_flowcontrol_rejected_requests_total',
      help: 'Number of requests rejected by API Priority and Fairness subsystem',
      labelNames: ['priority_level', 'flow_schema', 'reason'],
    });
    this.dispatchedTotal = r.counter({
      name: 'apiserver_flowcontrol_dispatched_requests_total',
      help: 'Number of requests executed by API Priority and Fairness subsystem',
      labelNames: ['priority_level', 'flow_schema'],
    });
    const inqueue = r.gauge<FlowLabel>({
      name: 'apiserver_flowcontrol_current_inqueue_requests',
      help: 'Number of requests currently pending in queues of the API Priority and Fairness subsystem',
      labelNames: ['priority_level', 'flow_schema'],
      collect: () => {
        for (const s of this.series.values()) inqueue.set(s.labels, s.waiting);
      },
    });
    const executing = r.gauge<FlowLabel>({
      name: 'apiserver_flowcontrol_current_executing_requests',
      help: 'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
      labelNames: ['priority_level', 'flow_schema'],
      collect: () => {
        for (const s of this.series.values()) executing.set(s.labels, s.executing);
      },
    });
    this.waitDuration = r.histogram({
      name: 'apiserver_flowcontrol_request_wait_duration_seconds',
      help: 'Length of time a request spent waiting in its queue',
      labelNames: ['priority_level', 'flow_schema', 'execute'],
      buckets: DURATION_BUCKETS,
    });
    this.executionSeconds = r.histogram({
      name: 'apiserver_flowcontrol_request_execution_seconds',
      help: 'Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem',
      labelNames: ['priority_level', 'flow_schema', 'type'],
      buckets: DURATION_BUCKETS,
    });
    // 1.30 deprecated request_concurrency_limit for this name; 1.34 no longer serves the old one.
    this.workEstimatedSeats = r.histogram({
      name: 'apiserver_flowcontrol_work_estimated_seats',
      help: 'Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness',
      labelNames: ['priority_level', 'flow_schema'],
      buckets: [1, 2, 4, 10],
    });
    this.limits = r.gauge({
      name: 'apiserver_flowcontrol_nominal_limit_seats',
      help: 'Nominal number of execution seats configured for each priority level',
      labelNames: ['priority_level'],
    });
    this.lowerLimits = r.gauge({
      name: 'apiserver_flowcontrol_lower_limit_seats',
      help: 'Configured lower bound on number of execution seats available to each priority level',
      labelNames: ['priority_level'],
    });
    this.upperLimits = r.gauge({
      name: 'apiserver_flowcontrol_upper_limit_seats',
      help: 'Configured upper bound on number of execution seats available to each priority level',
      labelNames: ['priority_level'],
    });
    this.currentLimits = r.gauge({
      name: 'apiserver_flowcontrol_current_limit_seats',
      help: 'current derived number of execution seats available to each priority level',
      labelNames: ['priority_level'],
    });
    this.targets = r.gauge({
      name: 'apiserver_flowcontrol_target_seats',
      help: 'Seat allocation targets',
      labelNames: ['priority_level'],
    });
    this.fairFrac = r.gauge({
      name: 'apiserver_flowcontrol_seat_fair_frac',
      help: "Fair fraction of server's concurrency to allocate to each priority level that can use it",
    });
  }

  private get(level: string, schema: string): Series {
    const key = `${level}\0${schema}`;
    let s = this.series.get(key);
    if (!s) {
      const labels = { priority_level: level, flow_schema: schema };
      s = {
        labels,
        dispatched: this.dispatchedTotal.child(labels),
        waitDispatched: this.waitDuration.child({ ...labels, execute: 'true' }),
        execution: this.executionSeconds.child({ ...labels, type: 'regular' }),
        seats: this.workEstimatedSeats.child(labels),
        waiting: 0,
        executing: 0,
      };
      this.series.set(key, s);
    }
    return s;
  }

  concurrencyLimit(level: string, limit: number, lower: number, upper: number): void {
    const labels = { priority_level: level };
    this.limits.set(labels, limit);
    this.lowerLimits.set(labels, lower);
    this.upperLimits.set(labels, upper);
  }
  currentLimit(level: string, current: number, target: number, fairFrac: number): void {
    this.currentLimits.set({ priority_level: level }, current);
    this.targets.set({ priority_level: level }, target);
    this.fairFrac.set({}, fairFrac);
  }
  waiting(level: string, schema: string, delta: number): void {
    this.get(level, schema).waiting += delta;
  }
  executing(level: string, schema: string, delta: number): void {
    this.get(level, schema).executing += delta;
  }
  dispatched(level: string, schema: string, waitSeconds: number): void {
    const s = this.get(level, schema);
    s.dispatched.inc();
    s.waitDispatched.observe(waitSeconds);
  }
  rejected(level: string, schema: string, reason: RejectReason, waitSeconds: number): void {
    this.rejectedTotal.inc({ priority_level: level, flow_schema: schema, reason });
    this.waitDuration.observe({ priority_level: level, flow_schema: schema, execute: 'false' }, waitSeconds);
  }
  estimated(level: string, schema: string, seats: number): void {
    this.get(level, schema).seats.observe(seats);
  }
  executed(level: string, schema: string, seconds: number): void {
    this.get(level, schema).execution.observe(seconds);
  }
}
