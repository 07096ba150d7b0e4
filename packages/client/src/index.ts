export {
  loadConnectionConfig,
  connectionFromUrl,
  ConnectionConfigError,
  type Connection,
  type LoadConnectionOptions,
} from './connection-config.js';
export {
  RestClient,
  patchMediaTypes,
  defaultUserAgent,
  type PatchType,
  type CallOptions,
  type ListOptions,
  type WriteOptions,
  type PatchOptions,
  type DeleteOptions,
  type RequestOptions,
  type RestClientOptions,
} from './rest-client.js';
export { NetworkError, errorFromResponse } from './errors.js';
export {
  TokenBucketRateLimiter,
  newRateLimiter,
  realClock,
  type RateLimiter,
  type Clock,
} from './rate-limiter.js';
export {
  watch,
  parseWatchStream,
  type WatchEvent,
  type WatchEventType,
  type WatchOptions,
  type StreamSource,
} from './watch.js';
export { createInformer, type Informer, type InformerHandlers, type InformerOptions } from './informer.js';
export { Backoff, type BackoffOptions } from './backoff.js';
export { objectKey, type KubeObject, type KubeList, type ObjectMeta, type ListMeta } from './types.js';
export { preloadTransport, Transport } from './transport.js';
export { dialingHttpsAgent, type Dialer } from './dial-connector.js';
export type { Query, QueryValue, StreamResponse } from './transport.js';
