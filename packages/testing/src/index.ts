export { runNode, DaemonProcess, type ProcessResult } from './process.js';
export { specOptions, specOptionsPath } from './spec-options.js';
export { freePort, startRedisServer, type RedisServer, type RedisServerOptions } from './redis-server.js';
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
export { writeKubeconfig } from './kubeconfig.js';
export { signJwt } from './jwt.js';
