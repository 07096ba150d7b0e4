import { describe, expect, it } from 'vitest';
import { Duration, NamedFlagSets, parseArgs, renderHelp } from '@keel/flags';
import { SchedulerOptions } from './scheduler-options.js';

function parse(argv: string[]) {
  const o = new SchedulerOptions();
  const fss = new NamedFlagSets('keel-scheduler');
  o.addFlags(fss);
  return { o, fss, parsed: parseArgs(fss, argv) };
}

describe('SchedulerOptions flags', () => {
  it('registers the spec flags in their sections with the spec defaults', () => {
    const { fss } = parse([]);
    const table = (section: string) => fss.flagsIn(section).map((f) => [f.name, f.typeName, f.defaultText]);
    expect(table('Misc')).toEqual([
      ['config', 'string', ''],
      ['write-config-to', 'string', ''],
      ['master', 'string', ''],
      ['pod-max-in-unschedulable-pods-duration', 'duration', '5m0s'],
      ['cloudvendor-container-registry-config', 'string', ''],
    ]);
    expect(table('Deprecated')).toEqual([
      ['contention-profiling', '', 'true'],
      ['profiling', '', 'true'],
      ['platform-api-burst', 'int32', '100'],
      ['platform-api-content-type', 'string', '"application/json"'],
      ['platform-api-qps', 'float', '50'],
      ['connection-config', 'string', ''],
      ['lock-object-name', 'string', '"platform-scheduler"'],
      ['lock-object-namespace', 'string', '"platform-system"'],
    ]);
    expect(fss.flagsIn('Leader election').map((f) => f.name)).toContain('leader-elect-resource-lock');
  });

  it('says in --help which deprecated flags are ignored with --config and what replaces the old lock flags', () => {
    const help = renderHelp(parse([]).fss, 'x');
    expect(help).toContain(
      'DEPRECATED: burst to use while talking with the platform API server. This parameter is ignored if a config file is specified in --config.',
    );
    expect(help).toContain('(DEPRECATED: use --leader-elect-resource-name instead)');
    expect(help).toContain('(DEPRECATED: will be removed in 1.26)');
  });

  it('parses every flag it owns', () => {
    const { o, parsed } = parse([
      '--config=/etc/keel/scheduler.yaml',
      '--write-config-to',
      '/tmp/out.yaml',
      '--master=https://127.0.0.1:6443',
      '--pod-max-in-unschedulable-pods-duration=90s',
      '--cloudvendor-container-registry-config=/etc/registry.json',
      '--contention-profiling=false',
      '--profiling=false',
      '--platform-api-burst=7',
      '--platform-api-content-type=application/json',
      '--platform-api-qps=2.5',
      '--connection-config=/etc/keel/scheduler.conf',
      '--lock-object-name=old-lock',
      '--lock-object-namespace=old-ns',
    ]);
    expect(parsed.errors).toEqual([]);
    expect(parsed.warnings).toEqual([
      'Flag --pod-max-in-unschedulable-pods-duration has been deprecated, will be removed in 1.26',
      'Flag --lock-object-name has been deprecated, use --leader-elect-resource-name instead',
      'Flag --lock-object-namespace has been deprecated, use --leader-elect-resource-namespace instead',
    ]);
    expect([o.config, o.writeConfigTo, o.master, o.cloudvendorContainerRegistryConfig]).toEqual([
      '/etc/keel/scheduler.yaml',
      '/tmp/out.yaml',
      'https://127.0.0.1:6443',
      '/etc/registry.json',
    ]);
    expect(o.podMaxInUnschedulablePodsDuration).toEqual(Duration.parse('1m30s'));
    expect({ ...o.deprecated }).toEqual({
      contentionProfiling: false,
      profiling: false,
      platformApiBurst: 7,
      platformApiContentType: 'application/json',
      platformApiQps: 2.5,
      connectionConfig: '/etc/keel/scheduler.conf',
      lockObjectName: 'old-lock',
      lockObjectNamespace: 'old-ns',
    });
  });

  it('rejects a burst outside int32 at parse time', () => {
    expect(parse(['--platform-api-burst=3000000000']).parsed.errors).toHaveLength(1);
  });

  it.each<[string, string[], string[]]>([
    ['defaults', [], []],
    ['zero qps and burst are allowed', ['--platform-api-qps=0', '--platform-api-burst=0'], []],
    [
      'bad deprecated client values',
      ['--platform-api-qps=-1', '--platform-api-burst=-5'],
      ['--platform-api-qps must not be negative, got -1', '--platform-api-burst must not be negative, got -5'],
    ],
    [
      'deprecated values are not checked when --config makes them ignored',
      ['--config=/x.yaml', '--platform-api-qps=-1'],
      [],
    ],
    [
      'pod max duration must be positive',
      ['--pod-max-in-unschedulable-pods-duration=0s'],
      ['--pod-max-in-unschedulable-pods-duration must be greater than 0, got 0s'],
    ],
    // Leader election is validated on the merged configuration by resolveSchedulerConfiguration.
    ['leader election is not checked here', ['--leader-elect-renew-deadline=20s'], []],
  ])('validate: %s', (_name, argv, expected) => {
    const { o, parsed } = parse(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual(expected);
  });
});
