export { EXTENDER_NAME, Extenders, extenderNodeScore, withExtenderIgnoredResources } from './extenders.js';
export type { ExtenderBindResult, ExtenderFilterPass } from './extenders.js';
export { HTTPExtender, type ExtenderBinding, type ExtenderFilterOutcome } from './http-extender.js';
export { DEFAULT_EXTENDER_TIMEOUT_MS } from './transport.js';
export { MAX_EXTENDER_PRIORITY, type HostPriority, type Victims } from './wire.js';
