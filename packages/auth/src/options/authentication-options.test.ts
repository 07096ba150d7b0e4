import { describe, expect, it } from 'vitest';
import { Duration } from '@keel/flags';
import { runAuthentication as run } from '../testing/run-authentication.js';

describe('BuiltInAuthenticationOptions defaults', () => {
  it('resolves the spec defaults', () => {
    const { errors, config } = run([]);
    expect(errors).toEqual([]);
    expect(config).toEqual({
      anonymous: true,
      clientCAFile: '',
      tokenAuthFile: '',
      bootstrapToken: false,
      apiAudiences: [],
      serviceAccounts: {
        issuers: [],
        jwksURI: '',
        keyFiles: [],
        signingKeyFile: '',
        lookup: true,
        extendExpiration: true,
        maxExpiration: undefined,
      },
      oidc: undefined,
      requestHeader: undefined,
      tokenWebhook: undefined,
      tokenSuccessCacheTTL: Duration.parse('10s'),
      tokenFailureCacheTTL: Duration.zero,
    });
  });

  it('shows the spec defaults in help and registers every flag in the Authentication section', () => {
    const { fss } = run([]);
    const shown = Object.fromEntries(fss.all().map((f) => [f.name, f.defaultText]));
    expect(shown).toMatchObject({
      'anonymous-auth': 'true',
      'oidc-username-claim': '"sub"',
      'oidc-signing-algs': '[RS256]',
      'service-account-lookup': 'true',
      'service-account-extend-token-expiration': 'true',
      'authentication-token-webhook-version': '"v1beta1"',
      'authentication-token-webhook-cache-ttl': '2m0s',
    });
    expect(fss.sectionTitles()).toEqual(['Authentication']);
    expect(
      fss
        .all()
        .map((f) => f.name)
        .sort(),
    ).toEqual([
      'anonymous-auth',
      'api-audiences',
      'authentication-token-webhook-cache-ttl',
      'authentication-token-webhook-config-file',
      'authentication-token-webhook-version',
      'client-ca-file',
      'enable-bootstrap-token-auth',
      'oidc-ca-file',
      'oidc-client-id',
      'oidc-groups-claim',
      'oidc-groups-prefix',
      'oidc-issuer-url',
      'oidc-required-claim',
      'oidc-signing-algs',
      'oidc-username-claim',
      'oidc-username-prefix',
      'requestheader-allowed-names',
      'requestheader-client-ca-file',
      'requestheader-extra-headers-prefix',
      'requestheader-group-headers',
      'requestheader-username-headers',
      'service-account-extend-token-expiration',
      'service-account-issuer',
      'service-account-jwks-uri',
      'service-account-key-file',
      'service-account-lookup',
      'service-account-max-token-expiration',
      'service-account-signing-key-file',
      'token-auth-file',
    ]);
  });
});

describe('BuiltInAuthenticationOptions parsing', () => {
  it.each<[string, string[], Record<string, unknown>]>([
    ['anonymous off', ['--anonymous-auth=false'], { anonymous: false }],
    ['client CA', ['--client-ca-file', '/ca.pem'], { clientCAFile: '/ca.pem' }],
    ['token file', ['--token-auth-file', '/tokens.csv'], { tokenAuthFile: '/tokens.csv' }],
    ['bootstrap tokens', ['--enable-bootstrap-token-auth'], { bootstrapToken: true }],
    [
      'token webhook',
      [
        '--authentication-token-webhook-config-file',
        '/wh.conf',
        '--authentication-token-webhook-version',
        'v1',
        '--authentication-token-webhook-cache-ttl',
        '30s',
      ],
      { tokenWebhook: { configFile: '/wh.conf', version: 'v1', cacheTTL: Duration.parse('30s') } },
    ],
    [
      'request headers need their CA to be enabled',
      [
        '--requestheader-client-ca-file',
        '/rh.pem',
        '--requestheader-allowed-names',
        'front-proxy',
        '--requestheader-username-headers',
        'X-Remote-User',
        '--requestheader-group-headers',
        'X-Remote-Group',
        '--requestheader-extra-headers-prefix',
        'X-Remote-Extra-,X-Extra-',
      ],
      {
        requestHeader: {
          clientCAFile: '/rh.pem',
          allowedNames: ['front-proxy'],
          usernameHeaders: ['X-Remote-User'],
          groupHeaders: ['X-Remote-Group'],
          extraHeaderPrefixes: ['X-Remote-Extra-', 'X-Extra-'],
        },
      },
    ],
  ])('%s', (_name, argv, expected) => {
    const { parseErrors, errors, config } = run(argv);
    expect(parseErrors).toEqual([]);
    expect(errors).toEqual([]);
    expect(config).toMatchObject(expected);
  });
});

describe('BuiltInAuthenticationOptions validation', () => {
  it.each<[string, string[], string[]]>([
    [
      'username headers without their CA',
      ['--requestheader-username-headers', 'X-Remote-User'],
      ['--requestheader-client-ca-file is required when --requestheader-username-headers is set'],
    ],
    ['group headers alone are harmless', ['--requestheader-group-headers', 'X-Remote-Group'], []],
    [
      'blank header names',
      [
        '--requestheader-client-ca-file',
        '/c',
        '--requestheader-username-headers',
        'a, ',
        '--requestheader-group-headers',
        'g,,h',
        '--requestheader-extra-headers-prefix',
        ' ',
        '--requestheader-allowed-names',
        'x,',
      ],
      [
        '--requestheader-username-headers must not contain an empty value',
        '--requestheader-group-headers must not contain an empty value',
        '--requestheader-extra-headers-prefix must not contain an empty value',
        '--requestheader-allowed-names must not contain an empty value',
      ],
    ],
    [
      'webhook version',
      ['--authentication-token-webhook-version', 'v2'],
      ['--authentication-token-webhook-version "v2" is not supported; supported values: "v1", "v1beta1"'],
    ],
    [
      'negative webhook cache ttl',
      ['--authentication-token-webhook-cache-ttl', '-1s'],
      ['--authentication-token-webhook-cache-ttl must not be negative, got -1s'],
    ],
    ['zero webhook cache ttl', ['--authentication-token-webhook-cache-ttl', '0'], []],
  ])('%s', (_name, argv, expected) => {
    const { parseErrors, errors } = run(argv);
    expect(parseErrors).toEqual([]);
    expect(errors).toEqual(expected);
  });

  it('collects problems from every part at once', () => {
    const { errors } = run([
      '--oidc-client-id',
      'k',
      '--service-account-issuer=',
      '--requestheader-username-headers',
      'u',
      '--authentication-token-webhook-version',
      'v0',
    ]);
    expect(errors).toEqual([
      '--oidc-issuer-url must be specified when --oidc-client-id is set',
      '--service-account-issuer should not be an empty string',
      '--requestheader-client-ca-file is required when --requestheader-username-headers is set',
      '--authentication-token-webhook-version "v0" is not supported; supported values: "v1", "v1beta1"',
    ]);
  });
});
