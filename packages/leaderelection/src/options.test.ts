import { describe, expect, it } from 'vitest';
import { Duration, NamedFlagSets, parseArgs, renderHelp } from '@keel/flags';
import { LeaderElectionOptions, validateLeaderElection, type LeaderElectionConfig } from './options.js';

function parse(argv: string[]) {
  const o = new LeaderElectionOptions();
  const fss = new NamedFlagSets('keel-scheduler');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  return { o, fss, parsed };
}

const d = (s: string) => Duration.parse(s);
const base: LeaderElectionConfig = new LeaderElectionOptions().toConfig();

describe('LeaderElectionOptions', () => {
  it('has the spec defaults and applies them as the leaderElection slice', () => {
    const { o, parsed } = parse([]);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual([]);
    const c: { leaderElection?: LeaderElectionConfig } = {};
    o.applyTo(c);
    expect(c.leaderElection).toEqual({
      leaderElect: true,
      leaseDuration: d('15s'),
      renewDeadline: d('10s'),
      retryPeriod: d('2s'),
      resourceLock: 'leases',
      resourceName: 'platform-scheduler',
      resourceNamespace: 'platform-system',
    });
  });

  it('registers every flag in the Leader election section with the defaults shown', () => {
    const { fss } = parse([]);
    expect(fss.flagsIn('Leader election').map((f) => [f.name, f.defaultText])).toEqual([
      ['leader-elect', 'true'],
      ['leader-elect-lease-duration', '15s'],
      ['leader-elect-renew-deadline', '10s'],
      ['leader-elect-retry-period', '2s'],
      ['leader-elect-resource-lock', '"leases"'],
      ['leader-elect-resource-name', '"platform-scheduler"'],
      ['leader-elect-resource-namespace', '"platform-system"'],
    ]);
    expect(renderHelp(fss, 'x')).toContain('Leader election flags:');
  });

  it('parses every flag', () => {
    const { o, parsed } = parse([
      '--leader-elect=false',
      '--leader-elect-lease-duration=1m',
      '--leader-elect-renew-deadline',
      '30s',
      '--leader-elect-retry-period=5s',
      '--leader-elect-resource-lock=endpointsleases',
      '--leader-elect-resource-name=my-lock',
      '--leader-elect-resource-namespace=ns1',
    ]);
    expect(parsed.errors).toEqual([]);
    expect(o.toConfig()).toEqual({
      leaderElect: false,
      leaseDuration: d('1m'),
      renewDeadline: d('30s'),
      retryPeriod: d('5s'),
      resourceLock: 'endpointsleases',
      resourceName: 'my-lock',
      resourceNamespace: 'ns1',
    });
  });

  it('rejects a malformed duration at parse time with Go’s message', () => {
    const { parsed } = parse(['--leader-elect-lease-duration=15']);
    expect(parsed.errors).toEqual([
      'invalid argument "15" for "--leader-elect-lease-duration" flag: time: missing unit in duration "15"',
    ]);
  });

  it.each<[string, string[], string[]]>([
    [
      'valid custom values',
      [
        '--leader-elect-lease-duration=20s',
        '--leader-elect-renew-deadline=15s',
        '--leader-elect-retry-period=3s',
      ],
      [],
    ],
    ['renew just above retry × 1.2', ['--leader-elect-renew-deadline=2401ms'], []],
    ['configmapsleases lock', ['--leader-elect-resource-lock=configmapsleases'], []],
    ['dotted lock name', ['--leader-elect-resource-name=sched.example.com'], []],
    [
      'anything goes when leader election is off',
      ['--leader-elect=false', '--leader-elect-lease-duration=0s', '--leader-elect-resource-lock=x'],
      [],
    ],
    [
      'lease not greater than renew',
      ['--leader-elect-renew-deadline=20s'],
      ['--leader-elect-lease-duration (15s) must be greater than --leader-elect-renew-deadline (20s)'],
    ],
    [
      'lease equal to renew',
      ['--leader-elect-lease-duration=10s'],
      ['--leader-elect-lease-duration (10s) must be greater than --leader-elect-renew-deadline (10s)'],
    ],
    [
      'renew not above retry × jitter',
      ['--leader-elect-renew-deadline=2400ms'],
      [
        '--leader-elect-renew-deadline (2.4s) must be greater than --leader-elect-retry-period (2s) times the jitter factor 1.2 (2.4s)',
      ],
    ],
    [
      'non-positive durations',
      [
        '--leader-elect-lease-duration=0s',
        '--leader-elect-renew-deadline=-1s',
        '--leader-elect-retry-period=0s',
      ],
      [
        '--leader-elect-lease-duration must be greater than 0, got 0s',
        '--leader-elect-renew-deadline must be greater than 0, got -1s',
        '--leader-elect-retry-period must be greater than 0, got 0s',
      ],
    ],
    [
      'unsupported lock',
      ['--leader-elect-resource-lock=endpoints'],
      [
        '--leader-elect-resource-lock "endpoints" is not supported; supported values: "leases", "endpointsleases", "configmapsleases"',
      ],
    ],
    [
      'empty name and namespace',
      ['--leader-elect-resource-name=', '--leader-elect-resource-namespace='],
      [
        '--leader-elect-resource-name must not be empty',
        '--leader-elect-resource-namespace must not be empty',
      ],
    ],
    [
      'invalid DNS names',
      ['--leader-elect-resource-name=Bad_Name', '--leader-elect-resource-namespace=a.b'],
      [
        `--leader-elect-resource-name "Bad_Name" is invalid: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
        `--leader-elect-resource-namespace "a.b" is invalid: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ],
    ],
    [
      'namespace too long',
      [`--leader-elect-resource-namespace=${'a'.repeat(64)}`],
      [
        `--leader-elect-resource-namespace "${'a'.repeat(64)}" is invalid: must be no more than 63 characters`,
      ],
    ],
  ])('validate: %s', (_name, argv, expected) => {
    const { o, parsed } = parse(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual(expected);
  });
});

describe('validateLeaderElection with field paths', () => {
  it.each<[string, Partial<LeaderElectionConfig>, string[]]>([
    ['defaults', {}, []],
    [
      'lease vs renew',
      { leaseDuration: d('5s') },
      ['leaderElection.leaseDuration (5s) must be greater than leaderElection.renewDeadline (10s)'],
    ],
    [
      'renew vs retry',
      { retryPeriod: d('9s') },
      [
        'leaderElection.renewDeadline (10s) must be greater than leaderElection.retryPeriod (9s) times the jitter factor 1.2 (10.8s)',
      ],
    ],
    [
      'lock',
      { resourceLock: '' },
      [
        'leaderElection.resourceLock "" is not supported; supported values: "leases", "endpointsleases", "configmapsleases"',
      ],
    ],
    ['name', { resourceName: '' }, ['leaderElection.resourceName must not be empty']],
  ])('%s', (_name, patch, expected) => {
    expect(validateLeaderElection({ ...base, ...patch }, 'leaderElection.')).toEqual(expected);
  });

  it('accepts a namer function, so a caller can name the source of each value', () => {
    const namer = (f: string) =>
      f === 'leaseDuration' ? '--leader-elect-lease-duration' : `leaderElection.${f}`;
    expect(validateLeaderElection({ ...base, leaseDuration: d('10s') }, namer)).toEqual([
      '--leader-elect-lease-duration (10s) must be greater than leaderElection.renewDeadline (10s)',
    ]);
  });
});
