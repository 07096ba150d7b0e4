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
