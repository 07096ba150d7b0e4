import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { FeatureOptions, type FeaturesConfig } from './features-options.js';

function setup(argv: string[]) {
  const o = new FeatureOptions();
  const fss = new NamedFlagSets('keel-apiserver');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const config: { features?: FeaturesConfig } = {};
  expect(o.validate()).toEqual([]);
  o.applyTo(config);
  return { fss, parsed, slice: config.features };
}

describe('FeatureOptions', () => {
  it('registers its flags in the Features section with the spec defaults', () => {
    const { fss } = setup([]);
    expect(fss.flagsIn('Features').map((f) => [f.name, f.typeName, f.defaultText])).toEqual([
      ['contention-profiling', '', ''],
      ['enable-priority-and-fairness', '', 'true'],
      ['profiling', '', 'true'],
    ]);
  });

  it.each([
    [[], { profiling: true, contentionProfiling: false, enablePriorityAndFairness: true }],
    [
      ['--contention-profiling'],
      { profiling: true, contentionProfiling: true, enablePriorityAndFairness: true },
    ],
    // Contention profiling rides on the profiling endpoints, so it is off without them.
    [
      ['--contention-profiling', '--profiling=false'],
      { profiling: false, contentionProfiling: false, enablePriorityAndFairness: true },
    ],
    [
      ['--enable-priority-and-fairness=false'],
      { profiling: true, contentionProfiling: false, enablePriorityAndFairness: false },
    ],
  ])('%j', (argv, expected) => {
    const { parsed, slice } = setup(argv);
    expect(parsed.errors).toEqual([]);
    expect(slice).toEqual(expected);
  });
});
