import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { FeatureOptions } from './features-options.js';
import {
  LimitsOptions,
  validateInflightWithPriorityAndFairness,
  type LimitsConfig,
} from './limits-options.js';

/** Limits and features together, as the aggregate wires them. */
function setup(argv: string[]) {
  const features = new FeatureOptions();
  const o = new LimitsOptions(features);
  const fss = new NamedFlagSets('keel-apiserver');
  features.addFlags(fss);
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const slice = () => {
    const config: { limits?: LimitsConfig } = {};
    o.applyTo(config);
    return config.limits;
  };
  return { o, fss, parsed, slice };
}

const SUM_ERROR = (n: number) =>
  `--max-requests-inflight and --max-mutating-requests-inflight sum to ${n}; ` +
  'with --enable-priority-and-fairness they must sum to a positive number';

describe('LimitsOptions', () => {
  it('registers its flags in the Generic section with the spec defaults', () => {
    const { fss, o, slice } = setup([]);
    expect(fss.flagsIn('Generic').map((f) => [f.name, f.typeName, f.defaultText])).toEqual([
      ['max-requests-inflight', 'int', '400'],
      ['max-mutating-requests-inflight', 'int', '200'],
      ['request-timeout', 'duration', '1m0s'],
      ['min-request-timeout', 'int', '1800'],
      ['max-connection-bytes-per-sec', 'int', ''],
    ]);
    expect(o.validate()).toEqual([]);
    const s = slice();
    expect({ ...s, requestTimeout: s?.requestTimeout.toString() }).toEqual({
      maxRequestsInflight: 400,
      maxMutatingRequestsInflight: 200,
      requestTimeout: '1m0s',
      minRequestTimeoutSeconds: 1800,
      maxConnectionBytesPerSec: 0,
    });
  });

  it('parses every flag into the slice', () => {
    const { parsed, o, slice } = setup([
      '--max-requests-inflight=10',
      '--max-mutating-requests-inflight=5',
      '--request-timeout=30s',
      '--min-request-timeout=60',
      '--max-connection-bytes-per-sec=1024',
    ]);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual([]);
    const s = slice();
    expect(s?.maxRequestsInflight).toBe(10);
    expect(s?.maxMutatingRequestsInflight).toBe(5);
    expect(s?.requestTimeout.milliseconds).toBe(30_000);
    expect(s?.minRequestTimeoutSeconds).toBe(60);
    expect(s?.maxConnectionBytesPerSec).toBe(1024);
  });

  it.each([
    [['--max-requests-inflight=0', '--max-mutating-requests-inflight=1'], []],
    [
      ['--max-requests-inflight=0', '--max-mutating-requests-inflight=0', '--enable-priority-and-fairness'],
      [SUM_ERROR(0)],
    ],
    [
      [
        '--max-requests-inflight=0',
        '--max-mutating-requests-inflight=0',
        '--enable-priority-and-fairness=false',
      ],
      [],
    ],
    [
      [
        '--max-requests-inflight=-1',
        '--max-mutating-requests-inflight=-2',
        '--enable-priority-and-fairness=false',
      ],
      [
        '--max-requests-inflight must not be negative, got -1',
        '--max-mutating-requests-inflight must not be negative, got -2',
      ],
    ],
    // A negative cap is reported once, not again as a non-positive sum.
    [
      ['--max-requests-inflight=-1', '--max-mutating-requests-inflight=1'],
      ['--max-requests-inflight must not be negative, got -1'],
    ],
    [['--request-timeout=0s'], ['--request-timeout must be greater than 0, got 0s']],
    [['--request-timeout=-1m'], ['--request-timeout must be greater than 0, got -1m0s']],
    [['--min-request-timeout=0'], ['--min-request-timeout must be greater than 0, got 0']],
    [['--max-connection-bytes-per-sec=-1'], ['--max-connection-bytes-per-sec must not be negative, got -1']],
  ])('validate %j', (argv, expected) => {
    const { parsed, o } = setup(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual(expected);
  });

  it.each([
    [400, 200, true, []],
    [0, 0, true, [SUM_ERROR(0)]],
    [0, 0, false, []],
    [-5, 0, true, []],
  ])('validateInflightWithPriorityAndFairness(%i, %i, apf=%s)', (reads, writes, apf, expected) => {
    expect(
      validateInflightWithPriorityAndFairness(
        { maxRequestsInflight: reads, maxMutatingRequestsInflight: writes },
        { enablePriorityAndFairness: apf },
      ),
    ).toEqual(expected);
  });
});
