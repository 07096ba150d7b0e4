import { describe, expect, it } from 'vitest';
import { OIDC_ARGS as OIDC, runAuthentication as run } from '../testing/run-authentication.js';

describe('OIDC options', () => {
  it('reads every OIDC flag and resolves the OIDC authenticator', () => {
    const { errors, config } = run([
      ...OIDC,
      '--oidc-ca-file',
      '/oidc-ca.pem',
      '--oidc-username-claim',
      'email',
      '--oidc-groups-claim',
      'groups',
      '--oidc-groups-prefix',
      'oidc:',
      '--oidc-signing-algs',
      'RS256,ES256',
      '--oidc-required-claim',
      'hd=example.com',
      '--oidc-required-claim',
      'list=a,b=c',
    ]);
    expect(errors).toEqual([]);
    expect(config.oidc).toEqual({
      issuerURL: 'https://issuer.example',
      clientID: 'keel',
      caFile: '/oidc-ca.pem',
      usernameClaim: 'email',
      usernamePrefix: '',
      groupsClaim: 'groups',
      groupsPrefix: 'oidc:',
      requiredClaims: new Map([
        ['hd', 'example.com'],
        ['list', 'a,b=c'],
      ]),
      signingAlgs: ['RS256', 'ES256'],
    });
  });

  it.each([
    [[], 'https://issuer.example#'],
    [['--oidc-username-prefix', 'oidc:'], 'oidc:'],
    [['--oidc-username-prefix', '-'], ''],
    [['--oidc-username-claim', 'email'], ''],
    [['--oidc-username-claim', 'email', '--oidc-username-prefix', 'e:'], 'e:'],
  ])('username prefix for %j is %j', (argv, prefix) => {
    expect(run([...OIDC, ...argv]).config.oidc?.usernamePrefix).toBe(prefix);
  });

  it('falls back to RS256 when the algorithm list is emptied', () => {
    expect(run([...OIDC, '--oidc-signing-algs=']).config.oidc?.signingAlgs).toEqual(['RS256']);
  });

  it.each<[string, string[], string[]]>([
    [
      'issuer URL without client ID',
      ['--oidc-issuer-url', 'https://x'],
      ['--oidc-client-id must be specified when --oidc-issuer-url is set'],
    ],
    [
      'client ID without issuer URL',
      ['--oidc-client-id', 'keel'],
      ['--oidc-issuer-url must be specified when --oidc-client-id is set'],
    ],
    [
      'other oidc flags alone',
      ['--oidc-groups-claim', 'groups'],
      ['--oidc-issuer-url and --oidc-client-id must be specified together when any oidc-* flags are set'],
    ],
    [
      'an oidc flag set to its default still counts',
      ['--oidc-username-claim', 'sub'],
      ['--oidc-issuer-url and --oidc-client-id must be specified together when any oidc-* flags are set'],
    ],
    [
      'http issuer',
      ['--oidc-issuer-url', 'http://issuer', '--oidc-client-id', 'k'],
      ['--oidc-issuer-url "http://issuer" must be an https URL'],
    ],
    [
      'issuer that is not a URL',
      ['--oidc-issuer-url', 'issuer', '--oidc-client-id', 'k'],
      ['--oidc-issuer-url "issuer" must be an https URL'],
    ],
    [
      'unknown signing algs',
      [...OIDC, '--oidc-signing-algs', 'HS256,RS256,none'],
      [
        '--oidc-signing-algs "HS256" is not supported; supported values: "RS256", "RS384", "RS512", "ES256", "ES384", "ES512", "PS256", "PS384", "PS512"',
        '--oidc-signing-algs "none" is not supported; supported values: "RS256", "RS384", "RS512", "ES256", "ES384", "ES512", "PS256", "PS384", "PS512"',
      ],
    ],
    [
      'required claim without =',
      [...OIDC, '--oidc-required-claim', 'hd'],
      ['--oidc-required-claim "hd" must be formatted as key=value'],
    ],
    [
      'required claim without key',
      [...OIDC, '--oidc-required-claim', '=x'],
      ['--oidc-required-claim "=x" must be formatted as key=value'],
    ],
  ])('rejects %s', (_name, argv, expected) => {
    const { parseErrors, errors } = run(argv);
    expect(parseErrors).toEqual([]);
    expect(errors).toEqual(expected);
  });
});
