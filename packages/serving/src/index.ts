export {
  SecureServingOptions,
  type SecureServingConfig,
  type SecureServingDefaults,
} from './secure-serving-options.js';
export {
  cipherSuites,
  goToOpensslCipher,
  insecureCipherNames,
  lookupCipherSuite,
  preferredCipherNames,
  type CipherSuite,
} from './cipher-suites.js';
export {
  createSecureServer,
  SecureServer,
  type ListeningAddress,
  type SecureServerOptions,
  type ServingCertificate,
} from './secure-server.js';
export {
  Drainer,
  type DrainerOptions,
  type RequestHandler,
  type ShutdownOptions,
  type ShutdownResult,
} from './drain.js';
export {
  refuseWithRetryAfter,
  retryAfterExemption,
  writeRetryAfter,
  RETRY_AFTER_SECONDS,
  SHUTDOWN_MESSAGE,
} from './retry-after.js';
export { ServingError } from './errors.js';
export {
  apiserverCertFileNames,
  ensureSelfSignedCert,
  pairFileNames,
  selfSignedHosts,
  type EnsureSelfSignedOptions,
  type SelfSignedCert,
  type SelfSignedFileNames,
  type SelfSignedHostsInput,
} from './tls/self-signed.js';
export { prepareSelfSigned } from './tls/prepare.js';
export {
  buildNameMap,
  extractNames,
  loadSniCertificates,
  lookupName,
  sniCallback,
  type SniCertificate,
} from './tls/sni.js';
export {
  cipherKeyMismatch,
  contextOptions,
  readCABundle,
  serverTlsOptions,
  type ServerTlsOptions,
} from './tls/tls-options.js';
export { peerIdentity, type PeerIdentity, type PeerIdentityError } from './tls/peer-identity.js';
export {
  certificateNames,
  parseCertKeyPair,
  readCertKeyFiles,
  type CertKeyPair,
  type CertificateNames,
} from './tls/cert-key.js';
export { SECURE_SERVING_FLAG_EFFECTS } from './flag-effects.js';
export { adaptHttp2Exchange, http2SessionOf, isHttp2Request } from './http2/exchange.js';
export {
  http1Classes,
  http2Compatible,
  type Http1Classes,
  type PrototypeSwappingApp,
} from './http2/express-bridge.js';
export { DEFAULT_MAX_CONCURRENT_STREAMS, HTTP2_IDLE_TIMEOUT_MS } from './http2/settings.js';
