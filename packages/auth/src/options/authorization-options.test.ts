import { describe, expect, it } from 'vitest';
import { Duration, NamedFlagSets, parseArgs } from '@keel/flags';
import { BuiltInAuthorizationOptions, type AuthorizationConfig } from '../index.js';

function run(argv: string[]) {
  const o = new BuiltInAuthorizationOptions();
  const fss = new NamedFlagSets('test');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const config: { authorization?: AuthorizationConfig } = {};
  o.applyTo(config);
  if (!config.authorization) throw new Error('applyTo wrote no authorization');
  return { fss, parseErrors: parsed.errors, errors: o.validate(), config: config.authorization };
}

const WEBHOOK = ['--authorization-webhook-config-file', '/authz.conf'];

describe('BuiltInAuthorizationOptions', () => {
  it('defaults to AlwaysAllow', () => {
    const { errors, config, fss } = run([]);
    expect(errors).toEqual([]);
    expect(config).toEqual({ modes: ['AlwaysAllow'], policyFile: '', webhook: undefined });
    expect(fss.flagsIn('Authorization').map((f) => [f.name, f.defaultText])).toEqual([
      ['authorization-mode', '[AlwaysAllow]'],
      ['authorization-policy-file', ''],
      ['authorization-webhook-config-file', ''],
      ['authorization-webhook-version', '"v1beta1"'],
      ['authorization-webhook-cache-authorized-ttl', '5m0s'],
      ['authorization-webhook-cache-unauthorized-ttl', '30s'],
    ]);
  });

  it.each<[string, string[], AuthorizationConfig]>([
    [
      'Node,RBAC in order',
      ['--authorization-mode', 'Node,RBAC'],
      { modes: ['Node', 'RBAC'], policyFile: '', webhook: undefined },
    ],
    [
      'repeated flag appends',
      ['--authorization-mode', 'Node', '--authorization-mode', 'RBAC,AlwaysDeny'],
      { modes: ['Node', 'RBAC', 'AlwaysDeny'], policyFile: '', webhook: undefined },
    ],
    [
      'ABAC with its policy',
      ['--authorization-mode', 'ABAC', '--authorization-policy-file', '/abac.jsonl'],
      { modes: ['ABAC'], policyFile: '/abac.jsonl', webhook: undefined },
    ],
    [
      'Webhook with defaults',
      ['--authorization-mode', 'RBAC,Webhook', ...WEBHOOK],
      {
        modes: ['RBAC', 'Webhook'],
        policyFile: '',
        webhook: {
          configFile: '/authz.conf',
          version: 'v1beta1',
          cacheAuthorizedTTL: Duration.parse('5m'),
          cacheUnauthorizedTTL: Duration.parse('30s'),
        },
      },
    ],
    [
      'Webhook with every flag',
      [
        '--authorization-mode=Webhook',
        ...WEBHOOK,
        '--authorization-webhook-version',
        'v1',
        '--authorization-webhook-cache-authorized-ttl',
        '1m',
        '--authorization-webhook-cache-unauthorized-ttl',
        '0s',
      ],
      {
        modes: ['Webhook'],
        policyFile: '',
        webhook: {
          configFile: '/authz.conf',
          version: 'v1',
          cacheAuthorizedTTL: Duration.parse('1m'),
          cacheUnauthorizedTTL: Duration.zero,
        },
      },
    ],
  ])('%s', (_name, argv, expected) => {
    const { parseErrors, errors, config } = run(argv);
    expect(parseErrors).toEqual([]);
    expect(errors).toEqual([]);
    expect(config).toEqual(expected);
  });

  const unsupported = (m: string) =>
    `--authorization-mode ${JSON.stringify(m)} is not supported; supported values: "AlwaysAllow", "AlwaysDeny", "ABAC", "Webhook", "RBAC", "Node"`;

  it.each<[string, string[], string[]]>([
    ['empty mode list', ['--authorization-mode='], ['at least one --authorization-mode must be passed']],
    ['unknown mode', ['--authorization-mode', 'RBAC,Foo'], [unsupported('Foo')]],
    ['modes are case-sensitive', ['--authorization-mode', 'rbac'], [unsupported('rbac')]],
    [
      'duplicate mode',
      ['--authorization-mode', 'RBAC,Node,RBAC'],
      ['--authorization-mode "RBAC" has mode specified more than once'],
    ],
    [
      'duplicate across occurrences, reported once',
      ['--authorization-mode', 'Node,Node', '--authorization-mode', 'Node'],
      ['--authorization-mode "Node" has mode specified more than once'],
    ],
    [
      'ABAC without its policy',
      ['--authorization-mode', 'ABAC'],
      ['--authorization-policy-file is required when --authorization-mode includes ABAC'],
    ],
    [
      'Webhook without its config',
      ['--authorization-mode', 'Webhook'],
      ['--authorization-webhook-config-file is required when --authorization-mode includes Webhook'],
    ],
    [
      'policy without ABAC',
      ['--authorization-policy-file', '/abac.jsonl'],
      ['cannot specify --authorization-policy-file without mode ABAC'],
    ],
    [
      'webhook config without Webhook',
      WEBHOOK,
      ['cannot specify --authorization-webhook-config-file without mode Webhook'],
    ],
    [
      'webhook version',
      ['--authorization-webhook-version', 'v2'],
      ['--authorization-webhook-version "v2" is not supported; supported values: "v1", "v1beta1"'],
    ],
    [
      'negative TTLs',
      [
        '--authorization-webhook-cache-authorized-ttl',
        '-1m',
        '--authorization-webhook-cache-unauthorized-ttl',
        '-1s',
      ],
      [
        '--authorization-webhook-cache-authorized-ttl must not be negative, got -1m0s',
        '--authorization-webhook-cache-unauthorized-ttl must not be negative, got -1s',
      ],
    ],
    [
      'every problem at once',
      ['--authorization-mode', 'ABAC,Foo,ABAC,Webhook', '--authorization-webhook-version', 'x'],
      [
        unsupported('Foo'),
        '--authorization-mode "ABAC" has mode specified more than once',
        '--authorization-policy-file is required when --authorization-mode includes ABAC',
        '--authorization-webhook-config-file is required when --authorization-mode includes Webhook',
        '--authorization-webhook-version "x" is not supported; supported values: "v1", "v1beta1"',
      ],
    ],
  ])('rejects %s', (_name, argv, expected) => {
    const { parseErrors, errors } = run(argv);
    expect(parseErrors).toEqual([]);
    expect(errors).toEqual(expected);
  });
});
