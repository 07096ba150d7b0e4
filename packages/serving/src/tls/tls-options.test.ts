import { DEFAULT_CIPHERS } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { discardLogger } from '@keel/log';
import { createSecureServer, type SecureServer } from '../secure-server.js';
import { handshake } from '../testing/client.js';
import { configFromFlags, servingConfig } from '../testing/config.js';
import { recordingLogger } from '../testing/logger.js';
import { testCA } from '../testing/pki.js';
import { serverTlsOptions } from './tls-options.js';

const servers: SecureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function listen(argv: string[]): Promise<number> {
  const server = createSecureServer({
    config: configFromFlags(argv),
    handler: (_q, r) => r.end(),
    logger: discardLogger,
  });
  servers.push(server);
  return (await server.listen()).port;
}

describe('serverTlsOptions', () => {
  it.each([
    ['nothing set: Node defaults', [], {}],
    ['min version', ['--tls-min-version=VersionTLS13'], { minVersion: 'TLSv1.3' }],
    [
      'Go names become OpenSSL names, duplicates folded',
      [
        '--tls-cipher-suites=TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,TLS_AES_128_GCM_SHA256',
      ],
      { ciphers: 'ECDHE-RSA-CHACHA20-POLY1305:TLS_AES_128_GCM_SHA256' },
    ],
    [
      'TLS 1.0 lowers the OpenSSL security level',
      ['--tls-min-version=VersionTLS10'],
      { minVersion: 'TLSv1', ciphers: `${DEFAULT_CIPHERS}:@SECLEVEL=0` },
    ],
    [
      'TLS 1.1 with a list',
      ['--tls-min-version=VersionTLS11', '--tls-cipher-suites=TLS_RSA_WITH_AES_128_CBC_SHA'],
      { minVersion: 'TLSv1.1', ciphers: 'AES128-SHA:@SECLEVEL=0' },
    ],
    [
      'TLS 1.0 with only TLS 1.3 suites needs no lowering',
      ['--tls-min-version=VersionTLS10', '--tls-cipher-suites=TLS_AES_128_GCM_SHA256'],
      { minVersion: 'TLSv1', ciphers: 'TLS_AES_128_GCM_SHA256' },
    ],
  ])('%s', (_name, argv, want) => {
    expect(serverTlsOptions(configFromFlags(argv))).toEqual({
      requestCert: false,
      rejectUnauthorized: false,
      ...want,
    });
  });

  it('requests (never requires) client certificates when given a client CA', async () => {
    const ca = (await testCA()).certPem;
    expect(serverTlsOptions(servingConfig(), ca)).toEqual({
      ca,
      requestCert: true,
      rejectUnauthorized: false,
    });
  });

  it.each([
    [
      'a cipher list this OpenSSL cannot use',
      () =>
        serverTlsOptions(
          configFromFlags(['--tls-cipher-suites=TLS_RSA_WITH_RC4_128_SHA,TLS_ECDHE_RSA_WITH_RC4_128_SHA']),
        ),
      `--tls-cipher-suites: none of the suites can be used with this runtime's TLS library (OpenSSL ${process.versions.openssl}): ` +
        'error:0A0000B9:SSL routines::no cipher match',
    ],
    [
      'a client CA without certificates',
      () => serverTlsOptions(servingConfig(), 'junk'),
      'the client CA bundle contains no certificates',
    ],
  ])('fails start-up with one line for %s', (_name, fn, message) => {
    expect(fn).toThrow(message);
  });
});

describe('TLS settings over real TLS', () => {
  it.each([
    [
      'min TLS 1.3 refuses a TLS 1.2 client',
      ['--tls-min-version=VersionTLS13'],
      { maxVersion: 'TLSv1.2' },
      'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
    ],
    ['min TLS 1.3 serves a TLS 1.3 client', ['--tls-min-version=VersionTLS13'], {}, 'TLSv1.3'],
    [
      'the default (TLS 1.2) refuses a TLS 1.1 client',
      [],
      { maxVersion: 'TLSv1.1', minVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' },
      'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
    ],
    [
      'min TLS 1.0 really serves TLS 1.0',
      ['--tls-min-version=VersionTLS10'],
      { maxVersion: 'TLSv1', minVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' },
      'TLSv1',
    ],
  ] as const)('%s', async (_name, argv, client, want) => {
    const port = await listen([...argv]);
    const res = await handshake(port, client);
    expect(res.ok ? res.protocol : res.code).toBe(want);
  });

  const ecdsaAes128 = '--tls-cipher-suites=TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256';
  it.each([
    [
      'an allowed TLS 1.2 suite is negotiated',
      [ecdsaAes128],
      { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256' },
      'ECDHE-ECDSA-AES128-GCM-SHA256',
    ],
    [
      'a TLS 1.2 suite not in the list fails the handshake',
      [ecdsaAes128],
      { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES256-GCM-SHA384' },
      'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
    ],
    [
      'a list without TLS 1.3 names leaves TLS 1.3 open, as Go does',
      [ecdsaAes128],
      { ciphers: 'TLS_AES_256_GCM_SHA384' },
      'TLS_AES_256_GCM_SHA384',
    ],
    [
      'TLS 1.3 names in the list restrict TLS 1.3 too',
      [`${ecdsaAes128},TLS_AES_128_GCM_SHA256`],
      { ciphers: 'TLS_AES_256_GCM_SHA384' },
      'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
    ],
    [
      'an allowed TLS 1.3 suite is negotiated',
      [`${ecdsaAes128},TLS_AES_128_GCM_SHA256`],
      { ciphers: 'TLS_AES_128_GCM_SHA256' },
      'TLS_AES_128_GCM_SHA256',
    ],
    [
      'only TLS 1.3 suites refuse TLS 1.2',
      ['--tls-cipher-suites=TLS_AES_128_GCM_SHA256'],
      { maxVersion: 'TLSv1.2' },
      'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
    ],
  ] as const)('%s', async (_name, argv, client, want) => {
    const port = await listen([...argv]);
    const res = await handshake(port, client);
    expect(res.ok ? res.cipher : res.code).toBe(want);
  });

  it('warns when no configured TLS 1.2 suite fits the ECDSA self-signed key', async () => {
    const logger = recordingLogger();
    const server = createSecureServer({
      config: configFromFlags(['--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256']),
      handler: (_q, r) => r.end(),
      logger,
    });
    servers.push(server);
    await server.listen();
    expect(logger.lines.filter((l) => l.level === 'warning').map((l) => l.msg)).toEqual([
      "none of the TLS 1.2 cipher suites in --tls-cipher-suites works with the serving certificate's ECDSA key; " +
        'only TLS 1.3 clients will be able to connect',
    ]);
  });
});
