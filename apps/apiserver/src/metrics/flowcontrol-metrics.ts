import type { FlowObserver, FlowSeries, RejectReason, SeatDemandSummary } from '@keel/flowcontrol';
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

/** One schema and level's series: the counters bound once, the gauges counted here and read at scrapes. */
class Series implements FlowSeries {
  waitingRequests = 0;
  waitingSeats = 0;
  executingRequests = 0;
  executingSeats = 0;
  private readonly rejects = new Map<RejectReason, CounterChild>();

  constructor(
    readonly labels: { readonly priority_level: string; readonly flow_schema: string },
    private readonly m: FlowControlMetrics,
    private readonly dispatchedTotal: CounterChild,
    private readonly waitDispatched: HistogramChild,
    private readonly waitRejected: HistogramChild,
    private readonly execution: HistogramChild,
    private readonly seats: HistogramChild,
    private readonly noAccommodation: CounterChild,
    private readonly queueLength: HistogramChild,
  ) {}

  waiting(delta: number, seats: number): void {
    this.waitingRequests += delta;
    this.waitingSeats += delta * seats;
  }
  executing(delta: number, seats: number): void {
    this.executingRequests += delta;
    this.executingSeats += delta * seats;
  }
  dispatched(waitSeconds: number): void {
    this.dispatchedTotal.inc();
    this.waitDispatched.observe(waitSeconds);
  }
  rejected(reason: RejectReason, waitSeconds: number): void {
    let c = this.rejects.get(reason);
    if (!c) {
      c = this.m.rejectedChild({ ...this.labels, reason });
      this.rejects.set(reason, c);
    }
    c.inc();
    this.waitRejected.observe(waitSeconds);
  }
  executed(seconds: number): void {
    this.execution.observe(seconds);
  }
  estimated(seats: number): void {
    this.seats.observe(seats);
  }
  notAccommodated(): void {
    this.noAccommodation.inc();
  }
  enqueued(queueLength: number): void {
    this.queueLength.observe(queueLength);
  }
}

/**
 * The apiserver_flowcontrol_* metrics, upstream's names, labels and buckets. The controller asks
 * for a schema and level's series once and keeps it, so a request costs no label lookups; the
 * in-queue and executing gauges are counted in memory and read at each scrape.
 */
export class FlowControlMetrics implements FlowObserver {
  private readonly rejectedTotal: CounterMetric<FlowLabel | 'reason'>;
  private readonly dispatchedTotal: CounterMetric<FlowLabel>;
  private readonly noAccommodationTotal: CounterMetric<FlowLabel>;
  private readonly waitDuration: HistogramMetric<FlowLabel | 'execute'>;
  private readonly executionSeconds: HistogramMetric<FlowLabel | 'type'>;
  private readonly workEstimatedSeats: HistogramMetric<FlowLabel>;
  private readonly queueLength: HistogramMetric<FlowLabel>;
  private readonly limits: GaugeMetric<'priority_level'>;
  private readonly lowerLimits: GaugeMetric<'priority_level'>;
  private readonly upperLimits: GaugeMetric<'priority_level'>;
  private readonly currentLimits: GaugeMetric<'priority_level'>;
  private readonly targets: GaugeMetric<'priority_level'>;
  private readonly fairFrac: GaugeMetric<never>;
  private readonly demand: Record<keyof SeatDemandSummary, GaugeMetric<'priority_level'>>;
  private readonly series: Series[] = [];

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
    this.noAccommodationTotal = r.counter({
      name: 'apiserver_flowcontrol_request_dispatch_no_accommodation_total',
      help: 'Number of times a dispatch attempt resulted in a non accommodation due to lack of available seats',
      labelNames: ['priority_level', 'flow_schema'],
    });
    const perFlow = (name: string, help: string, read: (s: Series) => number): void => {
      const g: GaugeMetric<FlowLabel> = r.gauge({
        name,
        help,
        labelNames: ['priority_level', 'flow_schema'],
        collect: () => {
          for (const s of this.series) g.set(s.labels, read(s));
        },
      });
    };
    perFlow(
      'apiserver_flowcontrol_current_inqueue_requests',
      'Number of requests currently pending in queues of the API Priority and Fairness subsystem',
      (s) => s.waitingRequests,
    );
    perFlow(
      'apiserver_flowcontrol_current_inqueue_seats',
      'Number of seats currently pending in queues of the API Priority and Fairness subsystem',
      (s) => s.waitingSeats,
    );
    perFlow(
      'apiserver_flowcontrol_current_executing_requests',
      'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
      (s) => s.executingRequests,
    );
    perFlow(
      'apiserver_flowcontrol_current_executing_seats',
      'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem',
      (s) => s.executingSeats,
    );
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
    this.queueLength = r.histogram({
      name: 'apiserver_flowcontrol_request_queue_length_after_enqueue',
      help: 'Length of queue in the API Priority and Fairness subsystem, as seen by each request after it is enqueued',
      labelNames: ['priority_level', 'flow_schema'],
      buckets: [0, 10, 25, 50, 100, 250, 500, 1000],
    });
    const perLevel = (name: string, help: string): GaugeMetric<'priority_level'> =>
      r.gauge({ name, help, labelNames: ['priority_level'] });
    this.limits = perLevel(
      'apiserver_flowcontrol_nominal_limit_seats',
      'Nominal number of execution seats configured for each priority level',
    );
    this.lowerLimits = perLevel(
      'apiserver_flowcontrol_lower_limit_seats',
      'Configured lower bound on number of execution seats available to each priority level',
    );
    this.upperLimits = perLevel(
      'apiserver_flowcontrol_upper_limit_seats',
      'Configured upper bound on number of execution seats available to each priority level',
    );
    this.currentLimits = perLevel(
      'apiserver_flowcontrol_current_limit_seats',
      'current derived number of execution seats available to each priority level',
    );
    this.targets = perLevel('apiserver_flowcontrol_target_seats', 'Seat allocation targets');
    this.fairFrac = r.gauge({
      name: 'apiserver_flowcontrol_seat_fair_frac',
      help: "Fair fraction of server's concurrency to allocate to each priority level that can use it",
    });
    this.demand = {
      highWatermark: perLevel(
        'apiserver_flowcontrol_demand_seats_high_watermark',
        'High watermark, over last adjustment period, of demand_seats',
      ),
      average: perLevel(
        'apiserver_flowcontrol_demand_seats_average',
        'Time-weighted average, over last adjustment period, of demand_seats',
      ),
      stdev: perLevel(
        'apiserver_flowcontrol_demand_seats_stdev',
        'Time-weighted standard deviation, over last adjustment period, of demand_seats',
      ),
      smoothed: perLevel('apiserver_flowcontrol_demand_seats_smoothed', 'Smoothed seat demands'),
    };
  }

  flow(level: string, schema: string): FlowSeries {
    const labels = { priority_level: level, flow_schema: schema };
    const s = new Series(
      labels,
      this,
      this.dispatchedTotal.child(labels),
      this.waitDuration.child({ ...labels, execute: 'true' }),
      this.waitDuration.child({ ...labels, execute: 'false' }),
      this.executionSeconds.child({ ...labels, type: 'regular' }),
      this.workEstimatedSeats.child(labels),
      this.noAccommodationTotal.child(labels),
      this.queueLength.child(labels),
    );
    this.series.push(s);
    return s;
  }

  /** @internal The rejection counter of one reason, bound at a flow's first rejection for it. */
  rejectedChild(labels: { priority_level: string; flow_schema: string; reason: RejectReason }): CounterChild {
    return this.rejectedTotal.child(labels);
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
  seatDemand(level: string, d: SeatDemandSummary): void {
    const labels = { priority_level: level };
    this.demand.highWatermark.set(labels, d.highWatermark);
    this.demand.average.set(labels, d.average);
    this.demand.stdev.set(labels, d.stdev);
    this.demand.smoothed.set(labels, d.smoothed);
  }
}
