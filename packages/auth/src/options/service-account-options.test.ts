import { describe, expect, it } from 'vitest';
import { Duration } from '@keel/flags';
import { withServiceAccountKeyFallback } from '../index.js';
import { SIGNING_ARGS as SIGNING, runAuthentication as run } from '../testing/run-authentication.js';

describe('service account options', () => {
  it.each<[string, string[], Record<string, unknown>]>([
    [
      'explicit audiences win over issuers',
      ['--api-audiences', 'a,b', ...SIGNING],
      { apiAudiences: ['a', 'b'] },
    ],
    [
      'audiences default to every issuer',
      ['--service-account-issuer', 'https://one', '--service-account-issuer', 'https://two'],
      { apiAudiences: ['https://one', 'https://two'] },
    ],
    [
      'service account flags',
      [
        ...SIGNING,
        '--service-account-key-file',
        '/sa2.pub',
        '--service-account-signing-key-file',
        '/sa.key',
        '--service-account-jwks-uri',
        'https://keel.local/openid/v1/jwks',
        '--service-account-lookup=false',
        '--service-account-extend-token-expiration=false',
        '--service-account-max-token-expiration',
        '24h',
      ],
      {
        serviceAccounts: {
          issuers: ['https://keel.local'],
          keyFiles: ['/sa.pub', '/sa2.pub'],
          signingKeyFile: '/sa.key',
          jwksURI: 'https://keel.local/openid/v1/jwks',
          lookup: false,
          extendExpiration: false,
          maxExpiration: Duration.parse('24h'),
        },
      },
    ],
    ['plain-string issuer', ['--service-account-issuer', 'keel'], { serviceAccounts: { issuers: ['keel'] } }],
  ])('%s', (_name, argv, expected) => {
    const { parseErrors, errors, config } = run(argv);
    expect(parseErrors).toEqual([]);
    expect(errors).toEqual([]);
    expect(config).toMatchObject(expected);
  });

  const notURL = '--service-account-issuer "https://bad host" contained a \':\' but was not a valid URL';
  it.each<[string, string[], string[]]>([
    [
      'signing key without issuer or key file',
      ['--service-account-signing-key-file', '/sa.key'],
      [
        '--service-account-issuer is required when --service-account-signing-key-file is set',
        '--service-account-key-file is required when --service-account-signing-key-file is set',
      ],
    ],
    [
      'signing key without key file',
      ['--service-account-signing-key-file', '/sa.key', '--service-account-issuer', 'https://i'],
      ['--service-account-key-file is required when --service-account-signing-key-file is set'],
    ],
    ['signing key with both', ['--service-account-signing-key-file', '/sa.key', ...SIGNING], []],
    [
      'empty issuer',
      ['--service-account-issuer='],
      ['--service-account-issuer should not be an empty string'],
    ],
    ['issuer with a colon that is no URL', ['--service-account-issuer', 'https://bad host'], [notURL]],
    [
      'duplicate issuer',
      ['--service-account-issuer', 'https://i', '--service-account-issuer', 'https://i'],
      ['--service-account-issuer "https://i" is already specified'],
    ],
    [
      'jwks uri not https',
      ['--service-account-jwks-uri', 'http://keel/jwks'],
      ['--service-account-jwks-uri requires https scheme, parsed as: http://keel/jwks'],
    ],
    [
      'jwks uri not a URL',
      ['--service-account-jwks-uri', 'jwks'],
      ['--service-account-jwks-uri "jwks" must be a valid URL'],
    ],
    [
      'max expiration below 1h',
      ['--service-account-max-token-expiration', '59m'],
      ['--service-account-max-token-expiration must be between 1 hour and 2^32 seconds, got 59m0s'],
    ],
    ['max expiration exactly 1h', ['--service-account-max-token-expiration', '1h'], []],
    [
      'max expiration above 2^32s',
      ['--service-account-max-token-expiration', '4294967297s'],
      ['--service-account-max-token-expiration must be between 1 hour and 2^32 seconds, got 1193046h28m17s'],
    ],
    [
      'negative max expiration',
      ['--service-account-max-token-expiration', '-2h'],
      ['--service-account-max-token-expiration must be between 1 hour and 2^32 seconds, got -2h0m0s'],
    ],
  ])('%s', (_name, argv, expected) => {
    const { parseErrors, errors } = run(argv);
    expect(parseErrors).toEqual([]);
    expect(errors).toEqual(expected);
  });
});

describe('withServiceAccountKeyFallback', () => {
  it.each<[string[], string, string[]]>([
    [[], '/tls.key', ['/tls.key']],
    [['--service-account-key-file', '/sa.pub'], '/tls.key', ['/sa.pub']],
    [[], '', []],
  ])('keys %j with TLS key %j', (argv, tlsKey, keyFiles) => {
    const { config } = run(argv);
    const completed = withServiceAccountKeyFallback(config, tlsKey);
    expect(completed.serviceAccounts.keyFiles).toEqual(keyFiles);
    expect(config.serviceAccounts.keyFiles).toEqual(argv.length > 0 ? ['/sa.pub'] : []);
  });
});
