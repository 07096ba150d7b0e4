import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import {
  FeatureGates,
  FeatureOptions,
  keelFeatures,
  type FeatureSpec,
  type FeatureSpecs,
  type KnownFeature,
} from './index.js';

function run(argv: string[]) {
  const o = new FeatureOptions();
  const fss = new NamedFlagSets('test');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const config: { featureGates?: FeatureGates<KnownFeature> } = {};
  o.applyTo(config);
  if (!config.featureGates) throw new Error('applyTo wrote no featureGates');
  return { o, fss, parseErrors: parsed.errors, errors: o.validate(), gates: config.featureGates };
}

describe('FeatureOptions defaults', () => {
  it.each<[KnownFeature, boolean]>([
    ['WatchList', true],
    ['StorageVersionHash', true],
    // Fixed gates default to the one value Keel implements, unlike the real daemons.
    ['APIServerIdentity', true],
    ['APIResponseCompression', true],
    ['RemoteRequestHeaderUID', false],
    ['AllowParsingUserUIDFromCertAuth', false],
    ['SchedulerPopFromBackoffQ', false],
    ['ConsistentListFromCache', true],
    ['UnauthenticatedHTTP2DOSMitigation', true],
    ['SchedulerAsyncPreemption', true],
    ['AllAlpha', false],
    ['AllBeta', false],
    ['SchedulerQueueingHints', true],
    ['CBORServingAndStorage', false],
    ['WatchCacheInitializationPostStartHook', false],
  ])('%s defaults to %s', (name, value) => {
    const { errors, gates } = run([]);
    expect(errors).toEqual([]);
    expect(gates.enabled(name)).toBe(value);
  });

  it('lists every registered gate with its value', () => {
    const { gates } = run([]);
    expect([...gates.toMap().keys()]).toEqual(Object.keys(keelFeatures).sort());
  });

  it('puts the flag in the Features section and lists only flippable gates in help', () => {
    const { fss } = run([]);
    expect(fss.flagsIn('Features').map((f) => f.name)).toEqual(['feature-gates']);
    const usage = fss.lookup('feature-gates')?.usage ?? '';
    const lines = usage.split('\n');
    expect(lines[0]).toBe(
      'A set of key=value pairs that describe feature gates for alpha/experimental features. Options are:',
    );
    expect(lines).toContain('AllAlpha=true|false (ALPHA - default=false)');
    expect(lines).toContain('WatchList=true|false (BETA - default=true)');
    expect(lines).toContain('APIServerIdentity=true|false (BETA - default=true)');
    expect(lines).toContain(
      "SchedulerAsyncPreemption=true (BETA - fixed: Keel preempts only asynchronously: the victims' deletions always run outside the scheduling cycle)",
    );
    expect(usage).not.toContain('ConsistentListFromCache');
    expect(lines.slice(1)).toEqual([...lines.slice(1)].sort());
  });
});

describe('FeatureOptions parsing', () => {
  it.each<[string, string[], Partial<Record<KnownFeature, boolean>>]>([
    ['one gate off', ['--feature-gates', 'WatchList=false'], { WatchList: false, StorageVersionHash: true }],
    [
      'several gates, repeated flag merges',
      [
        '--feature-gates=WatchList=false,StorageVersionHash=false',
        '--feature-gates',
        'UnauthenticatedHTTP2DOSMitigation=false',
      ],
      { WatchList: false, StorageVersionHash: false, UnauthenticatedHTTP2DOSMitigation: false },
    ],
    [
      'Go bool spellings',
      ['--feature-gates', 'WatchList=F,SchedulerAsyncPreemption=1,StorageVersionHash=0'],
      { WatchList: false, SchedulerAsyncPreemption: true, StorageVersionHash: false },
    ],
    [
      'AllAlpha=true is accepted once the fixed alpha gates are named at their value',
      ['--feature-gates', 'AllAlpha=true,CBORServingAndStorage=false'],
      { CBORServingAndStorage: false, WatchList: true },
    ],
    [
      'AllBeta=true switches the other beta gates once the fixed ones are named at their value',
      [
        '--feature-gates',
        'AllBeta=true,APIServerIdentity=false,AllowParsingUserUIDFromCertAuth=false',
        '--feature-gates',
        'RemoteRequestHeaderUID=false,SchedulerPopFromBackoffQ=false',
      ],
      {
        WatchCacheInitializationPostStartHook: true,
        APIServerIdentity: false,
        SchedulerPopFromBackoffQ: false,
      },
    ],
    [
      'AllBeta=false switches off unnamed beta gates once the fixed ones are named at their value',
      ['--feature-gates', 'AllBeta=false,SchedulerAsyncPreemption=true'],
      {
        WatchList: false,
        StorageVersionHash: false,
        SchedulerAsyncPreemption: true,
        APIServerIdentity: false,
        CBORServingAndStorage: false,
      },
    ],
    [
      'a named gate beats AllBeta, whatever the order',
      ['--feature-gates', 'WatchList=true,AllBeta=false,SchedulerAsyncPreemption=true'],
      { WatchList: true, StorageVersionHash: false },
    ],
    [
      'AllBeta leaves locked GA gates alone',
      ['--feature-gates', 'AllBeta=false,SchedulerAsyncPreemption=true'],
      { ConsistentListFromCache: true },
    ],
    [
      'a locked gate may be set to its own value',
      ['--feature-gates', 'SchedulerQueueingHints=true'],
      { SchedulerQueueingHints: true },
    ],
    [
      "a fixed gate may be set to Keel's value",
      ['--feature-gates', 'APIServerIdentity=false,CBORServingAndStorage=false'],
      { APIServerIdentity: false, CBORServingAndStorage: false },
    ],
    [
      'meaningless gates take either value',
      [
        '--feature-gates',
        'UnauthenticatedHTTP2DOSMitigation=false,WatchCacheInitializationPostStartHook=true',
      ],
      {
        UnauthenticatedHTTP2DOSMitigation: false,
        WatchCacheInitializationPostStartHook: true,
      },
    ],
  ])('%s', (_name, argv, expected) => {
    const { parseErrors, errors, gates } = run(argv);
    expect(parseErrors).toEqual([]);
    expect(errors).toEqual([]);
    for (const [name, value] of Object.entries(expected))
      expect([name, gates.enabled(name as KnownFeature)]).toEqual([name, value]);
  });

  it('rejects a value that is not a bool at parse time', () => {
    expect(run(['--feature-gates', 'WatchList=yes']).parseErrors).toEqual([
      'invalid argument "WatchList=yes" for "--feature-gates" flag: invalid value of WatchList: yes, err: strconv.ParseBool: parsing "yes": invalid syntax',
    ]);
  });
});

describe('FeatureOptions validation', () => {
  it.each<[string, string[], string[]]>([
    ['unknown gate', ['--feature-gates', 'Foo=true'], ['unrecognized feature gate: Foo']],
    [
      'gates are case-sensitive',
      ['--feature-gates', 'watchlist=true'],
      ['unrecognized feature gate: watchlist'],
    ],
    [
      'a removed real gate',
      ['--feature-gates', 'APIPriorityAndFairness=true'],
      ['unrecognized feature gate: APIPriorityAndFairness'],
    ],
    [
      'locked gate',
      ['--feature-gates', 'ConsistentListFromCache=false'],
      ['cannot set feature gate ConsistentListFromCache to false, feature is locked to true'],
    ],
    [
      'every problem, in command-line order',
      ['--feature-gates', 'Foo=true,SchedulerQueueingHints=false,WatchList=false,Bar=false'],
      [
        'unrecognized feature gate: Foo',
        'cannot set feature gate SchedulerQueueingHints to false, feature is locked to true',
        'unrecognized feature gate: Bar',
      ],
    ],
    [
      'fixed gates',
      [
        '--feature-gates',
        'RemoteRequestHeaderUID=true,AllowParsingUserUIDFromCertAuth=true',
        '--feature-gates',
        'CBORServingAndStorage=true,SchedulerPopFromBackoffQ=true,SchedulerAsyncPreemption=false',
      ],
      [
        'cannot set feature gate RemoteRequestHeaderUID to true: Keel reads no user UID from front-proxy request headers and has no --requestheader-uid-headers',
        "cannot set feature gate AllowParsingUserUIDFromCertAuth to true: Keel does not read a user UID from the client certificate's OID 1.3.6.1.4.1.57683.2",
        'cannot set feature gate CBORServingAndStorage to true: Keel serves and stores no CBOR',
        'cannot set feature gate SchedulerPopFromBackoffQ to true: Keel pops pods only from the active queue, so a pod in backoff always waits its backoff out',
        "cannot set feature gate SchedulerAsyncPreemption to false: Keel preempts only asynchronously: the victims' deletions always run outside the scheduling cycle",
      ],
    ],
    [
      'AllBeta=false would flip a gate fixed at true',
      ['--feature-gates', 'AllBeta=false'],
      [
        'cannot set feature gate AllBeta to false: Keel fixes SchedulerAsyncPreemption to true; set it to true as well to switch the other beta gates',
      ],
    ],
    [
      'AllAlpha and AllBeta would flip fixed gates',
      [
        '--feature-gates',
        'AllAlpha=true,AllBeta=true,APIServerIdentity=false,SchedulerPopFromBackoffQ=false',
      ],
      [
        'cannot set feature gate AllAlpha to true: Keel fixes CBORServingAndStorage to false; set it to false as well to switch the other alpha gates',
        'cannot set feature gate AllBeta to true: Keel fixes AllowParsingUserUIDFromCertAuth, RemoteRequestHeaderUID to false; set them to false as well to switch the other beta gates',
      ],
    ],
    [
      'meaningless gates',
      [
        '--feature-gates',
        'UnauthenticatedHTTP2DOSMitigation=false,WatchCacheInitializationPostStartHook=true',
      ],
      [],
    ],
    [
      'valid gates',
      ['--feature-gates', 'WatchList=false,StorageVersionHash=false,AllBeta=false,SchedulerAsyncPreemption=true'],
      [],
    ],
  ])('%s', (_name, argv, expected) => {
    const { parseErrors, errors } = run(argv);
    expect(parseErrors).toEqual([]);
    expect(errors).toEqual(expected);
  });

  it('ignores an invalid override when building gates and keeps the locked value', () => {
    const { gates } = run(['--feature-gates', 'ConsistentListFromCache=false']);
    expect(gates.enabled('ConsistentListFromCache')).toBe(true);
  });

  it("keeps a fixed gate at Keel's value whatever was asked", () => {
    const { gates } = run(['--feature-gates', 'RemoteRequestHeaderUID=true,AllBeta=true']);
    expect(gates.enabled('RemoteRequestHeaderUID')).toBe(false);
    expect(gates.enabled('AllowParsingUserUIDFromCertAuth')).toBe(false);
  });

  it('has a row in the Feature gates table of docs/operations.md for every gate', () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
    const ops = readFileSync(join(root, 'docs', 'operations.md'), 'utf8');
    const section = ops.slice(ops.indexOf('\n## Feature gates\n'));
    const rows = section.split('\n').filter((l) => l.startsWith('| `'));
    for (const name of Object.keys(keelFeatures)) {
      expect(
        rows.some((r) => r.split('|')[1]?.includes(`\`${name}\``)),
        name,
      ).toBe(true);
    }
  });

  it('gives every fixed or meaningless gate a reason, and fixed gates only where they can be flipped', () => {
    for (const [name, spec] of Object.entries(keelFeatures) as [KnownFeature, FeatureSpec][]) {
      if (spec.keel === undefined) continue;
      const reason = 'fixed' in spec.keel ? spec.keel.fixed : spec.keel.meaningless;
      expect(reason.trim(), name).not.toBe('');
      expect(spec.lockToDefault, name).toBeUndefined();
    }
  });

  it('warns when GA or deprecated gates are set', () => {
    const specs: FeatureSpecs<'Old' | 'Done' | 'New'> = {
      Old: { default: false, preRelease: 'DEPRECATED' },
      Done: { default: true, preRelease: 'GA', lockToDefault: true },
      New: { default: false, preRelease: 'ALPHA' },
    };
    const o = new FeatureOptions(specs);
    const fss = new NamedFlagSets('test');
    o.addFlags(fss);
    parseArgs(fss, ['--feature-gates', 'Old=true,Done=true,New=true']);
    expect(o.validate()).toEqual([]);
    expect(o.warnings()).toEqual([
      'Setting deprecated feature gate Old=true. It will be removed in a future release.',
      'Setting GA feature gate Done=true. It will be removed in a future release.',
    ]);
  });
});

describe('FeatureGates', () => {
  it('throws for a gate that was never registered', () => {
    const gates = new FeatureGates<string>({ A: { default: true, preRelease: 'BETA' } });
    expect(gates.enabled('A')).toBe(true);
    expect(() => gates.enabled('B')).toThrow('feature "B" is not registered in FeatureGate');
  });

  it('does not treat inherited object keys as gates', () => {
    const { errors } = run(['--feature-gates', 'toString=true,constructor=false']);
    expect(errors).toEqual(['unrecognized feature gate: toString', 'unrecognized feature gate: constructor']);
  });
});
