import { Code, type MaybeStatus } from './status.js';

/** kube's extension_point label values (pkg/scheduler/metrics) for the points Keel runs. */
export type ExtensionPointLabel =
  | 'PreFilter'
  | 'Filter'
  | 'PostFilter'
  | 'PreScore'
  | 'Score'
  | 'ScoreExtensionNormalize'
  | 'Reserve'
  | 'Unreserve'
  | 'Permit'
  | 'PreBind'
  | 'Bind'
  | 'PostBind';

/** One histogram series, its labels fixed. */
export interface DurationSeries {
  observe(seconds: number): void;
}

/** Where the framework's timings go: the scheduler's metrics, or nowhere. */
export interface FrameworkMetricsSink {
  /** scheduler_framework_extension_point_duration_seconds{extension_point,status,profile}. */
  extensionPoint(point: ExtensionPointLabel, status: Code, profile: string): DurationSeries;
  /** scheduler_plugin_execution_duration_seconds{plugin,extension_point,status}. */
  plugin(plugin: string, point: ExtensionPointLabel, status: Code): DurationSeries;
}

/** kube's pluginMetricsSamplePercent: plugin durations are recorded in this share of cycles. */
export const PLUGIN_METRICS_SAMPLE_PERCENT = 10;

/**
 * In a sampled cycle, Filter and Score calls are timed on this many nodes only (kube times them on
 * every node). Each observation is still one call, so the histogram keeps kube's meaning; timing
 * all of 1,000 nodes made a sampled cycle about ten times as costly as an unsampled one in
 * JavaScript (two clock reads and a prom-client observation per plugin per node).
 */
export const PLUGIN_METRICS_NODES_PER_CYCLE = 16;

const codeOf = (s: MaybeStatus): Code => (s ? s.code : Code.Success);

/**
 * One profile's timings. Series are looked up in nested maps keyed by strings the framework
 * already holds (point, plugin name, code), so recording allocates nothing once a series exists;
 * callers pass a start time from performance.now() rather than a closure.
 */
export class FrameworkRecorder {
  private readonly points = new Map<string, Map<Code, DurationSeries>>();
  private readonly plugins = new Map<string, Map<string, Map<Code, DurationSeries>>>();

  constructor(
    private readonly sink: FrameworkMetricsSink | undefined,
    private readonly profile: string,
  ) {}

  /** Records the time since `startMs` for a whole extension point that ended with `status`. */
  observePoint(point: ExtensionPointLabel, status: MaybeStatus, startMs: number): void {
    if (!this.sink) return;
    const code = codeOf(status);
    let byCode = this.points.get(point);
    if (!byCode) this.points.set(point, (byCode = new Map<Code, DurationSeries>()));
    let series = byCode.get(code);
    if (!series) byCode.set(code, (series = this.sink.extensionPoint(point, code, this.profile)));
    series.observe((performance.now() - startMs) / 1000);
  }

  /** Records one plugin call (only in sampled cycles: see CycleState.recordPluginMetrics). */
  observePlugin(plugin: string, point: ExtensionPointLabel, status: MaybeStatus, startMs: number): void {
    if (!this.sink) return;
    const code = codeOf(status);
    let byPoint = this.plugins.get(plugin);
    if (!byPoint) this.plugins.set(plugin, (byPoint = new Map<string, Map<Code, DurationSeries>>()));
    let byCode = byPoint.get(point);
    if (!byCode) byPoint.set(point, (byCode = new Map<Code, DurationSeries>()));
    let series = byCode.get(code);
    if (!series) byCode.set(code, (series = this.sink.plugin(plugin, point, code)));
    series.observe((performance.now() - startMs) / 1000);
  }
}
