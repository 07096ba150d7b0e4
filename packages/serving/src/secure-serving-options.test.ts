import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { SecureServingOptions, type SecureServingConfig, type SecureServingDefaults } from './index.js';

const apiserver: SecureServingDefaults = {
  securePort: 6443,
  certDir: '/var/run/platform',
  allowZeroPort: false,
};
const scheduler: SecureServingDefaults = { securePort: 10259, certDir: '', allowZeroPort: true };

function run(defaults: SecureServingDefaults, argv: string[]) {
  const o = new SecureServingOptions(defaults);
  const fss = new NamedFlagSets('test');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const config: { secureServing?: SecureServingConfig } = {};
  o.applyTo(config);
  return { o, fss, parseErrors: parsed.errors, errors: o.validate(), config: config.secureServing };
}

describe('SecureServingOptions defaults', () => {
  it('API server', () => {
    const { errors, config, fss } = run(apiserver, []);
    expect(errors).toEqual([]);
    expect(config).toEqual({
      bindAddress: '0.0.0.0',
      port: 6443,
      certDir: '/var/run/platform',
      certFile: '',
      keyFile: '',
      cipherSuites: [],
      opensslCiphers: [],
      minVersion: undefined,
      sniCertKeys: [],
      permitPortSharing: false,
      http2MaxStreamsPerConnection: 0,
    });
    expect(fss.sectionTitles()).toEqual(['Secure serving']);
    expect(fss.lookup('secure-port')?.usage).toContain('It cannot be switched off with 0.');
    expect(fss.lookup('cert-dir')?.defaultText).toBe('"/var/run/platform"');
    expect(fss.lookup('bind-address')?.defaultText).toBe('0.0.0.0');
  });

  it('scheduler', () => {
    const { errors, config, fss } = run(scheduler, []);
    expect(errors).toEqual([]);
    expect(config?.port).toBe(10259);
    expect(config?.certDir).toBe('');
    expect(fss.lookup('secure-port')?.usage).toContain("If 0, don't serve HTTPS at all.");
    expect(fss.lookup('cert-dir')?.defaultText).toBe('');
  });

  it('registers exactly the serving flags', () => {
    const { fss } = run(apiserver, []);
    expect(fss.all().map((f) => f.name)).toEqual([
      'bind-address',
      'secure-port',
      'cert-dir',
      'tls-cert-file',
      'tls-private-key-file',
      'tls-cipher-suites',
      'tls-min-version',
      'tls-sni-cert-key',
      'permit-address-sharing',
      'permit-port-sharing',
      'http2-max-streams-per-connection',
    ]);
  });
});

describe('SecureServingOptions parsing', () => {
  it.each<[string, string[], Partial<SecureServingConfig>]>([
    ['bind-address', ['--bind-address', '127.0.0.1'], { bindAddress: '127.0.0.1' }],
    ['bind-address IPv6', ['--bind-address=::1'], { bindAddress: '::1' }],
    ['blank bind-address', ['--bind-address='], { bindAddress: '0.0.0.0' }],
    ['secure-port', ['--secure-port', '8443'], { port: 8443 }],
    ['cert-dir', ['--cert-dir', '/tmp/certs'], { certDir: '/tmp/certs' }],
    [
      'cert and key',
      ['--tls-cert-file', '/c.pem', '--tls-private-key-file', '/k.pem'],
      { certFile: '/c.pem', keyFile: '/k.pem' },
    ],
    [
      'cipher suites map to OpenSSL names in order',
      [
        '--tls-cipher-suites',
        'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_AES_128_GCM_SHA256',
        '--tls-cipher-suites=TLS_RSA_WITH_RC4_128_SHA',
      ],
      {
        cipherSuites: [
          'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
          'TLS_AES_128_GCM_SHA256',
          'TLS_RSA_WITH_RC4_128_SHA',
        ],
        opensslCiphers: ['ECDHE-RSA-AES128-GCM-SHA256', 'TLS_AES_128_GCM_SHA256', 'RC4-SHA'],
      },
    ],
    ['tls 1.0', ['--tls-min-version', 'VersionTLS10'], { minVersion: 'TLSv1' }],
    ['tls 1.1', ['--tls-min-version', 'VersionTLS11'], { minVersion: 'TLSv1.1' }],
    ['tls 1.2', ['--tls-min-version', 'VersionTLS12'], { minVersion: 'TLSv1.2' }],
    ['tls 1.3', ['--tls-min-version', 'VersionTLS13'], { minVersion: 'TLSv1.3' }],
    [
      'sni is repeatable',
      ['--tls-sni-cert-key', 'a.crt,a.key', '--tls-sni-cert-key', 'b.crt,b.key:*.b.com,b.com'],
      {
        sniCertKeys: [
          { certFile: 'a.crt', keyFile: 'a.key', names: [] },
          { certFile: 'b.crt', keyFile: 'b.key', names: ['*.b.com', 'b.com'] },
        ],
      },
    ],
    ['port sharing', ['--permit-port-sharing=true'], { permitPortSharing: true }],
  ])('%s', (_name, argv, expected) => {
    const { parseErrors, errors, config } = run(apiserver, argv);
    expect(parseErrors).toEqual([]);
    expect(errors).toEqual([]);
    expect(config).toMatchObject(expected);
  });

  it.each([
    [
      ['--bind-address', 'not-an-ip'],
      'invalid argument "not-an-ip" for "--bind-address" flag: failed to parse IP: "not-an-ip"',
    ],
    [
      ['--secure-port', 'x'],
      'invalid argument "x" for "--secure-port" flag: strconv.ParseInt: parsing "x": invalid syntax',
    ],
    [
      ['--tls-sni-cert-key', 'only-one'],
      'invalid argument "only-one" for "--tls-sni-cert-key" flag: expected comma separated certificate and key file paths',
    ],
  ])('rejects %j at parse time', (argv, message) => {
    expect(run(apiserver, argv).parseErrors).toEqual([message]);
  });
});

describe('SecureServingOptions validation', () => {
  it.each<[string, SecureServingDefaults, string[], string[]]>([
    [
      'port 0 on the API server',
      apiserver,
      ['--secure-port', '0'],
      ['--secure-port 0 must be between 1 and 65535, inclusive'],
    ],
    ['port 0 on the scheduler', scheduler, ['--secure-port', '0'], []],
    [
      'negative port on the scheduler',
      scheduler,
      ['--secure-port', '-1'],
      ['--secure-port -1 must be between 0 and 65535, inclusive'],
    ],
    [
      'port too high',
      apiserver,
      ['--secure-port', '65536'],
      ['--secure-port 65536 must be between 1 and 65535, inclusive'],
    ],
    ['highest port', apiserver, ['--secure-port', '65535'], []],
    [
      'cert without key',
      apiserver,
      ['--tls-cert-file', 'c'],
      ['--tls-private-key-file is required when --tls-cert-file is set'],
    ],
    [
      'key without cert',
      apiserver,
      ['--tls-private-key-file', 'k'],
      ['--tls-cert-file is required when --tls-private-key-file is set'],
    ],
    [
      'unknown ciphers, one line each',
      apiserver,
      ['--tls-cipher-suites', 'FOO,TLS_AES_128_GCM_SHA256,ECDHE-RSA-AES128-GCM-SHA256'],
      [
        '--tls-cipher-suites: unknown cipher suite name "FOO"',
        '--tls-cipher-suites: unknown cipher suite name "ECDHE-RSA-AES128-GCM-SHA256"',
      ],
    ],
    ['legacy CHACHA20 name', apiserver, ['--tls-cipher-suites', 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305'], []],
    [
      'unknown TLS version',
      apiserver,
      ['--tls-min-version', 'VersionTLS14'],
      [
        '--tls-min-version "VersionTLS14" is not supported; supported values: "VersionTLS10", "VersionTLS11", "VersionTLS12", "VersionTLS13"',
      ],
    ],
    [
      'Node spelling of a TLS version',
      apiserver,
      ['--tls-min-version', 'TLSv1.2'],
      [
        '--tls-min-version "TLSv1.2" is not supported; supported values: "VersionTLS10", "VersionTLS11", "VersionTLS12", "VersionTLS13"',
      ],
    ],
    [
      'SNI without a key path',
      apiserver,
      ['--tls-sni-cert-key', 'a.crt,:a.com'],
      ['--tls-sni-cert-key "a.crt,:a.com" must name both a certificate file and a key file'],
    ],
    [
      'SNI without a cert path',
      apiserver,
      ['--tls-sni-cert-key', ',a.key'],
      ['--tls-sni-cert-key ",a.key" must name both a certificate file and a key file'],
    ],
    [
      'negative http2 streams',
      apiserver,
      ['--http2-max-streams-per-connection', '-1'],
      ['--http2-max-streams-per-connection must not be negative, got -1'],
    ],
    [
      'every problem at once',
      apiserver,
      ['--secure-port', '0', '--tls-cert-file', 'c', '--tls-cipher-suites', 'BAR', '--tls-min-version', 'x'],
      [
        '--secure-port 0 must be between 1 and 65535, inclusive',
        '--tls-private-key-file is required when --tls-cert-file is set',
        '--tls-cipher-suites: unknown cipher suite name "BAR"',
        '--tls-min-version "x" is not supported; supported values: "VersionTLS10", "VersionTLS11", "VersionTLS12", "VersionTLS13"',
      ],
    ],
  ])('%s', (_name, defaults, argv, expected) => {
    const { parseErrors, errors } = run(defaults, argv);
    expect(parseErrors).toEqual([]);
    expect(errors).toEqual(expected);
  });

  it('warns about insecure suites only', () => {
    const { o } = run(apiserver, [
      '--tls-cipher-suites',
      'TLS_RSA_WITH_RC4_128_SHA,TLS_AES_128_GCM_SHA256,FOO',
    ]);
    expect(o.warnings()).toEqual(["Use of insecure cipher 'TLS_RSA_WITH_RC4_128_SHA' detected."]);
  });

  it('does not mutate while validating', () => {
    const { o } = run(apiserver, ['--bind-address=', '--tls-cipher-suites', 'FOO']);
    o.validate();
    expect(o.bindAddress).toBe('');
    expect(o.tlsCipherSuites).toEqual(['FOO']);
  });
});
