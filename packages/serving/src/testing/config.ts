import { NamedFlagSets, parseArgs } from '@keel/flags';
import { SecureServingOptions, type SecureServingConfig } from '../secure-serving-options.js';

/** A listener on 127.0.0.1, ephemeral port, self-signed in memory. */
export function servingConfig(overrides: Partial<SecureServingConfig> = {}): SecureServingConfig {
  return {
    bindAddress: '127.0.0.1',
    port: 0,
    certDir: '',
    certFile: '',
    keyFile: '',
    cipherSuites: [],
    opensslCiphers: [],
    minVersion: undefined,
    sniCertKeys: [],
    permitPortSharing: false,
    http2MaxStreamsPerConnection: 0,
    ...overrides,
  };
}

/** The config the flags produce (scheduler-style defaults: port 0 allowed), bound to 127.0.0.1. */
export function configFromFlags(argv: readonly string[]): SecureServingConfig {
  const o = new SecureServingOptions({ securePort: 0, certDir: '', allowZeroPort: true });
  const fss = new NamedFlagSets('test');
  o.addFlags(fss);
  const parsed = parseArgs(fss, ['--bind-address=127.0.0.1', ...argv]);
  const errors = [...parsed.errors, ...o.validate()];
  if (errors.length > 0) throw new Error(errors.join('\n'));
  const c: { secureServing?: SecureServingConfig } = {};
  o.applyTo(c);
  return c.secureServing!;
}
