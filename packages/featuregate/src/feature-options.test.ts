import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { FeatureGates, FeatureOptions, keelFeatures, type FeatureSpecs, type KnownFeature } from './index.js';

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
    ['APIServerIdentity', true],
    ['ConsistentListFromCache', true],
    ['APIResponseCompression', true],
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
    expect(usage).not.toContain('ConsistentListFromCache');
    expect(lines.slice(1)).toEqual([...lines.slice(1)].sort());
  });
});

describe('FeatureOptions parsing', () => {
  it.each<[string, string[], Partial<Record<KnownFeature, boolean>>]>([
    ['one gate off', ['--feature-gates', 'WatchList=false'], { WatchList: false, APIServerIdentity: true }],
    [
      'several gates, repeated flag merges',
      [
        '--feature-gates=WatchList=false,APIServerIdentity=false',
        '--feature-gates',
        'CBORServingAndStorage=true',
      ],
      { WatchList: false, APIServerIdentity: false, CBORServingAndStorage: true },
    ],
    [
      'Go bool spellings',
      ['--feature-gates', 'WatchList=F,CBORServingAndStorage=1'],
      { WatchList: false, CBORServingAndStorage: true },
    ],
    [
      'AllAlpha switches unnamed alpha gates',
      ['--feature-gates', 'AllAlpha=true'],
      { CBORServingAndStorage: true, WatchList: true },
    ],
    [
      'AllBeta=false switches off unnamed beta gates',
      ['--feature-gates', 'AllBeta=false'],
      {
        WatchList: false,
        APIServerIdentity: false,
        SchedulerAsyncPreemption: false,
        CBORServingAndStorage: false,
      },
    ],
    [
      'a named gate beats AllBeta, whatever the order',
      ['--feature-gates', 'WatchList=true,AllBeta=false'],
      { WatchList: true, APIServerIdentity: false },
    ],
    [
      'AllBeta leaves locked GA gates alone',
      ['--feature-gates', 'AllBeta=false'],
      { ConsistentListFromCache: true },
    ],
    [
      'a locked gate may be set to its own value',
      ['--feature-gates', 'SchedulerQueueingHints=true'],
      { SchedulerQueueingHints: true },
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
    ['valid gates', ['--feature-gates', 'WatchList=false,AllAlpha=true'], []],
  ])('%s', (_name, argv, expected) => {
    const { parseErrors, errors } = run(argv);
    expect(parseErrors).toEqual([]);
    expect(errors).toEqual(expected);
  });

  it('ignores an invalid override when building gates and keeps the locked value', () => {
    const { gates } = run(['--feature-gates', 'ConsistentListFromCache=false']);
    expect(gates.enabled('ConsistentListFromCache')).toBe(true);
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
