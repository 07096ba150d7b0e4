export {
  MetricsOptions,
  type MetricLabelAllowList,
  type MetricsConfig,
  type PlatformVersion,
} from './metrics-options.js';
export {
  MetricsRegistry,
  UNEXPECTED_LABEL_VALUE,
  type CounterChild,
  type CounterMetric,
  type GaugeMetric,
  type HistogramChild,
  type HistogramMetric,
  type Labels,
} from './registry.js';
export { METRICS_FLAG_EFFECTS } from './flag-effects.js';
