export { runNode, DaemonProcess, type ProcessResult } from './process.js';
export { specOptions, specOptionsPath } from './spec-options.js';
export { freePort, startRedisServer, type RedisServer, type RedisServerOptions } from './redis-server.js';
export {
  parseClusterNodes,
  startRedisCluster,
  type ClusterNodeInfo,
  type RedisCluster,
  type RedisClusterOptions,
} from './redis-cluster.js';
export {
  TestApiServer,
  apiServerEntry,
  schedulerEntry,
  ADMIN_TOKEN,
  USER_TOKEN,
  type ApiResponse,
  type RequestOptions,
} from './api-server.js';
export { TestPKI, type TestCert, type LeafSpec } from './pki.js';
export { writeKubeconfig, type ClientCertCredential } from './kubeconfig.js';
export {
  TestWebhookServer,
  writeWebhookConfig,
  reviewWith,
  type WebhookAnswer,
  type WebhookCall,
} from './webhook-server.js';
export { TestOIDCIssuer, signToken, type IssuerKey } from './oidc-issuer.js';
export { signJwt } from './jwt.js';
export { flagEffectsProblems } from './flag-effects.js';
export { TestOtlpCollector, type CollectedSpan } from './otlp-collector.js';
export { TestConnectProxy, type ConnectProxyOptions, type Tunnel } from './connect-proxy.js';
export { startDurableRedis, type DurableRedis, type DurableRedisOptions } from './durable-redis.js';
export { WatchReader, type WatchReaderEvent } from './watch-reader.js';
export {
  WriteLoad,
  holdRequest,
  type HeldRequest,
  type HeldResponse,
  type WriteLoadOptions,
  type WriteOutcome,
  type WriteRecord,
} from './write-load.js';
export { http2Request, http2Session, http2Watch, type Http2Reply, type Http2Watch } from './http2-client.js';
export {
  SchedulerCluster,
  FAST_ELECTION,
  eventually,
  scheduledCounts,
  type SchedulerEvent,
  type SchedulerLease,
  type SchedulerPod,
} from './scheduler-cluster.js';
