export { DEFAULT_ENDPOINT, loadTracingConfig, parseTracingConfig, type TracingConfig } from './config.js';
export { startTracing, type TracingIdentity } from './provider.js';
export { inSpan, tracingEnabled } from './spans.js';
export { startRequestSpan, type RequestSpan } from './request.js';
