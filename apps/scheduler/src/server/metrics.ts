import { exponentialBuckets } from 'prom-client';
import type { FrameworkMetricsSink } from '../framework/metrics-recorder.js';
import type { IncomingQueue } from '../queue/scheduling-queue.js';
import {
  MetricsRegistry,
  type CounterChild,
  type CounterMetric,
  type GaugeMetric,
  type HistogramMetric,
  type MetricsConfig,
} from '@keel/metrics';

/** kube's pending_pods queue labels; all four are always reported. */
export const PENDING_QUEUES = ['active', 'backoff', 'unschedulable', 'gated'] as const;
export type PendingQueue = (typeof PENDING_QUEUES)[number];

/** kube's schedule_attempts_total results. */
export type AttemptResult = 'scheduled' | 'unschedulable' | 'error';

/** What preemption reports (kube's PreemptionAttempts and PreemptionVictims). */
export interface PreemptionRecorder {
  /** A PostFilter preemption attempt started. */
  attempt(): void;
  /** The chosen candidate's victims (observed only when a candidate was found). */
  victims(count: number): void;
}

/** scheduler_scheduler_cache_size's types. */
export interface CacheSizes {
  readonly nodes: number;
  readonly pods: number;
  readonly assumed_pods: number;
}

/** One scheduler_unschedulable_pods series: pods waiting because of `plugin` in `profile`. */
export interface UnschedulableCount {
  readonly plugin: string;
  readonly profile: string;
  readonly count: number;
}

/**
 * The scheduler's Prometheus metrics, named as kube-scheduler's so existing dashboards work:
 * queue depth per queue, scheduling attempts by result, and attempt latency, under the Metrics
 * flags (--disabled-metrics, --allow-metric-labels: see MetricsRegistry).
 */
export class SchedulerMetrics {
  readonly registry: MetricsRegistry;
  readonly pendingPods: GaugeMetric<'queue'>;
  readonly scheduleAttempts: CounterMetric<'result' | 'profile'>;
  readonly attemptDuration: HistogramMetric<'result' | 'profile'>;
  readonly e2eDuration: HistogramMetric<'result' | 'profile'>;
  readonly podSchedulingAttempts: HistogramMetric<never>;
  /** The synchronous part of a cycle (filter, score, select) for pods that found a node. */
  readonly algorithmDuration: HistogramMetric<never>;
  readonly extensionPointDuration: HistogramMetric<'extension_point' | 'status' | 'profile'>;
  readonly pluginExecutionDuration: HistogramMetric<'plugin' | 'extension_point' | 'status'>;
  readonly queueIncomingPods: CounterMetric<'queue' | 'event'>;
  readonly preemptionAttempts: CounterMetric<never>;
  readonly preemptionVictims: HistogramMetric<never>;
  readonly unschedulablePods: GaugeMetric<'plugin' | 'profile'>;
  readonly cacheSize: GaugeMetric<'type'>;
  /** The framework's timings, for `Framework.recordMetrics`. */
  readonly framework: FrameworkMetricsSink;
  /** For the preemption plugin (DefaultPreemption): attempts and victims. */
  readonly preemption: PreemptionRecorder;
  /** Read at every scrape: how many pods wait in each queue. */
  private pendingSource: (() => Readonly<Record<PendingQueue, number>>) | undefined;
  private unschedulableSource: (() => Iterable<UnschedulableCount>) | undefined;
  private cacheSource: (() => CacheSizes) | undefined;
  /** Series set at the last scrape, so a plugin no pod waits for any more reads 0, not its old count. */
  private unschedulableSeen = new Map<string, { plugin: string; profile: string }>();
  private readonly incomingChildren = new Map<string, Map<string, CounterChild>>();

  constructor(config: MetricsConfig) {
    const r = (this.registry = new MetricsRegistry(config));
    const buckets = [
      0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512, 1.024, 2.048, 4.096, 8.192,
      16.384,
    ];
    this.pendingPods = r.gauge({
      name: 'scheduler_pending_pods',
      help: "Number of pending pods, by the queue type. 'active' means number of pods in activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable' means number of pods in unschedulablePods that the scheduler attempted to schedule and failed; 'gated' is the number of unschedulable pods that the scheduler never attempted to schedule because they are gated.",
      labelNames: ['queue'],
      collect: () => {
        const counts = this.pendingSource?.();
        for (const queue of PENDING_QUEUES) this.pendingPods.set({ queue }, counts?.[queue] ?? 0);
      },
    });
    this.scheduleAttempts = r.counter({
      name: 'scheduler_schedule_attempts_total',
      help: "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could not be scheduled, while 'error' means an internal scheduler problem.",
      labelNames: ['result', 'profile'],
    });
    this.attemptDuration = r.histogram({
      name: 'scheduler_scheduling_attempt_duration_seconds',
      help: 'Scheduling attempt latency in seconds (scheduling algorithm + binding)',
      labelNames: ['result', 'profile'],
      buckets,
    });
    this.e2eDuration = r.histogram({
      name: 'scheduler_e2e_scheduling_duration_seconds',
      help: "E2e scheduling latency in seconds (from the pod's first scheduling attempt until it is bound)",
      labelNames: ['result', 'profile'],
      buckets,
    });
    this.podSchedulingAttempts = r.histogram({
      name: 'scheduler_pod_scheduling_attempts',
      help: 'Number of attempts to successfully schedule a pod.',
      buckets: [1, 2, 4, 8, 16],
    });
    this.algorithmDuration = r.histogram({
      name: 'scheduler_scheduling_algorithm_duration_seconds',
      help: 'Scheduling algorithm latency in seconds',
      buckets: exponentialBuckets(0.001, 2, 15),
    });
    this.extensionPointDuration = r.histogram({
      name: 'scheduler_framework_extension_point_duration_seconds',
      help: 'Latency for running all plugins of a specific extension point.',
      labelNames: ['extension_point', 'status', 'profile'],
      buckets: exponentialBuckets(0.0001, 2, 12),
    });
    this.pluginExecutionDuration = r.histogram({
      name: 'scheduler_plugin_execution_duration_seconds',
      help: 'Duration for running a plugin at a specific extension point.',
      labelNames: ['plugin', 'extension_point', 'status'],
      buckets: exponentialBuckets(0.00001, 1.5, 20),
    });
    this.queueIncomingPods = r.counter({
      name: 'scheduler_queue_incoming_pods_total',
      help: 'Number of pods added to scheduling queues by event and queue type.',
      labelNames: ['queue', 'event'],
    });
    this.preemptionAttempts = r.counter({
      name: 'scheduler_preemption_attempts_total',
      help: 'Total preemption attempts in the cluster till now',
    });
    this.preemptionVictims = r.histogram({
      name: 'scheduler_preemption_victims',
      help: 'Number of selected preemption victims',
      buckets: exponentialBuckets(1, 2, 7),
    });
    this.unschedulablePods = r.gauge({
      name: 'scheduler_unschedulable_pods',
      help: 'The number of unschedulable pods broken down by plugin name. A pod will increment the gauge for all plugins that caused it to not schedule and so this metric have meaning only when broken down by plugin.',
      labelNames: ['plugin', 'profile'],
      collect: () => this.collectUnschedulable(),
    });
    this.cacheSize = r.gauge({
      name: 'scheduler_scheduler_cache_size',
      help: 'Number of nodes, pods, and assumed (bound) pods in the scheduler cache.',
      labelNames: ['type'],
      collect: () => {
        const sizes = this.cacheSource?.() ?? { nodes: 0, pods: 0, assumed_pods: 0 };
        for (const type of ['assumed_pods', 'pods', 'nodes'] as const)
          this.cacheSize.set({ type }, sizes[type]);
      },
    });
    this.framework = {
      extensionPoint: (point, status, profile) =>
        this.extensionPointDuration.child({ extension_point: point, status, profile }),
      plugin: (plugin, point, status) =>
        this.pluginExecutionDuration.child({ plugin, extension_point: point, status }),
    };
    const attempts = this.preemptionAttempts.child({});
    const victims = this.preemptionVictims.child({});
    this.preemption = {
      attempt: () => attempts.inc(),
      victims: (count) => victims.observe(count),
    };
  }

  /** Where `scheduler_unschedulable_pods` reads its counts from at scrape time. */
  setUnschedulablePodsSource(source: () => Iterable<UnschedulableCount>): void {
    this.unschedulableSource = source;
  }

  /** Where `scheduler_scheduler_cache_size` reads the cache's sizes from at scrape time. */
  setCacheSizeSource(source: () => CacheSizes): void {
    this.cacheSource = source;
  }

  /** One pod entering a queue (the queue's onIncoming); series are kept, so a count allocates nothing. */
  incomingPod(queue: IncomingQueue, event: string): void {
    let byQueue = this.incomingChildren.get(event);
    if (!byQueue) this.incomingChildren.set(event, (byQueue = new Map<string, CounterChild>()));
    let child = byQueue.get(queue);
    if (!child) byQueue.set(queue, (child = this.queueIncomingPods.child({ queue, event })));
    child.inc();
  }

  private collectUnschedulable(): void {
    const seen = new Map<string, { plugin: string; profile: string }>();
    for (const { plugin, profile, count } of this.unschedulableSource?.() ?? []) {
      seen.set(`${plugin}\0${profile}`, { plugin, profile });
      this.unschedulablePods.set({ plugin, profile }, count);
    }
    for (const [key, labels] of this.unschedulableSeen)
      if (!seen.has(key)) this.unschedulablePods.set(labels, 0);
    for (const [key, labels] of seen) this.unschedulableSeen.set(key, labels);
  }

  /** Where `scheduler_pending_pods` reads the queue sizes from at scrape time. */
  setPendingPodsSource(source: () => Readonly<Record<PendingQueue, number>>): void {
    this.pendingSource = source;
  }

  /**
   * One finished attempt (kube's PodScheduled / PodUnschedulable / PodScheduleError): the
   * attempt's latency (cycle plus binding); for a bound pod also the time since its first attempt
   * and how many attempts it took.
   */
  observeAttempt(
    result: AttemptResult,
    profile: string,
    attemptSeconds: number,
    scheduled?: { readonly e2eSeconds: number; readonly attempts: number },
  ): void {
    const labels = { result, profile };
    this.scheduleAttempts.inc(labels);
    this.attemptDuration.observe(labels, attemptSeconds);
    if (scheduled) {
      this.e2eDuration.observe(labels, scheduled.e2eSeconds);
      this.podSchedulingAttempts.observe({}, scheduled.attempts);
    }
  }

  render(): Promise<string> {
    return this.registry.render();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
