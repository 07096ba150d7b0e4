export { ApiServerMetrics, type InFlightCounts, type RequestLabel } from './apiserver-metrics.js';
export { withRequestMetrics } from './request-metrics-filter.js';
export { metricsHandler } from './metrics-handler.js';
export { pollStorageObjects, storedResources, type CountedResource } from './storage-objects.js';
export { pollStorageSize, storeEndpoint } from './storage-size.js';
export { ServerAdmissionMetrics } from './admission-metrics.js';
export { ServerAuditMetrics } from './audit-metrics.js';
export { WatchEventMetrics, type WatchEventRecorder } from './watch-metrics.js';
export { FlowControlMetrics } from './flowcontrol-metrics.js';
