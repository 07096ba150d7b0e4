import { describe, expect, it } from 'vitest';
import { Duration, NamedFlagSets, parseArgs } from '@keel/flags';
import {
  DelegatingAuthenticationOptions,
  DelegatingAuthorizationOptions,
  type DelegatingAuthenticationConfig,
  type DelegatingAuthorizationConfig,
} from '../index.js';

interface Config {
  delegatingAuthentication?: DelegatingAuthenticationConfig;
  delegatingAuthorization?: DelegatingAuthorizationConfig;
}

/** Both groups together, as the scheduler registers them, so flag names must not collide. */
function run(argv: string[]) {
  const authn = new DelegatingAuthenticationOptions();
  const authz = new DelegatingAuthorizationOptions();
  const fss = new NamedFlagSets('test');
  authn.addFlags(fss);
  authz.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const config: Config = {};
  authn.applyTo(config);
  authz.applyTo(config);
  const { delegatingAuthentication, delegatingAuthorization } = config;
  if (!delegatingAuthentication || !delegatingAuthorization) throw new Error('applyTo wrote nothing');
  return {
    fss,
    parseErrors: parsed.errors,
    errors: [...authn.validate(), ...authz.validate()],
    authn: delegatingAuthentication,
    authz: delegatingAuthorization,
  };
}

describe('DelegatingAuthenticationOptions', () => {
  it('defaults', () => {
    const { errors, authn, fss } = run([]);
    expect(errors).toEqual([]);
    expect(authn).toEqual({
      remoteConnectionConfigFile: '',
      skipLookup: false,
      tolerateLookupFailure: true,
      cacheTTL: Duration.parse('10s'),
      clientCAFile: '',
      requestHeader: {
        clientCAFile: '',
        allowedNames: [],
        usernameHeaders: ['x-remote-user'],
        groupHeaders: ['x-remote-group'],
        extraHeaderPrefixes: ['x-remote-extra-'],
      },
      anonymous: true,
    });
    expect(
      fss
        .flagsIn('Authentication')
        .map((f) => f.name)
        .sort(),
    ).toEqual([
      'authentication-connection-config',
      'authentication-skip-lookup',
      'authentication-token-webhook-cache-ttl',
      'authentication-tolerate-lookup-failure',
      'client-ca-file',
      'requestheader-allowed-names',
      'requestheader-client-ca-file',
      'requestheader-extra-headers-prefix',
      'requestheader-group-headers',
      'requestheader-username-headers',
    ]);
    expect(fss.lookup('requestheader-username-headers')?.defaultText).toBe('[x-remote-user]');
  });

  it('reads every flag', () => {
    const { errors, parseErrors, authn } = run([
      '--authentication-connection-config',
      '/authn.conf',
      '--authentication-skip-lookup',
      '--authentication-tolerate-lookup-failure=false',
      '--authentication-token-webhook-cache-ttl',
      '1m',
      '--client-ca-file',
      '/ca.pem',
      '--requestheader-client-ca-file',
      '/rh.pem',
      '--requestheader-allowed-names',
      'front-proxy',
      '--requestheader-username-headers',
      'X-User',
      '--requestheader-group-headers',
      'X-Group',
      '--requestheader-extra-headers-prefix',
      'X-Extra-',
    ]);
    expect(parseErrors).toEqual([]);
    expect(errors).toEqual([]);
    expect(authn).toEqual({
      remoteConnectionConfigFile: '/authn.conf',
      skipLookup: true,
      tolerateLookupFailure: false,
      cacheTTL: Duration.parse('1m'),
      clientCAFile: '/ca.pem',
      requestHeader: {
        clientCAFile: '/rh.pem',
        allowedNames: ['front-proxy'],
        usernameHeaders: ['X-User'],
        groupHeaders: ['X-Group'],
        extraHeaderPrefixes: ['X-Extra-'],
      },
      anonymous: true,
    });
  });

  it.each<[string, string[], string[]]>([
    ['default username headers need no CA (it is looked up in the cluster)', [], []],
    [
      'negative cache ttl',
      ['--authentication-token-webhook-cache-ttl', '-5s'],
      ['--authentication-token-webhook-cache-ttl must not be negative, got -5s'],
    ],
    [
      'blank header',
      ['--requestheader-username-headers', 'x-remote-user,'],
      ['--requestheader-username-headers must not contain an empty value'],
    ],
  ])('%s', (_name, argv, expected) => {
    expect(run(argv).errors).toEqual(expected);
  });
});

describe('DelegatingAuthorizationOptions', () => {
  it('defaults', () => {
    const { authz, fss } = run([]);
    expect(authz).toEqual({
      remoteConnectionConfigFile: '',
      alwaysAllowPaths: ['/healthz', '/readyz', '/livez'],
      alwaysAllowGroups: ['system:masters'],
      allowCacheTTL: Duration.parse('10s'),
      denyCacheTTL: Duration.parse('10s'),
    });
    expect(fss.flagsIn('Authorization').map((f) => [f.name, f.defaultText])).toEqual([
      ['authorization-connection-config', ''],
      ['authorization-webhook-cache-authorized-ttl', '10s'],
      ['authorization-webhook-cache-unauthorized-ttl', '10s'],
      ['authorization-always-allow-paths', '[/healthz,/readyz,/livez]'],
    ]);
  });

  it('reads every flag; the first use of the paths flag replaces the default', () => {
    const { errors, parseErrors, authz } = run([
      '--authorization-connection-config',
      '/authz.conf',
      '--authorization-always-allow-paths',
      '/healthz,/metrics*',
      '--authorization-always-allow-paths',
      '/',
      '--authorization-webhook-cache-authorized-ttl',
      '1m',
      '--authorization-webhook-cache-unauthorized-ttl',
      '0s',
    ]);
    expect(parseErrors).toEqual([]);
    expect(errors).toEqual([]);
    expect(authz).toMatchObject({
      remoteConnectionConfigFile: '/authz.conf',
      alwaysAllowPaths: ['/healthz', '/metrics*', '/'],
      allowCacheTTL: Duration.parse('1m'),
      denyCacheTTL: Duration.zero,
    });
  });

  it('may be emptied', () => {
    expect(run(['--authorization-always-allow-paths=']).authz.alwaysAllowPaths).toEqual([]);
  });

  it.each<[string, string[], string[]]>([
    [
      'relative path',
      ['--authorization-always-allow-paths', 'healthz'],
      ['--authorization-always-allow-paths "healthz" must start with \'/\''],
    ],
    [
      'inner wildcard',
      ['--authorization-always-allow-paths', '/a*/b'],
      ['--authorization-always-allow-paths "/a*/b": only a trailing * is allowed'],
    ],
    [
      'negative TTLs',
      [
        '--authorization-webhook-cache-authorized-ttl',
        '-1s',
        '--authorization-webhook-cache-unauthorized-ttl',
        '-2s',
      ],
      [
        '--authorization-webhook-cache-authorized-ttl must not be negative, got -1s',
        '--authorization-webhook-cache-unauthorized-ttl must not be negative, got -2s',
      ],
    ],
    [
      'every problem',
      [
        '--authorization-always-allow-paths',
        'a,/b**,/ok',
        '--authorization-webhook-cache-unauthorized-ttl',
        '-1ms',
      ],
      [
        '--authorization-always-allow-paths "a" must start with \'/\'',
        '--authorization-always-allow-paths "/b**": only a trailing * is allowed',
        '--authorization-webhook-cache-unauthorized-ttl must not be negative, got -1ms',
      ],
    ],
  ])('rejects %s', (_name, argv, expected) => {
    const { parseErrors, errors } = run(argv);
    expect(parseErrors).toEqual([]);
    expect(errors).toEqual(expected);
  });
});
