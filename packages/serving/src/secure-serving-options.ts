import type { SecureVersion } from 'node:tls';
import {
  checkNonNegative,
  checkOneOf,
  checkPaired,
  checkPort,
  flagTypes as t,
  type NamedCertKey,
  type NamedFlagSets,
  type OptionsGroup,
} from '@keel/flags';
import { insecureCipherNames, lookupCipherSuite, preferredCipherNames } from './cipher-suites.js';

/** --tls-min-version values and the Node `minVersion` each stands for. */
const TLS_VERSIONS: ReadonlyMap<string, SecureVersion> = new Map([
  ['VersionTLS10', 'TLSv1'],
  ['VersionTLS11', 'TLSv1.1'],
  ['VersionTLS12', 'TLSv1.2'],
  ['VersionTLS13', 'TLSv1.3'],
]);

/** How the HTTPS listener is set up; derived defaults are filled in. */
export interface SecureServingConfig {
  /** Never blank: a blank --bind-address means all interfaces, 0.0.0.0. */
  readonly bindAddress: string;
  /** 0 means the daemon serves no HTTPS at all (only allowed where the daemon permits it). */
  readonly port: number;
  /** Where a self-signed pair is written when no certificate files are given. */
  readonly certDir: string;
  readonly certFile: string;
  readonly keyFile: string;
  /** Go names as given; empty means the runtime's default suites. */
  readonly cipherSuites: readonly string[];
  /** The same suites by their OpenSSL names, in the same order, for Node's `ciphers` option. */
  readonly opensslCiphers: readonly string[];
  /** Node's name for the minimum version, or undefined for Node's default. */
  readonly minVersion: SecureVersion | undefined;
  readonly sniCertKeys: readonly NamedCertKey[];
  readonly permitPortSharing: boolean;
  /** --http2-max-streams-per-connection; 0 means the default (see http2/settings.ts). */
  readonly http2MaxStreamsPerConnection: number;
}

/** What differs between the daemons: the API server must serve HTTPS, the scheduler may not. */
export interface SecureServingDefaults {
  readonly securePort: number;
  readonly certDir: string;
  /** Whether --secure-port 0 (serve no HTTPS) is accepted. */
  readonly allowZeroPort: boolean;
}

/** The 'Secure serving' flags shared by both daemons (k8s.io/apiserver SecureServingOptions). */
export class SecureServingOptions implements OptionsGroup<{ secureServing?: SecureServingConfig }> {
  bindAddress = '0.0.0.0';
  securePort: number;
  certDir: string;
  tlsCertFile = '';
  tlsPrivateKeyFile = '';
  tlsCipherSuites: readonly string[] = [];
  tlsMinVersion = '';
  tlsSniCertKeys: readonly NamedCertKey[] = [];
  permitPortSharing = false;
  // Parsed only: what these two mean in Keel (nothing, refused) is in SECURE_SERVING_FLAG_EFFECTS.
  permitAddressSharing = false;
  http2MaxStreamsPerConnection = 0;

  private readonly allowZeroPort: boolean;

  constructor(defaults: SecureServingDefaults) {
    this.securePort = defaults.securePort;
    this.certDir = defaults.certDir;
    this.allowZeroPort = defaults.allowZeroPort;
  }

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Secure serving');
    s.var(this, 'bindAddress', {
      name: 'bind-address',
      type: t.ip,
      usage:
        'The IP address on which to listen for the --secure-port port. The associated interface(s) must be reachable by ' +
        'the rest of the cluster, and by CLI/web clients. If blank or an unspecified address (0.0.0.0 or ::), all ' +
        'interfaces and IP address families will be used.',
    });
    s.var(this, 'securePort', {
      name: 'secure-port',
      type: t.int,
      usage:
        'The port on which to serve HTTPS with authentication and authorization.' +
        (this.allowZeroPort ? " If 0, don't serve HTTPS at all." : ' It cannot be switched off with 0.'),
    });
    s.var(this, 'certDir', {
      name: 'cert-dir',
      type: t.string,
      usage:
        'The directory where the TLS certs are located. If --tls-cert-file and --tls-private-key-file are provided, ' +
        'this flag will be ignored.',
    });
    s.var(this, 'tlsCertFile', {
      name: 'tls-cert-file',
      type: t.string,
      usage:
        'File containing the default x509 Certificate for HTTPS. (CA cert, if any, concatenated after server cert). ' +
        'If HTTPS serving is enabled, and --tls-cert-file and --tls-private-key-file are not provided, a self-signed ' +
        'certificate and key are generated for the public address and saved to the directory specified by --cert-dir.',
    });
    s.var(this, 'tlsPrivateKeyFile', {
      name: 'tls-private-key-file',
      type: t.string,
      usage: 'File containing the default x509 private key matching --tls-cert-file.',
    });
    s.var(this, 'tlsCipherSuites', {
      name: 'tls-cipher-suites',
      type: t.strings,
      usage:
        'Comma-separated list of cipher suites for the server. If omitted, the default cipher suites will be used.\n' +
        `Preferred values: ${preferredCipherNames.join(', ')}.\n` +
        `Insecure values: ${insecureCipherNames.join(', ')}.`,
    });
    s.var(this, 'tlsMinVersion', {
      name: 'tls-min-version',
      type: t.string,
      usage: `Minimum TLS version supported. Possible values: ${[...TLS_VERSIONS.keys()].join(', ')}`,
    });
    s.var(this, 'tlsSniCertKeys', {
      name: 'tls-sni-cert-key',
      type: t.namedCertKey,
      usage:
        'A pair of x509 certificate and private key file paths, optionally suffixed with a list of domain patterns ' +
        'which are fully qualified domain names, possibly with prefixed wildcard segments. The domain patterns also ' +
        'allow IP addresses, but IPs should only be used if the server has visibility to the IP address requested by ' +
        'a client. If no domain patterns are provided, the names of the certificate are extracted. Non-wildcard ' +
        'matches trump over wildcard matches, explicit domain patterns trump over extracted names. For multiple ' +
        'key/certificate pairs, use the --tls-sni-cert-key multiple times. Examples: "example.crt,example.key" or ' +
        '"foo.crt,foo.key:*.foo.com,foo.com".',
    });
    s.var(this, 'permitAddressSharing', {
      name: 'permit-address-sharing',
      type: t.bool,
      usage:
        'If true, SO_REUSEADDR will be used when binding the port. This allows binding to wildcard IPs like 0.0.0.0 ' +
        'and specific IPs in parallel, and it avoids waiting for the kernel to release sockets in TIME_WAIT state. ' +
        '[default=false]',
    });
    s.var(this, 'permitPortSharing', {
      name: 'permit-port-sharing',
      type: t.bool,
      usage:
        'If true, SO_REUSEPORT will be used when binding the port, which allows more than one instance to bind on the ' +
        'same address and port. [default=false]',
    });
    s.var(this, 'http2MaxStreamsPerConnection', {
      name: 'http2-max-streams-per-connection',
      type: t.int,
      usage:
        'The limit that the server gives to clients for the maximum number of streams in an HTTP/2 connection. Zero ' +
        "means to use the runtime's default.",
    });
  }

  validate(): string[] {
    const errors = [
      ...checkPort('secure-port', this.securePort, { allowZero: this.allowZeroPort }),
      ...checkPaired(['tls-cert-file', this.tlsCertFile], ['tls-private-key-file', this.tlsPrivateKeyFile]),
      ...this.tlsCipherSuites
        .filter((name) => lookupCipherSuite(name) === undefined)
        .map((name) => `--tls-cipher-suites: unknown cipher suite name ${JSON.stringify(name)}`),
      ...checkNonNegative('http2-max-streams-per-connection', this.http2MaxStreamsPerConnection),
    ];
    if (this.tlsMinVersion !== '')
      errors.push(...checkOneOf('tls-min-version', this.tlsMinVersion, [...TLS_VERSIONS.keys()]));
    for (const e of this.tlsSniCertKeys) {
      if (e.certFile === '' || e.keyFile === '') {
        errors.push(
          `--tls-sni-cert-key ${JSON.stringify(formatSni(e))} must name both a certificate file and a key file`,
        );
      }
    }
    return errors;
  }

  /** One line per insecure suite in use, as the real daemons log them at start-up. */
  warnings(): string[] {
    return this.tlsCipherSuites
      .filter((name) => lookupCipherSuite(name)?.insecure === true)
      .map((name) => `Use of insecure cipher '${name}' detected.`);
  }

  applyTo(config: { secureServing?: SecureServingConfig }): void {
    config.secureServing = {
      bindAddress: this.bindAddress === '' ? '0.0.0.0' : this.bindAddress,
      port: this.securePort,
      certDir: this.certDir,
      certFile: this.tlsCertFile,
      keyFile: this.tlsPrivateKeyFile,
      cipherSuites: [...this.tlsCipherSuites],
      opensslCiphers: this.tlsCipherSuites.map((name) => lookupCipherSuite(name)?.openssl ?? name),
      minVersion: TLS_VERSIONS.get(this.tlsMinVersion),
      sniCertKeys: this.tlsSniCertKeys.map((e) => ({ ...e, names: [...e.names] })),
      permitPortSharing: this.permitPortSharing,
      http2MaxStreamsPerConnection: this.http2MaxStreamsPerConnection,
    };
  }
}

function formatSni(e: NamedCertKey): string {
  return `${e.certFile},${e.keyFile}${e.names.length > 0 ? ':' + e.names.join(',') : ''}`;
}
