export {
  MetricsOptions,
  type MetricLabelAllowList,
  type MetricsConfig,
  type PlatformVersion,
} from './metrics-options.js';
